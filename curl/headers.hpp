// The header list of one curl request in curl's order: what curl adds of its own before the
// user's -H lines (Authorization, Range, User-Agent...), the -H lines, then the body's.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "curl/command.hpp"
#include "curl/files.hpp"

namespace stampede::curl {

/// curl's -H rules: `Name: value` is sent, `Name;` is sent with an empty value, `Name:` keeps
/// curl (and stampede) from sending its own header of that name; `@file` reads one header a line.
class Headers {
 public:
  /// Reads the -H arguments; relative `@file`s are found through `files`. Throws ParseError.
  Headers(const std::vector<Argument>& arguments, const Files& files,
          std::vector<Warning>& warnings);

  /// Adds a header curl adds on its own, unless the user set or removed one of that name.
  void add_default(std::string_view name, std::string value);
  /// Keeps a default header from being sent, unless the user set one of that name.
  void omit_default(std::string_view name);
  /// Sets the body's header `name` to `value`, in the body's place (after Content-Length), the
  /// user's header of that name included: curl sends a form's Content-Type there.
  void set_body_header(std::string_view name, std::string value);
  /// Adds a header as a -H line would (curl's --json does), unless the user set or removed one
  /// of that name.
  void add_as_user(std::string_view name, std::string value);
  /// The value of the user's header `name`, if any.
  std::optional<std::string> value(std::string_view name) const;

  /// The headers to send, in curl 7.88's order (its Curl_http()): Authorization, Range,
  /// User-Agent, Accept, Accept-Encoding, Referer, Cookie and the time condition, each only if
  /// added; the -H lines in their order and case; then Content-Type and Expect.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> in_order() const;
  /// Where in in_order() stampede's own User-Agent and Accept go, as curl's: after
  /// Authorization, Range and -A's User-Agent.
  [[nodiscard]] std::size_t defaults_at() const;
  /// Where in in_order() the body's headers start (Content-Type, Expect): curl sends them
  /// after Content-Length.
  [[nodiscard]] std::size_t body_headers_at() const;
  /// The default headers not to send.
  const std::vector<std::string>& omitted() const { return omitted_; }

 private:
  void read(const Argument& argument, std::vector<Warning>& warnings);
  std::vector<std::pair<std::string, std::string>>::iterator find(std::string_view name);
  bool is_omitted(std::string_view name) const;

  std::vector<std::pair<std::string, std::string>> custom_;  ///< the -H lines
  std::vector<std::pair<std::string, std::string>> added_;   ///< curl's own, as added
  std::vector<std::string> omitted_;
};

/// Base64 (RFC 4648, with padding), for `Authorization: Basic`.
std::string base64(std::string_view bytes);

}  // namespace stampede::curl
