// The capture grammar, shared by `# stampede: capture ...` lines and --capture.
#pragma once

#include <stdexcept>
#include <string_view>

#include "model/capture.hpp"

namespace stampede::curl {

/// A capture stampede cannot read; what() says what is wrong and how it is written.
class CaptureError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Reads `NAME = json /pointer`, `NAME = header Name [REGEX]` or `NAME = body REGEX` (NAME of
/// letters, digits and `_`; the REGEX is the rest of the text, in Perl's syntax as Boost.Regex
/// reads it). Throws CaptureError.
model::Capture parse_capture(std::string_view text);

}  // namespace stampede::curl
