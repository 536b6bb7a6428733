// read_cookies(): the Netscape cookie file format (curl's), and `-b` strings as curl joins them.
#include "curl/cookies.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "curl/files.hpp"

namespace stampede::curl {

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

/// One line of a cookie file: seven tab-separated fields; `#HttpOnly_` marks, `#` comments.
bool parse_line(std::string line, model::JarCookie& cookie) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.starts_with("#HttpOnly_")) line.erase(0, 10);
  if (line.empty() || line.front() == '#') return false;
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, '\t');) fields.push_back(field);
  if (fields.size() == 6) fields.emplace_back();  // a cookie with an empty value
  if (fields.size() != 7) return false;
  cookie.domain = lower(fields[0]);
  cookie.host_only = fields[1] != "TRUE" && !cookie.domain.starts_with('.');
  if (cookie.domain.starts_with('.')) cookie.domain.erase(0, 1);
  cookie.path = fields[2];
  cookie.secure = fields[3] == "TRUE";
  cookie.expires = std::atoll(fields[4].c_str());
  cookie.name = fields[5];
  cookie.value = fields[6];
  return true;
}

}  // namespace

Cookies read_cookies(const std::vector<Argument>& cookies, const Files& files,
                     std::vector<Warning>& warnings) {
  Cookies read;
  for (const auto& argument : cookies) {
    if (argument.value.find('=') != std::string::npos) {
      read.header += (read.header.empty() ? "" : ";") + argument.value;
      continue;
    }
    try {
      std::istringstream in(files.read(argument.value, argument.where));
      model::JarCookie cookie;
      for (std::string line; std::getline(in, line);) {
        if (parse_line(line, cookie)) read.jar.push_back(cookie);
      }
    } catch (const ParseError& error) {
      warnings.push_back({argument.where, error.message() + "; no cookies sent from it"});
    }
  }
  return read;
}

}  // namespace stampede::curl
