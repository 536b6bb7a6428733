// bash's `$'...'` quote: C escapes, read from a curl file's text.
#pragma once

#include <string>

#include "curl/text_cursor.hpp"

namespace stampede::curl {

/// Reads `'...'` (the cursor is on the opening quote; `start` is where the `$` was) and appends
/// what it means; a `\0` ends the string there, as bash's arguments are C strings. Throws
/// ParseError at `start` when the quote is not closed.
void read_ansi_c(TextCursor& in, std::string& out, Position start);

}  // namespace stampede::curl
