// cookie_header(): the Netscape file format, curl's domain/path/secure/expiry rules and its order.
#include "curl/cookies.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <sstream>

#include "curl/files.hpp"

namespace stampede::curl {

namespace {

struct Cookie {
  std::string domain;
  bool tail_match = false;
  std::string path;
  bool secure = false;
  long long expires = 0;
  std::string name;
  std::string value;
};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

/// One line of a cookie file: seven tab-separated fields; `#HttpOnly_` marks, `#` comments.
bool parse_line(std::string line, Cookie& cookie) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.starts_with("#HttpOnly_")) line.erase(0, 10);
  if (line.empty() || line.front() == '#') return false;
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, '\t');) fields.push_back(field);
  if (fields.size() == 6) fields.emplace_back();  // a cookie with an empty value
  if (fields.size() != 7) return false;
  cookie.domain = lower(fields[0]);
  cookie.tail_match = fields[1] == "TRUE" || cookie.domain.starts_with('.');
  if (cookie.domain.starts_with('.')) cookie.domain.erase(0, 1);
  cookie.path = fields[2];
  cookie.secure = fields[3] == "TRUE";
  cookie.expires = std::atoll(fields[4].c_str());
  cookie.name = fields[5];
  cookie.value = fields[6];
  return true;
}

bool matches(const Cookie& cookie, const model::Request& request) {
  const auto host = lower(request.origin.host);
  const bool domain_ok =
      host == cookie.domain || (cookie.tail_match && host.ends_with("." + cookie.domain));
  const auto path = request.target.substr(0, request.target.find('?'));
  const bool path_ok = path.starts_with(cookie.path) &&
                       (path.size() == cookie.path.size() || cookie.path.ends_with('/') ||
                        path[cookie.path.size()] == '/');
  // curl treats loopback names as secure contexts, like browsers do.
  const bool secure_ok = !cookie.secure || request.origin.secure() || host == "localhost" ||
                         host == "127.0.0.1" || host == "::1";
  const bool fresh = cookie.expires == 0 || cookie.expires > std::time(nullptr);
  return domain_ok && path_ok && secure_ok && fresh;
}

/// The cookies of one file that go to `request`, in curl's order: longer paths, then longer
/// domains, then longer names first; ties keep the file's order.
std::vector<Cookie> file_cookies(const std::string& text, const model::Request& request) {
  std::vector<Cookie> sent;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    Cookie cookie;
    if (parse_line(line, cookie) && matches(cookie, request)) sent.push_back(cookie);
  }
  std::stable_sort(sent.begin(), sent.end(), [](const Cookie& a, const Cookie& b) {
    if (a.path.size() != b.path.size()) return a.path.size() > b.path.size();
    if (a.domain.size() != b.domain.size()) return a.domain.size() > b.domain.size();
    return a.name.size() > b.name.size();
  });
  return sent;
}

}  // namespace

std::string cookie_header(const std::vector<Argument>& cookies, const model::Request& request,
                          const Files& files, std::vector<Warning>& warnings) {
  std::string from_files;
  std::string strings;
  for (const auto& argument : cookies) {
    if (argument.value.find('=') != std::string::npos) {
      strings += (strings.empty() ? "" : ";") + argument.value;
      continue;
    }
    try {
      for (const auto& cookie : file_cookies(files.read(argument.value, argument.where), request)) {
        from_files += (from_files.empty() ? "" : "; ") + cookie.name + "=" + cookie.value;
      }
    } catch (const ParseError& error) {
      warnings.push_back({argument.where, error.message() + "; no cookies sent from it"});
    }
  }
  if (from_files.empty()) return strings;
  return strings.empty() ? from_files : from_files + "; " + strings;
}

}  // namespace stampede::curl
