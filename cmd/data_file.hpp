// --data-file FILE.csv: the rows `${csv:COLUMN}` reads, and --data-mode's choice of row.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "model/data_rows.hpp"

namespace stampede::cmd {

/// True for a --data-file that holds rows (its name ends in .csv, any case); any other is a
/// gRPC message's bytes.
bool is_csv_name(std::string_view path);

/// Reads CSV `text` (RFC 4180: `,` between fields, `"` quotes with `""` inside, CRLF or LF; the
/// first row names the columns). Throws UsageError naming `name`'s line for a row with another
/// number of fields, an unclosed quote, a missing, empty or repeated column name, or no row.
model::DataRows parse_csv(std::string_view text, const std::string& name);

/// The file at `path` read by parse_csv(), with `mode` (per-user, per-request or random; empty:
/// per-user). Throws UsageError.
std::shared_ptr<const model::DataRows> read_data_file(const std::string& path,
                                                      const std::string& mode);

}  // namespace stampede::cmd
