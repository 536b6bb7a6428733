// read_ansi_c(): bash's escapes in `$'...'`, byte for byte as bash writes them.
#include "curl/ansi_c.hpp"

#include <cctype>
#include <string_view>

namespace stampede::curl {

namespace {

/// Appends code point `cp` as UTF-8, as bash does for `\u` and `\U`.
void append_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | ((cp >> 18) & 0x07));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

unsigned long read_number(TextCursor& in, int base, int max_digits, unsigned long value = 0) {
  for (int i = 0; i < max_digits && !in.done(); ++i) {
    const char c = in.peek();
    const int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                      : std::isxdigit(static_cast<unsigned char>(c))
                          ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                          : 99;
    if (digit >= base) break;
    value = value * static_cast<unsigned long>(base) + static_cast<unsigned long>(digit);
    in.next();
  }
  return value;
}

void ansi_escape(TextCursor& in, std::string& out) {
  const char c = in.next();
  const std::string_view simple = "abefnrtv\\'\"?E";
  const std::string_view meaning = "\a\b\x1b\f\n\r\t\v\\'\"?\x1b";
  if (const auto at = simple.find(c); at != std::string_view::npos) {
    out += meaning[at];
  } else if (c >= '0' && c <= '7') {
    out += static_cast<char>(read_number(in, 8, 2, static_cast<unsigned long>(c - '0')) & 0xFF);
  } else if (c == 'x' && std::isxdigit(static_cast<unsigned char>(in.peek_or_nul(0)))) {
    out += static_cast<char>(read_number(in, 16, 2));
  } else if ((c == 'u' || c == 'U') &&
             std::isxdigit(static_cast<unsigned char>(in.peek_or_nul(0)))) {
    append_utf8(out, read_number(in, 16, c == 'u' ? 4 : 8));
  } else if (c == 'c' && !in.done() && in.peek() != '\'') {
    out += static_cast<char>(in.next() & 0x1F);
  } else {
    out += '\\';
    out += c;
  }
}

}  // namespace

void read_ansi_c(TextCursor& in, std::string& out, Position start) {
  in.next();
  bool truncated = false;
  while (!in.done() && in.peek() != '\'') {
    std::string piece;
    if (in.peek() == '\\' && in.size_left() > 1) {
      in.next();
      ansi_escape(in, piece);
    } else {
      piece += in.next();
    }
    if (piece.find('\0') != std::string::npos) truncated = true;
    if (!truncated) out += piece;
  }
  if (in.done()) throw ParseError(start, "unterminated $'...' quote");
  in.next();
}

}  // namespace stampede::curl
