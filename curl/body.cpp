// join_data(): each -d kind's own reading of `@file`, then curl's way of joining the pieces.
#include "curl/body.hpp"

#include <algorithm>
#include <cctype>

#include "curl/files.hpp"

namespace stampede::curl {

namespace {

std::string resolve(const DataArgument& piece, const Files& files) {
  const auto& text = piece.argument.value;
  switch (piece.kind) {
    case DataKind::raw:
      return text;
    case DataKind::urlencode:
      return url_encoded_piece(piece.argument, files, Hex::upper);
    case DataKind::ascii: {
      if (!text.starts_with("@")) return text;
      auto content = files.read(text.substr(1), piece.argument.where);
      std::erase_if(content, [](char c) { return c == '\r' || c == '\n'; });
      return content;
    }
    case DataKind::binary:
    case DataKind::json:
      break;
  }
  return text.starts_with("@") ? files.read(text.substr(1), piece.argument.where) : text;
}

}  // namespace

std::string url_encoded_piece(const Argument& argument, const Files& files, Hex hex_case) {
  const auto& text = argument.value;
  const auto equals = text.find('=');
  const auto at = text.find('@');
  if (at != std::string::npos && (equals == std::string::npos || at < equals)) {
    const auto name = text.substr(0, at);
    const auto content = files.read(text.substr(at + 1), argument.where);
    return (name.empty() ? "" : name + "=") + url_encode(content, hex_case);
  }
  if (equals == std::string::npos) return url_encode(text, hex_case);
  const auto name = text.substr(0, equals);
  return (name.empty() ? "" : name + "=") + url_encode(text.substr(equals + 1), hex_case);
}

std::string url_encode(std::string_view text, Hex hex_case) {
  const char* hex = hex_case == Hex::upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else if (c == ' ') {
      out += '+';
    } else {
      out += '%';
      out += hex[byte >> 4];
      out += hex[byte & 0x0F];
    }
  }
  return out;
}

std::string join_data(const std::vector<DataArgument>& data, const Files& files) {
  std::string body;
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (i > 0 && data[i].kind != DataKind::json) body += '&';
    body += resolve(data[i], files);
  }
  return body;
}

}  // namespace stampede::curl
