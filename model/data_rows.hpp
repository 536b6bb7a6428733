// --data-file's rows: the values `${csv:COLUMN}` takes, and how users take the rows.
#pragma once

#include <string>
#include <vector>

namespace stampede::model {

/// Which row a user's round reads.
enum class DataMode : unsigned char {
  per_user,     ///< user u keeps row u (modulo the rows) for all its rounds
  per_request,  ///< each round, whoever's, takes the next row in turn, from the first
  random,       ///< each round takes a row at random (the user's seeded draw)
};

/// A CSV file read before the run: its header's names, then its rows, each as many values.
struct DataRows {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  ///< at least one
  DataMode mode = DataMode::per_user;
};

}  // namespace stampede::model
