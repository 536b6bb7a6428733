// One curl command's words read as curl reads them: options with their arguments, and URLs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "curl/shell_words.hpp"
#include "model/request.hpp"

namespace stampede::curl {

/// An option's argument (or a URL) and where it starts.
struct Argument {
  std::string value;
  Position where;
};

/// The five ways curl takes a request body from -d and its kin.
enum class DataKind : unsigned char {
  ascii,      ///< -d, --data, --data-ascii: `@file` with CR and LF removed
  raw,        ///< --data-raw: no `@` meaning
  binary,     ///< --data-binary: `@file` as is
  urlencode,  ///< --data-urlencode: `content`, `=content`, `name=content`, `@file`, `name@file`
  json,       ///< --json: as binary, pieces joined without `&`, JSON content type
};

/// One -d-like option.
struct DataArgument {
  DataKind kind;
  Argument argument;
};

/// One -F (`literal` false) or --form-string (`literal` true).
struct FormArgument {
  bool literal;
  Argument argument;
};

/// A curl command as curl understood it; later single-valued options win, as in curl.
struct CurlCommand {
  Position where;  ///< of the word `curl`
  std::vector<Argument> urls;
  std::optional<Argument> method;  ///< -X
  std::vector<Argument> headers;   ///< -H, in order
  std::vector<DataArgument> data;  ///< -d and its kin, in order
  std::vector<FormArgument> form;  ///< -F and --form-string, in order
  std::vector<Argument> cookies;   ///< -b: `name=value` strings or cookie files
  std::optional<Argument> user;    ///< -u user:password
  std::optional<Argument> user_agent;
  std::optional<Argument> referer;
  std::optional<Argument> upload_file;  ///< -T
  std::optional<Argument> max_time;
  std::optional<Argument> connect_timeout;
  std::optional<Argument> range;             ///< -r
  std::vector<Argument> url_queries;         ///< --url-query, in order
  std::optional<Argument> bearer;            ///< --oauth2-bearer
  std::optional<Argument> time_condition;    ///< -z
  std::optional<Argument> default_protocol;  ///< --proto-default
  std::optional<Argument> request_target;
  std::optional<Argument> unix_socket;  ///< --unix-socket or --abstract-unix-socket
  bool abstract_socket = false;         ///< unix_socket is in Linux's abstract namespace
  std::vector<Argument> resolves;       ///< --resolve
  std::vector<Argument> connect_tos;    ///< --connect-to
  bool get = false;                     ///< -G: data goes into the query string
  bool head = false;
  bool insecure = false;
  bool no_sessionid = false;  ///< --no-sessionid: no TLS session resumed
  bool compressed = false;
  bool location = false;
  bool path_as_is = false;
  bool digest = false;  ///< --digest: credentials wait for the server's challenge
  /// --basic / --no-basic, the last given. curl keeps the methods as a set: Basic alone (or
  /// none: libcurl's default) is sent at once; with Digest too, the server's challenge chooses.
  std::optional<bool> basic;
  model::HttpVersion http_version = model::HttpVersion::any;
  std::vector<Warning> warnings;
};

/// Reads one shell command (`words[0]` is curl): one CurlCommand, or several when `--next`
/// starts new ones. Long options may be shortened to any unambiguous prefix, as curl allows.
/// Throws ParseError (no file name) at an option curl does not know, an ambiguous prefix, or
/// an option that lacks its argument.
std::vector<CurlCommand> read_commands(const Words& words);

}  // namespace stampede::curl
