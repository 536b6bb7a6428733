// What a step keeps from its response for later requests: a token after a login, an id.
#pragma once

#include <string>

namespace stampede::model {

/// Where in the response a capture looks.
enum class CaptureSource : unsigned char {
  json,    ///< the body as JSON, at a JSON Pointer (RFC 6901)
  header,  ///< a header's value (the first of that name)
  body,    ///< the body as text
};

/// One `NAME = json /pointer`, `NAME = header Name [REGEX]` or `NAME = body REGEX`: the value
/// found becomes `${NAME}` in the requests that follow.
struct Capture {
  std::string name;
  CaptureSource source = CaptureSource::json;
  std::string path;     ///< the JSON Pointer, or the header's name in lower case
  std::string pattern;  ///< a regular expression (Perl's, as Boost.Regex reads it) on the value;
                        ///< its first group (or the whole match) is kept; empty: the whole value
  friend bool operator==(const Capture&, const Capture&) = default;
};

}  // namespace stampede::model
