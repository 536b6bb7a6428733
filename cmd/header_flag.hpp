// -H on stampede's command line: checked, then applied to a request as curl applies its -H.
#pragma once

#include <string>

#include "model/request.hpp"

namespace stampede::cmd {

/// One -H as curl reads it: `Name: value` sends the header, `Name;` sends it with an empty
/// value, `Name:` keeps stampede's default header of that name from being sent.
struct HeaderFlag {
  std::string name;
  std::string value;
  bool drop = false;  ///< `Name:`
};

/// Reads one -H. Throws UsageError for what would not be sent as one header: no colon, a name
/// that is not one word, a line break or NUL, `Host:` (HTTP/1.1 requires a Host), or the
/// framing headers stampede computes itself (Content-Length, Transfer-Encoding).
HeaderFlag parse_header_flag(const std::string& text);

/// Applies `header` to `request`: drops (`Name:`) or sets it, replacing what the request had
/// under that name when `replace` (a curl file's header), adding another line otherwise.
void apply_header(const HeaderFlag& header, bool replace, model::Request& request);

/// The URL's `user:password@` as curl sends it: `Authorization: Basic`, unless the request has
/// an Authorization header or drops it. Nothing for empty `credentials`.
void add_basic_auth(const std::string& credentials, model::Request& request);

}  // namespace stampede::cmd
