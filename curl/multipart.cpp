// make_multipart(): curl's part syntax, its content types by file name, and its part layout.
#include "curl/multipart.hpp"

#include <algorithm>
#include <array>
#include <random>
#include <utility>

#include "curl/files.hpp"

namespace stampede::curl {

namespace {

struct Part {
  std::string name;
  std::string content;
  std::string filename;      ///< set for @file parts
  std::string content_type;  ///< `;type=`, or guessed for @file parts
};

/// curl's table (lib/mime.c): a few extensions, the rest is application/octet-stream.
std::string type_for(const std::string& filename) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 10> types{{
      {".gif", "image/gif"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".png", "image/png"},
      {".svg", "image/svg+xml"},
      {".txt", "text/plain"},
      {".htm", "text/html"},
      {".html", "text/html"},
      {".pdf", "application/pdf"},
      {".xml", "application/xml"},
  }};
  std::string lower = filename;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& [extension, type] : types) {
    if (lower.ends_with(extension)) return std::string(type);
  }
  return "application/octet-stream";
}

/// curl's word in a -F value: `"quoted"` (with `\"` and `\\`) or up to the next `;`.
std::string take_parameter(std::string_view& text) {
  std::string word;
  if (!text.starts_with('"')) {
    const auto end = std::min(text.find(';'), text.size());
    word = text.substr(0, end);
    text.remove_prefix(end);
    return word;
  }
  std::size_t i = 1;
  for (; i < text.size() && text[i] != '"'; ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) ++i;
    word += text[i];
  }
  text.remove_prefix(std::min(i + 1, text.size()));
  text.remove_prefix(std::min(text.find(';'), text.size()));
  return word;
}

/// Splits `value;type=T;filename=F` into the value and its parameters; curl skips the others.
std::string take_parameters(std::string_view text, Part& part) {
  auto value = take_parameter(text);
  while (text.starts_with(';')) {
    text.remove_prefix(1);
    while (text.starts_with(' ')) text.remove_prefix(1);
    const auto key_end = std::min(text.find('='), text.size());
    const auto key = text.substr(0, key_end);
    text.remove_prefix(std::min(key_end + 1, text.size()));
    const auto parameter = take_parameter(text);
    if (key == "type") part.content_type = parameter;
    if (key == "filename") part.filename = parameter;
  }
  return value;
}

Part read_part(const FormArgument& form, const Files& files) {
  const auto& text = form.argument.value;
  const auto equals = text.find('=');
  if (equals == std::string::npos) {
    throw ParseError(form.argument.where, "form part '" + text + "' has no '=' (use name=value)");
  }
  Part part{text.substr(0, equals), text.substr(equals + 1), {}, {}};
  if (form.literal) return part;
  if (part.content.starts_with("@") || part.content.starts_with("<")) {
    const bool upload = part.content.front() == '@';
    const auto path = take_parameters(part.content.substr(1), part);
    part.content = files.read(path, form.argument.where);
    if (upload && part.filename.empty()) part.filename = std::filesystem::path(path).filename();
    if (upload && part.content_type.empty()) part.content_type = type_for(part.filename);
  } else {
    part.content = take_parameters(part.content, part);
  }
  return part;
}

/// Names and file names go in quotes; curl escapes the three bytes that would break them.
std::string quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    out += c == '"' ? "%22" : c == '\r' ? "%0D" : c == '\n' ? "%0A" : std::string(1, c);
  }
  return out + "\"";
}

std::string random_boundary() {
  std::random_device random;
  std::string boundary(24, '-');
  for (int i = 0; i < 16; ++i) boundary += "0123456789abcdef"[random() % 16];
  return boundary;
}

}  // namespace

Multipart make_multipart(const std::vector<FormArgument>& parts, const Files& files,
                         std::string_view disposition) {
  Multipart out{random_boundary(), {}};
  for (const auto& form : parts) {
    const auto part = read_part(form, files);
    out.body += "--" + out.boundary + "\r\nContent-Disposition: " + std::string(disposition) +
                "; name=" + quote(part.name);
    if (!part.filename.empty()) out.body += "; filename=" + quote(part.filename);
    out.body += "\r\n";
    if (!part.content_type.empty()) out.body += "Content-Type: " + part.content_type + "\r\n";
    out.body += "\r\n" + part.content + "\r\n";
  }
  out.body += "--" + out.boundary + "--\r\n";
  return out;
}

}  // namespace stampede::curl
