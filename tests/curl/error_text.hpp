// Test helper: the message of the ParseError a call throws, so tests compare whole lines.
#pragma once

#include <string>

#include "curl/parse_error.hpp"

namespace stampede::curl {

/// What `call` throws as a ParseError, or "no error".
template <typename Call>
std::string error_text(Call call) {
  try {
    call();
  } catch (const ParseError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace stampede::curl
