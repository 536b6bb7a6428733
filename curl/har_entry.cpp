// read_entries(): HAR 1.2 JSON (nlohmann::json) -> HarEntry, tolerant of each browser's extras.
#include "curl/har_entry.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <boost/algorithm/string/case_conv.hpp>
#include <boost/algorithm/string/predicate.hpp>
#include <cctype>
#include <charconv>

#include "curl/body.hpp"
#include "curl/har.hpp"
#include "model/calendar.hpp"

namespace stampede::curl {

namespace {

using nlohmann::json;

/// `object[key]` when it is a string; empty otherwise (HAR writers leave fields out).
std::string text_at(const json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const json& member(const json& object, const char* key) {
  static const json none;
  if (!object.is_object()) return none;
  const auto it = object.find(key);
  return it == object.end() ? none : *it;
}

/// `[{name, value}]`, as HAR lists headers, cookies and form fields.
std::vector<std::pair<std::string, std::string>> pairs(const json& list) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!list.is_array()) return out;
  for (const auto& item : list) {
    auto name = text_at(item, "name");
    if (!name.empty()) out.emplace_back(std::move(name), text_at(item, "value"));
  }
  return out;
}

void read_body(const json& post, HarEntry& entry) {
  if (!post.is_object()) return;
  const auto type = text_at(post, "mimeType");
  if (const auto& text = member(post, "text"); text.is_string()) {
    entry.body = HarBody{text.get<std::string>(), type};
    return;
  }
  const auto params = pairs(member(post, "params"));
  if (params.empty()) return;
  if (!boost::icontains(type, "x-www-form-urlencoded")) {
    entry.body_missing = true;
    return;
  }
  std::string body;
  for (const auto& [name, value] : params) {
    // A form HAR keeps only as decoded `params`, encoded back as --data-urlencode would.
    body += (body.empty() ? "" : "&") + url_encode(name) + "=" + url_encode(value);
  }
  entry.body = HarBody{body, type};
}

/// `HTTP/2.0`, `h2`, `http/2.0` ask for HTTP/2 where TLS can offer it; `HTTP/1.0` for 1.0.
model::HttpVersion version_of(std::string_view recorded, std::string_view url) {
  auto version = boost::to_lower_copy(std::string(recorded));
  if (version == "http/1.0") return model::HttpVersion::http1_0;
  const bool h2 = version == "h2" || version.starts_with("http/2");
  return h2 && boost::istarts_with(url, "https://") ? model::HttpVersion::http2
                                                    : model::HttpVersion::any;
}

std::string_view kind_of_type(std::string_view mime) {
  mime = mime.substr(0, mime.find(';'));
  if (boost::istarts_with(mime, "image/")) return "image";
  if (boost::istarts_with(mime, "font/") || boost::icontains(mime, "font")) return "font";
  if (boost::iequals(mime, "text/css")) return "stylesheet";
  if (boost::icontains(mime, "javascript") || boost::icontains(mime, "ecmascript")) return "script";
  if (boost::istarts_with(mime, "audio/") || boost::istarts_with(mime, "video/")) {
    return "media file";
  }
  return {};
}

std::string_view kind_of_path(std::string_view url) {
  url = url.substr(0, url.find_first_of("?#"));
  const auto dot = url.rfind('.');
  if (dot == std::string_view::npos || url.find('/', dot) != std::string_view::npos) return {};
  const auto extension = boost::to_lower_copy(std::string(url.substr(dot + 1)));
  static const std::array<std::pair<std::string_view, std::string_view>, 22> kinds{{
      {"png", "image"},      {"jpg", "image"},      {"jpeg", "image"},     {"gif", "image"},
      {"webp", "image"},     {"avif", "image"},     {"svg", "image"},      {"ico", "image"},
      {"bmp", "image"},      {"woff", "font"},      {"woff2", "font"},     {"ttf", "font"},
      {"otf", "font"},       {"eot", "font"},       {"css", "stylesheet"}, {"js", "script"},
      {"mjs", "script"},     {"map", "script"},     {"mp4", "media file"}, {"webm", "media file"},
      {"mp3", "media file"}, {"ogg", "media file"},
  }};
  for (const auto& [suffix, kind] : kinds) {
    if (suffix == extension) return kind;
  }
  return {};
}

/// Chrome's `_resourceType` where it says; else the response's type; else the URL's extension.
std::string static_kind_of(const json& entry, const std::string& url) {
  auto resource = text_at(entry, "_resourceType");
  if (resource == "image" || resource == "font" || resource == "stylesheet" ||
      resource == "script") {
    return resource;
  }
  if (resource == "media") return "media file";
  if (!resource.empty() && resource != "other") return {};  // a document, fetch, xhr...
  const auto type = text_at(member(member(entry, "response"), "content"), "mimeType");
  if (const auto kind = kind_of_type(type); !kind.empty()) return std::string(kind);
  return std::string(kind_of_path(url));
}

/// The names of the cookies `response` set: its `cookies`, and its Set-Cookie headers.
std::vector<std::string> cookies_set_by(const json& response) {
  std::vector<std::string> names;
  for (const auto& [name, value] : pairs(member(response, "cookies"))) names.push_back(name);
  for (const auto& [name, value] : pairs(member(response, "headers"))) {
    if (!boost::iequals(name, "set-cookie")) continue;
    // Firefox writes several cookies in one header, a line each.
    std::string_view rest = value;
    while (!rest.empty()) {
      const auto line = rest.substr(0, rest.find('\n'));
      rest.remove_prefix(std::min(line.size() + 1, rest.size()));
      const auto equals = line.find('=');
      if (equals != std::string_view::npos && equals > 0) {
        names.emplace_back(line.substr(0, equals));
      }
    }
  }
  return names;
}

HarEntry entry_of(const json& item, std::size_t number, const std::string& name) {
  HarEntry entry;
  entry.number = number;
  const auto& request = member(item, "request");
  entry.method = text_at(request, "method");
  entry.url = text_at(request, "url");
  if (entry.method.empty() || entry.url.empty()) {
    throw HarError(name + ": entry " + std::to_string(number) +
                   " has no request.method or request.url (is this a HAR file?)");
  }
  entry.headers = pairs(member(request, "headers"));
  read_body(member(request, "postData"), entry);
  entry.http_version = version_of(text_at(request, "httpVersion"), entry.url);
  entry.start_ms = iso8601_ms(text_at(item, "startedDateTime"));
  if (const auto& time = member(item, "time"); time.is_number() && time.get<double>() > 0) {
    entry.time_ms = time.get<double>();
  }
  entry.cookies_set = cookies_set_by(member(item, "response"));
  entry.static_kind = static_kind_of(item, entry.url);
  return entry;
}

/// Reads the digits of `text[at, at + n)` into `value`.
bool digits(std::string_view text, std::size_t at, std::size_t n, int& value) {
  if (text.size() < at + n) return false;
  const auto* first = text.data() + at;
  const auto [end, error] = std::from_chars(first, first + n, value);
  return error == std::errc{} && end == first + n;
}

}  // namespace

