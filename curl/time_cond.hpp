// -z / --time-cond: a date (in curl_getdate's forms) or a file's time -> If-(Un)Modified-Since.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "curl/command.hpp"
#include "curl/files.hpp"

namespace stampede::curl {

/// A date as curl_getdate(3) reads it ("Sun, 06 Nov 1994 08:49:37 GMT", "06-Nov-94", "Nov 6
/// 1994 08:49 PST", "20230120 10:00 +0100"...), as seconds since 1970, or nullopt.
std::optional<long long> parse_curl_date(std::string_view text);

/// The header -z asks for: a date, or the time of the file it names; `-` before it asks for
/// If-Unmodified-Since, `+` (or nothing) If-Modified-Since, `=` for no header. Nullopt (with a
/// warning, as curl) when the text is neither a date nor a file.
std::optional<std::pair<std::string, std::string>> time_condition(const Argument& argument,
                                                                  const Files& files,
                                                                  std::vector<Warning>& warnings);

}  // namespace stampede::curl
