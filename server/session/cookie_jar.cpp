// CookieJar: RFC 6265 sections 5.1 to 5.4, written here because no Debian library keeps cookies
// apart from an HTTP client (libcurl's cookie engine is internal to libcurl). The public-suffix
// check (libpsl) is left out: a load test talks to the servers its user names.
#include "server/session/cookie_jar.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "model/calendar.hpp"

namespace stampede::session {

namespace {

char lower_char(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), lower_char);
  return out;
}

bool same_text(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](char x, char y) { return lower_char(x) == lower_char(y); });
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

/// An IP address rather than a name: cookies for it match it exactly, never as a domain.
bool is_address(std::string_view host) {
  return host.find(':') != std::string_view::npos ||
         host.find_first_not_of("0123456789.") == std::string_view::npos;
}

/// Hosts browsers and curl treat as secure contexts though the scheme is http.
bool is_loopback(std::string_view host) {
  return same_text(host, "localhost") || host.starts_with("127.") || host == "::1";
}

/// `host` (any case) is `domain` (lower case) or a name under it.
bool domain_matches(std::string_view host, std::string_view domain) {
  if (same_text(host, domain)) return true;
  return host.size() > domain.size() &&
         same_text(host.substr(host.size() - domain.size()), domain) &&
         host[host.size() - domain.size() - 1] == '.' && !is_address(host);
}

std::string_view path_of(std::string_view target) {
  const auto path = target.substr(0, target.find('?'));
  return path.empty() ? std::string_view("/") : path;
}

/// RFC 6265 5.1.4: the directory of the request's path.
std::string default_path(std::string_view path) {
  const auto last = path.rfind('/');
  if (!path.starts_with('/') || last == 0) return "/";
  return std::string(path.substr(0, last));
}

bool path_matches(std::string_view path, std::string_view cookie_path) {
  if (path == cookie_path) return true;
  return path.starts_with(cookie_path) &&
         (cookie_path.ends_with('/') || path[cookie_path.size()] == '/');
}

/// RFC 6265 5.1.1's delimiters between date tokens.
bool is_date_delimiter(unsigned char c) {
  return c == 0x09 || (c >= 0x20 && c <= 0x2F) || (c >= 0x3B && c <= 0x40) ||
         (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
}

/// `1*max DIGIT` at the start of `token`, followed by nothing or a non-digit; -1 otherwise.
int leading_number(std::string_view token, std::size_t min, std::size_t max) {
  std::size_t digits = 0;
  while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits]))) {
    ++digits;
  }
  if (digits < min || digits > max) return -1;
  int value = 0;
  std::from_chars(token.data(), token.data() + digits, value);
  return value;
}

/// `hh:mm:ss`, each one or two digits (the seconds may have non-digits after them).
bool read_time(std::string_view token, std::array<int, 3>& hms) {
  const auto first = token.find(':');
  const auto second = first == std::string_view::npos ? first : token.find(':', first + 1);
  if (second == std::string_view::npos) return false;
  const auto hours = token.substr(0, first);
  const auto minutes = token.substr(first + 1, second - first - 1);
  const auto whole = [](std::string_view field) {
    return leading_number(field, 1, 2) >= 0 && field.size() <= 2 &&
           std::isdigit(static_cast<unsigned char>(field.back()));
  };
  const int s = leading_number(token.substr(second + 1), 1, 2);
  if (!whole(hours) || !whole(minutes) || s < 0) return false;
  hms = {leading_number(hours, 1, 2), leading_number(minutes, 1, 2), s};
  return true;
}

}  // namespace

UnixSeconds parse_cookie_date(std::string_view text) {
  static constexpr std::array<std::string_view, 12> months{
      "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
  std::array<int, 3> hms{-1, -1, -1};
  int day = -1;
  int month = -1;
  int year = -1;
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && is_date_delimiter(static_cast<unsigned char>(text[at]))) ++at;
    const auto start = at;
    while (at < text.size() && !is_date_delimiter(static_cast<unsigned char>(text[at]))) ++at;
    const auto token = text.substr(start, at - start);
    if (token.empty()) break;
    if (hms[0] < 0 && read_time(token, hms)) continue;
    if (day < 0 && (day = leading_number(token, 1, 2)) >= 0) continue;
    if (month < 0 && token.size() >= 3) {
      const auto name = lower(token.substr(0, 3));
      const auto found = std::find(months.begin(), months.end(), name);
      if (found != months.end()) {
        month = static_cast<int>(found - months.begin());
        continue;
      }
    }
    if (year < 0) year = leading_number(token, 2, 4);
  }
  if (year >= 70 && year <= 99) year += 1900;
  if (year >= 0 && year <= 69) year += 2000;
  if (hms[0] < 0 || day < 1 || day > 31 || month < 0 || year < 1601 || year > 9999 || hms[0] > 23 ||
      hms[1] > 59 || hms[2] > 59) {
    return -1;
  }
  const auto days =
      model::days_since_epoch(year, static_cast<unsigned>(month + 1), static_cast<unsigned>(day));
  return days * 86400 + hms[0] * 3600LL + hms[1] * 60LL + hms[2];
}