bool HarEntry::http() const {
  return boost::istarts_with(url, "http://") || boost::istarts_with(url, "https://");
}

std::optional<double> HarEntry::end_ms() const {
  if (!start_ms) return std::nullopt;
  return *start_ms + time_ms;
}

std::string HarEntry::where(const std::string& file) const {
  return file + ": entry " + std::to_string(number) + " (" + method + " " + url + ")";
}

bool is_static_kind(std::string_view kind) {
  return kind == "image" || kind == "font" || kind == "stylesheet" || kind == "script" ||
         kind == "media file";
}

std::optional<double> iso8601_ms(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(text, 0, 4, year) || text.substr(4, 1) != "-" || !digits(text, 5, 2, month) ||
      text.substr(7, 1) != "-" || !digits(text, 8, 2, day) || text.substr(10, 1) != "T" ||
      !digits(text, 11, 2, hour) || text.substr(13, 1) != ":" || !digits(text, 14, 2, minute) ||
      text.substr(16, 1) != ":" || !digits(text, 17, 2, second) || month < 1 || month > 12 ||
      day < 1 || day > 31) {
    return std::nullopt;
  }
  std::size_t at = 19;
  double fraction = 0;
  if (text.substr(at, 1) == ".") {
    double scale = 0.1;
    for (++at; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); ++at) {
      fraction += (text[at] - '0') * scale;
      scale /= 10;
    }
  }
  int offset_minutes = 0;
  const auto zone = text.substr(at);
  if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':') {
    int hours = 0, minutes = 0;
    if (!digits(zone, 1, 2, hours) || !digits(zone, 4, 2, minutes)) return std::nullopt;
    offset_minutes = (zone[0] == '-' ? -1 : 1) * (hours * 60 + minutes);
  } else if (zone != "Z") {
    return std::nullopt;
  }
  const auto days =
      model::days_since_epoch(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const double seconds_of_day = hour * 3600.0 + minute * 60.0 + second - offset_minutes * 60.0;
  return (static_cast<double>(days) * 86400.0 + seconds_of_day + fraction) * 1000.0;
}

std::vector<HarEntry> read_entries(std::string_view text, const std::string& name) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::exception& error) {  // a syntax error, or a number past a double's range
    std::string what = error.what();
    if (const auto close = what.find("] "); close != std::string::npos) what.erase(0, close + 2);
    throw HarError(name + ": not a HAR file: " + what);
  }
  const auto& entries = member(member(document, "log"), "entries");
  if (!entries.is_array()) {
    throw HarError(name +
                   ": not a HAR file: no log.entries (save one with a browser's \"Save all as "
                   "HAR\")");
  }
  std::vector<HarEntry> out;
  out.reserve(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) out.push_back(entry_of(entries[i], i + 1, name));
  return out;
}

}  // namespace stampede::curl
