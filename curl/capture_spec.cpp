// parse_capture(): a capture's name, its source and what it looks for, checked before the run.
#include "curl/capture_spec.hpp"

#include <algorithm>
#include <boost/regex.hpp>
#include <cctype>
#include <string>

namespace stampede::curl {

namespace {

constexpr std::string_view forms =
    "write NAME = json /pointer, NAME = header Name [REGEX] or NAME = body REGEX";

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

/// The first word of `text` (trimmed), and `text` moves past it.
std::string_view take_word(std::string_view& text) {
  text = trimmed(text);
  const auto end = std::min(text.find_first_of(" \t"), text.size());
  const auto word = text.substr(0, end);
  text = trimmed(text.substr(end));
  return word;
}

bool is_name(std::string_view name) {
  const auto word_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  };
  return !name.empty() && std::isdigit(static_cast<unsigned char>(name.front())) == 0 &&
         std::all_of(name.begin(), name.end(), word_char);
}

/// RFC 6901: empty (the whole document) or `/` tokens, `~` only as `~0` or `~1`.
void check_pointer(std::string_view pointer) {
  bool bad = !pointer.empty() && pointer.front() != '/';
  for (std::size_t i = 0; i < pointer.size() && !bad; ++i) {
    bad = pointer[i] == '~' &&
          (i + 1 == pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1'));
  }
  if (bad) {
    throw CaptureError("'" + std::string(pointer) +
                       "' is not a JSON Pointer (write /token or /items/0/id; ~1 for a / in a "
                       "name, ~0 for ~)");
  }
}

void check_pattern(const std::string& pattern) {
  std::size_t groups = 0;
  try {
    groups = boost::regex(pattern).mark_count();
  } catch (const boost::regex_error& error) {
    throw CaptureError("'" + pattern + "' is not a regular expression (" + error.what() + ")");
  }
  if (groups > 1) {
    throw CaptureError("'" + pattern + "' has " + std::to_string(groups) +
                       " groups; a capture keeps one (make the others (?:...))");
  }
}

}  // namespace

model::Capture parse_capture(std::string_view text) {
  const auto equals = text.find('=');
  if (equals == std::string_view::npos)
    throw CaptureError("no '=' in '" + std::string(trimmed(text)) + "' (" + std::string(forms) +
                       ")");
  model::Capture capture;
  capture.name = trimmed(text.substr(0, equals));
  if (!is_name(capture.name)) {
    throw CaptureError("'" + capture.name +
                       "' is not a capture's name (letters, digits and _, not starting with a "
                       "digit)");
  }
  auto rest = text.substr(equals + 1);
  const auto source = take_word(rest);
  if (source == "json") {
    capture.source = model::CaptureSource::json;
    capture.path = rest;
    check_pointer(capture.path);
  } else if (source == "header") {
    capture.source = model::CaptureSource::header;
    capture.path = take_word(rest);
    if (capture.path.empty())
      throw CaptureError("header: which header? (" + std::string(forms) + ")");
    for (auto& c : capture.path) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    capture.pattern = rest;
  } else if (source == "body") {
    capture.source = model::CaptureSource::body;
    capture.pattern = rest;
    if (capture.pattern.empty())
      throw CaptureError("body: which regular expression? (" + std::string(forms) + ")");
  } else {
    throw CaptureError("unknown source '" + std::string(source) + "' (" + std::string(forms) + ")");
  }
  if (!capture.pattern.empty()) check_pattern(capture.pattern);
  return capture;
}

}  // namespace stampede::curl