void CookieJar::receive(std::string_view set_cookie, const model::Origin& origin,
                        std::string_view target, UnixSeconds now) {
  const auto semicolon = set_cookie.find(';');
  const auto pair = set_cookie.substr(0, semicolon);
  const auto equals = pair.find('=');
  if (equals == std::string_view::npos) return;
  Cookie cookie;
  cookie.name = trim(pair.substr(0, equals));
  cookie.value = trim(pair.substr(equals + 1));
  if (cookie.name.empty()) return;
  const auto host = lower(origin.host);
  bool max_age_seen = false;
  auto rest =
      semicolon == std::string_view::npos ? std::string_view() : set_cookie.substr(semicolon);
  while (!rest.empty()) {
    rest.remove_prefix(1);
    const auto attribute = rest.substr(0, rest.find(';'));
    rest.remove_prefix(attribute.size());
    const auto split = attribute.find('=');
    const auto name = trim(attribute.substr(0, split));
    const auto value =
        split == std::string_view::npos ? std::string_view() : trim(attribute.substr(split + 1));
    if (same_text(name, "max-age")) {
      long long seconds = 0;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seconds);
      if (error != std::errc{} || end != value.data() + value.size()) continue;
      cookie.expires = seconds <= 0 ? 1 : now + seconds;
      max_age_seen = true;
    } else if (same_text(name, "expires") && !max_age_seen) {
      const auto when = parse_cookie_date(value);
      if (when >= 0) cookie.expires = std::max<UnixSeconds>(when, 1);
    } else if (same_text(name, "domain") && !value.empty()) {
      cookie.domain = lower(value.starts_with('.') ? value.substr(1) : value);
      cookie.host_only = false;
    } else if (same_text(name, "path")) {
      cookie.path = value.starts_with('/') ? std::string(value) : std::string();
    } else if (same_text(name, "secure")) {
      cookie.secure = true;
    }
  }
  if (cookie.host_only) cookie.domain = host;
  if (!domain_matches(host, cookie.domain)) return;  // a Domain the host is not in
  if (cookie.secure && !origin.secure() && !is_loopback(host)) return;
  if (cookie.path.empty()) cookie.path = default_path(path_of(target));
  store(std::move(cookie), now);
}

void CookieJar::load(const model::JarCookie& cookie, UnixSeconds now) {
  store({cookie.name, cookie.value, lower(cookie.domain), cookie.path.empty() ? "/" : cookie.path,
         cookie.expires, cookie.host_only, cookie.secure},
        now);
}

void CookieJar::store(Cookie cookie, UnixSeconds now) {
  const auto same = std::find_if(cookies_.begin(), cookies_.end(), [&](const Cookie& c) {
    return c.name == cookie.name && c.domain == cookie.domain && c.path == cookie.path;
  });
  const bool expired = cookie.expires != 0 && cookie.expires <= now;
  if (same != cookies_.end()) {
    if (expired) {
      cookies_.erase(same);
    } else {
      cookie.created = same->created;
      *same = std::move(cookie);
    }
    return;
  }
  if (expired) return;
  std::erase_if(cookies_, [now](const Cookie& c) { return c.expires != 0 && c.expires <= now; });
  if (cookies_.size() >= max_cookies) cookies_.erase(cookies_.begin());  // the oldest: in order
  cookie.created = next_created_++;
  cookies_.push_back(std::move(cookie));
}

void CookieJar::header_for(const model::Origin& origin, std::string_view target, UnixSeconds now,
                           std::string& out) const {
  std::array<const Cookie*, max_cookies> sent{};
  std::size_t count = 0;
  const std::string_view host = origin.host;
  const auto path = path_of(target);
  const bool secure = origin.secure() || is_loopback(host);
  for (const auto& cookie : cookies_) {
    const bool domain_ok =
        cookie.host_only ? same_text(host, cookie.domain) : domain_matches(host, cookie.domain);
    if (domain_ok && path_matches(path, cookie.path) && (!cookie.secure || secure) &&
        (cookie.expires == 0 || cookie.expires > now)) {
      sent[count++] = &cookie;
    }
  }
  // Kept in the order they were first set, so a stable sort by path length is RFC 6265's
  // order. Insertion sort: a handful of cookies, and std::stable_sort would allocate a buffer on
  // every request.
  for (std::size_t i = 1; i < count; ++i) {
    for (std::size_t j = i; j > 0 && sent[j - 1]->path.size() < sent[j]->path.size(); --j) {
      std::swap(sent[j - 1], sent[j]);
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) out += "; ";
    out += sent[i]->name;
    out += '=';
    out += sent[i]->value;
  }
}

}  // namespace stampede::session
