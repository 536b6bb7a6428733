// parse_csv() and read_data_file(). CSV is read here rather than by a library: Debian's libcsv
// is a C callback parser that would take more code to drive than RFC 4180's few rules take.
#include "cmd/data_file.hpp"

#include <algorithm>
#include <boost/algorithm/string/predicate.hpp>
#include <fstream>
#include <sstream>

#include "cmd/options.hpp"

namespace stampede::cmd {

namespace {

/// Reads one record from `text` at `at` (moved past it and its line end); `line` counts lines.
std::vector<std::string> read_record(std::string_view text, std::size_t& at, int& line,
                                     const std::string& name) {
  std::vector<std::string> fields(1);
  const int start = line;
  bool quoted = false;
  while (at < text.size()) {
    const char c = text[at++];
    if (quoted) {
      if (c == '"' && at < text.size() && text[at] == '"') {
        fields.back() += '"';
        ++at;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n' || (c == '\r' && at < text.size() && text[at] == '\n')) {
      if (c == '\r') ++at;
      ++line;
      return fields;
    } else {
      fields.back() += c;
    }
  }
  if (quoted) {
    throw UsageError(name + ":" + std::to_string(start) + ": a quote (\") is not closed");
  }
  ++line;
  return fields;
}

void check_columns(const std::vector<std::string>& columns, const std::string& name) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].empty()) {
      throw UsageError(name + ":1: column " + std::to_string(i + 1) +
                       " has no name (the first row names the columns, for ${csv:NAME})");
    }
    if (std::find(columns.begin(), columns.begin() + static_cast<std::ptrdiff_t>(i), columns[i]) !=
        columns.begin() + static_cast<std::ptrdiff_t>(i)) {
      throw UsageError(name + ":1: column '" + columns[i] + "' is named twice");
    }
  }
}

model::DataMode mode_of(const std::string& mode) {
  if (mode.empty() || mode == "per-user") return model::DataMode::per_user;
  if (mode == "per-request") return model::DataMode::per_request;
  if (mode == "random") return model::DataMode::random;
  throw UsageError("--data-mode must be per-user, per-request or random, not '" + mode + "'");
}

}  // namespace

bool is_csv_name(std::string_view path) {
  return path.size() > 4 && boost::algorithm::iends_with(path, ".csv");
}

model::DataRows parse_csv(std::string_view text, const std::string& name) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a spreadsheet's UTF-8 mark
  model::DataRows data;
  std::size_t at = 0;
  int line = 1;
  data.columns = read_record(text, at, line, name);
  check_columns(data.columns, name);
  while (at < text.size()) {
    const int start = line;
    auto row = read_record(text, at, line, name);
    if (row.size() == 1 && row.front().empty()) continue;  // a blank line
    if (row.size() != data.columns.size()) {
      throw UsageError(name + ":" + std::to_string(start) + ": " + std::to_string(row.size()) +
                       " fields, but the header names " + std::to_string(data.columns.size()) +
                       " columns");
    }
    data.rows.push_back(std::move(row));
  }
  if (data.rows.empty()) throw UsageError(name + ": no rows after the header");
  return data;
}

std::shared_ptr<const model::DataRows> read_data_file(const std::string& path,
                                                      const std::string& mode) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw UsageError("cannot read --data-file '" + path + "'");
  std::ostringstream text;
  text << file.rdbuf();
  auto data = parse_csv(text.str(), path);
  data.mode = mode_of(mode);
  return std::make_shared<const model::DataRows>(std::move(data));
}

}  // namespace stampede::cmd
