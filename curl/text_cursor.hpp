// A read position in a curl file's text that keeps its line and column, for the shell splitters.
#pragma once

#include <cstddef>
#include <string_view>

#include "curl/parse_error.hpp"

namespace stampede::curl {

/// Reads text byte by byte; `\r\n` and `\n` both count as one new line.
class TextCursor {
 public:
  /// Reads `text`, whose first byte is at `start` in the file.
  explicit TextCursor(std::string_view text, Position start = {}) : text_(text), where_(start) {}

  /// True when every byte has been read.
  bool done() const noexcept { return at_ >= text_.size(); }
  /// Bytes not read yet.
  std::size_t size_left() const noexcept { return text_.size() - at_; }
  /// The byte `ahead` places on; the caller checks size_left() first.
  char peek(std::size_t ahead = 0) const noexcept { return text_[at_ + ahead]; }
  /// The byte `ahead` places on, or '\0' past the end.
  char peek_or_nul(std::size_t ahead) const noexcept {
    return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0';
  }
  /// Where the next byte is.
  Position where() const noexcept { return where_; }

  /// Reads one byte.
  char next() noexcept {
    const char c = text_[at_++];
    if (c == '\n') {
      ++where_.line;
      where_.column = 1;
    } else {
      ++where_.column;
    }
    return c;
  }

  /// True when a line ends `ahead` places on (`\n` or `\r\n`).
  bool newline_at(std::size_t ahead) const noexcept {
    return peek_or_nul(ahead) == '\n' ||
           (peek_or_nul(ahead) == '\r' && peek_or_nul(ahead + 1) == '\n');
  }

  /// Reads a line end (`\n` or `\r\n`).
  void skip_newline() noexcept {
    if (peek() == '\r') next();
    next();
  }

  /// Reads an escape byte (`\` or `^`) and the line end after it.
  void skip_continuation() noexcept {
    next();
    skip_newline();
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
  Position where_;
};

}  // namespace stampede::curl
