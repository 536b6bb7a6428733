// Where a curl file is wrong: file, line and column, and what is wrong there, on one line.
#pragma once

#include <stdexcept>
#include <string>

namespace stampede::curl {

/// A place in a curl file, both counted from 1 (columns in bytes).
struct Position {
  int line = 1;
  int column = 1;
};

/// Something stampede will not do as curl (or bash) would; the user is told, the run goes on.
struct Warning {
  Position where;
  std::string text;
};

/// A curl file stampede cannot replay as written; what() is `file:line:column: message`.
class ParseError : public std::runtime_error {
 public:
  ParseError(Position where, const std::string& message, const std::string& file = "")
      : std::runtime_error((file.empty() ? "" : file + ":") + std::to_string(where.line) + ":" +
                           std::to_string(where.column) + ": " + message),
        where_(where),
        message_(message),
        file_(file) {}

  /// Where the mistake is.
  Position where() const noexcept { return where_; }
  /// What is wrong, without the place.
  const std::string& message() const noexcept { return message_; }
  /// The file's name as the user gave it; empty for text that came from no file.
  const std::string& file() const noexcept { return file_; }

 private:
  Position where_;
  std::string message_;
  std::string file_;
};

}  // namespace stampede::curl
