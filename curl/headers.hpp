// The header list of one curl request: the user's -H lines first, then what curl adds unless told.
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
  /// Sets `name` to `value`, replacing the user's header of that name (or adding it).
  void replace(std::string_view name, std::string value);
  /// The value of the user's header `name`, if any.
  std::optional<std::string> value(std::string_view name) const;

  /// The headers to send, in order.
  const std::vector<std::pair<std::string, std::string>>& custom() const { return custom_; }
  /// The default headers not to send.
  const std::vector<std::string>& omitted() const { return omitted_; }

 private:
  void read(const Argument& argument, std::vector<Warning>& warnings);
  std::vector<std::pair<std::string, std::string>>::iterator find(std::string_view name);
  bool is_omitted(std::string_view name) const;

  std::vector<std::pair<std::string, std::string>> custom_;
  std::vector<std::string> omitted_;
};

/// Base64 (RFC 4648, with padding), for `Authorization: Basic`.
std::string base64(std::string_view bytes);

}  // namespace stampede::curl
