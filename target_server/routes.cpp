// Routes of the target server: parsing request-targets and building every response once.
#include "target_server/routes.hpp"

#include "target_server/span_writer.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <deque>
#include <limits>
#include <optional>
#include <string>

#include <boost/beast/http/status.hpp>

namespace stampede::target_server {
namespace {

namespace http = boost::beast::http;

constexpr unsigned first_status = 200;
constexpr unsigned last_status = 599;
constexpr std::size_t persistence_count = 3;
constexpr std::size_t filler_size = std::size_t{256} * 1024;

std::string_view reason_of(unsigned status) {
  const auto known = http::int_to_status(status);
  if (known == http::status::unknown) return "Unknown";
  return http::obsolete_reason(known);
}

/// The line announcing the connection's fate; HTTP/1.1 keep-alive is the default and needs none.
/// A response offering an upgrade (426) must list "upgrade" there too (RFC 9110 7.8).
std::string_view connection_line(Persistence persistence, bool offers_upgrade) {
  switch (persistence) {
    case Persistence::keep_alive_http10:
      return offers_upgrade ? "Connection: keep-alive, Upgrade\r\n" : "Connection: keep-alive\r\n";
    case Persistence::close:
      return offers_upgrade ? "Connection: close, Upgrade\r\n" : "Connection: close\r\n";
    case Persistence::keep_alive:
      break;
  }
  return offers_upgrade ? "Connection: Upgrade\r\n" : std::string_view();
}

/// What a response head says besides the fields every response has.
struct Head {
  unsigned status = 200;
  /// Empty for a bodiless status (204, 304): no Content-Length either.
  std::string_view content_type{};
  std::uint64_t length = 0;
  Persistence persistence = Persistence::keep_alive;
  /// Whole lines ("Name: value\r\n") that a few responses add.
  std::string_view extra_fields{};
  bool offers_upgrade = false;  ///< a 426: "Upgrade: websocket", and upgrade in Connection
  bool chunked = false;         ///< a body sent over time: Transfer-Encoding, no Content-Length
};

/// One head layout for every response, so pre-built and /bytes heads cannot drift apart.
std::size_t compose_head(std::span<char> out, const Head& spec) {
  SpanWriter head(out);
  head << "HTTP/1.1 " << std::uint64_t{spec.status} << " " << reason_of(spec.status) << "\r\n";
  head << "Server: " << server_name << "\r\n";
  if (!spec.content_type.empty()) {
    head << "Content-Type: " << spec.content_type << "\r\n";
    if (spec.chunked) {
      head << "Transfer-Encoding: chunked\r\n";
    } else {
      head << "Content-Length: " << spec.length << "\r\n";
    }
  }
  if (spec.offers_upgrade) head << "Upgrade: websocket\r\n";
  head << spec.extra_fields << connection_line(spec.persistence, spec.offers_upgrade) << "\r\n";
  return head.size();
}

constexpr std::string_view text_plain = "text/plain; charset=utf-8";

/// Every fixed response in every connection variant, built once so a request only picks one.
class Catalog {
 public:
  Catalog() {
    for (std::size_t p = 0; p < persistence_count; ++p) {
      const auto persistence = static_cast<Persistence>(p);
      hello_[p] =
          build({.content_type = text_plain, .persistence = persistence}, "hello stampede\n");
      json_[p] = build({.content_type = "application/json", .persistence = persistence},
                       R"({"code":200,"msg":"ok"})");
      bytes_limit_[p] =
          build({.status = 400, .content_type = text_plain, .persistence = persistence},
                "/bytes/{n}: n is at most " + std::to_string(max_bytes) + " (100 MiB)\n");
      busy_[p] = build(
          {.status = busy_route.status, .content_type = text_plain, .persistence = persistence},
          busy_body);
      upgrade_required_[p] = build({.status = 426,
                                    .content_type = text_plain,
                                    .persistence = persistence,
                                    .offers_upgrade = true},
                                   "this endpoint speaks WebSocket: send Upgrade: websocket\n");
      sse_[p] = build({.content_type = paced_content_type(Page::sse),
                       .persistence = persistence,
                       .extra_fields = "Cache-Control: no-cache\r\n",
                       .chunked = true},
                      {});
      trickle_[p] = build({.content_type = paced_content_type(Page::trickle),
                           .persistence = persistence,
                           .chunked = true},
                          {});
      for (unsigned status = first_status; status <= last_status; ++status) {
        status_[status - first_status][p] = build_status(status, persistence);
      }
    }
    // RFC 6455 4.4: a refused version is answered with the versions spoken.
    bad_upgrade_ = build({.status = 400,
                          .content_type = text_plain,
                          .persistence = Persistence::close,
                          .extra_fields = "Sec-WebSocket-Version: 13\r\n"},
                         "bad WebSocket upgrade: GET HTTP/1.1, Connection: Upgrade, Upgrade: "
                         "websocket, a Sec-WebSocket-Key of 16 bytes in base64, "
                         "Sec-WebSocket-Version: 13\n");
  }

  [[nodiscard]] const Prebuilt& get(Page page, unsigned status, Persistence persistence) const {
    const auto p = static_cast<std::size_t>(persistence);
    switch (page) {
      case Page::json:
        return json_[p];
      case Page::bytes_limit:
        return bytes_limit_[p];
      case Page::status:
        return status_[std::clamp(status, first_status, last_status) - first_status][p];
      case Page::echo:
      case Page::acc:
        return upgrade_required_[p];
      case Page::bad_upgrade:
        return bad_upgrade_;
      case Page::busy:
        return busy_[p];
      case Page::sse:
        return sse_[p];
      case Page::trickle:
        return trickle_[p];
      case Page::hello:
      case Page::bytes:
        break;
    }
    return hello_[p];
  }

 private:
  using Variants = std::array<Prebuilt, persistence_count>;

  Prebuilt build_status(unsigned status, Persistence persistence) {
    if (status == 204 || status == 304) {
      return build({.status = status, .persistence = persistence}, {});
    }
    return build({.status = status, .content_type = text_plain, .persistence = persistence},
                 std::string(reason_of(status)) + "\n");
  }

  Prebuilt build(Head head, std::string_view body) {
    head.length = body.size();
    std::string& text = storage_.emplace_back(bytes_head_capacity, '\0');
    text.resize(compose_head(text, head));
    const auto head_size = text.size();
    text += body;
    return {.full = text, .head = std::string_view(text).substr(0, head_size)};
  }

  std::deque<std::string> storage_;  // a deque: growing it never moves the strings we view
  Variants hello_;
  Variants json_;
  Variants bytes_limit_;
  Variants busy_;
  Variants sse_;
  Variants trickle_;
  Variants upgrade_required_;
  Prebuilt bad_upgrade_;
  std::array<Variants, last_status - first_status + 1> status_;
};

/// Digits only; numbers too large for 64 bits saturate (every user caps or refuses those).
std::optional<std::uint64_t> parse_count(std::string_view digits) {
  std::uint64_t value = 0;
  const auto end = digits.data() + digits.size();
  const auto [ptr, error] = std::from_chars(digits.data(), end, value);
  if (digits.empty() || ptr != end) return std::nullopt;
  if (error == std::errc::result_out_of_range) return std::numeric_limits<std::uint64_t>::max();
  return value;
}

/// The path of an origin-form or absolute-form target, without query or fragment.
std::string_view path_of(std::string_view target) {
  if (!target.starts_with('/')) {
    const auto scheme = target.find("://");
    if (scheme == std::string_view::npos) return target;
    const auto slash = target.find('/', scheme + 3);
    target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
  }
  return target.substr(0, target.find_first_of("?#"));
}

std::optional<std::string_view> after(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix)) return std::nullopt;
  return path.substr(prefix.size());
}

constexpr Route bad_request{.page = Page::status, .status = 400};

/// The query of a target ("a=1&b=2"), without its '?' or a fragment; empty without one.
std::string_view query_of(std::string_view target) {
  const auto mark = target.find('?');
  if (mark == std::string_view::npos) return {};
  const auto query = target.substr(mark + 1);
  return query.substr(0, query.find('#'));
}

/// The value of the query's parameter `name` (the first, if repeated); nothing without one.
std::optional<std::string_view> parameter(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    const auto pair = query.substr(0, query.find('&'));
    const auto equals = pair.find('=');
    if (pair.substr(0, equals) == name) {
      return equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1);
    }
    query.remove_prefix(std::min(query.size(), pair.size() + 1));
  }
  return std::nullopt;
}

/// Reads the number parameter `name` into `value`, capped at `cap`, if the query has it; false
/// if its value is not a number.
bool read_number(std::string_view query, std::string_view name, std::uint64_t cap,
                 std::uint64_t& value) {
  const auto text = parameter(query, name);
  if (!text) return true;
  const auto number = parse_count(*text);
  if (number) value = std::min(*number, cap);
  return number.has_value();
}

/// Reads the parameter `name` as the index of its value among `names` into `value`, if the
/// query has it; false if its value is none of them.
template <class Enum, std::size_t count>
bool read_choice(std::string_view query, std::string_view name,
                 const std::array<std::string_view, count>& names, Enum& value) {
  const auto text = parameter(query, name);
  if (!text) return true;
  const auto found = std::find(names.begin(), names.end(), *text);
  if (found != names.end()) value = static_cast<Enum>(found - names.begin());
  return found != names.end();
}

/// In the order of LineEnd's and Fault's values.
constexpr std::array<std::string_view, 3> line_end_names{"lf", "crlf", "cr"};
constexpr std::array<std::string_view, 5> fault_names{"none", "stall", "long", "utf8", "cut"};

/// Reads /sse's own parameters (retry, eol, fault) into `paced`; false for a bad value.
bool read_sse_parameters(std::string_view query, Paced& paced) {
  if (const auto text = parameter(query, "retry")) {
    paced.retry = parse_count(*text);
    if (!paced.retry) return false;
  }
  return read_number(query, "per_stream", max_paced_count, paced.per_stream) &&
         read_choice(query, "eol", line_end_names, paced.eol) &&
         read_choice(query, "fault", fault_names, paced.fault);
}

/// The route of /sse or /trickle (`page`) with its query's parameters; 400 for a bad value, or
/// for a /trickle chunk of no bytes (a chunked body cannot carry one).
Route paced_route(Page page, std::string_view query) {
  const bool sse = page == Page::sse;
  std::uint64_t count = Paced{}.count;
  std::uint64_t size = sse ? 0 : 16;
  std::uint64_t interval = Paced{}.interval.count();
  if (!read_number(query, sse ? "events" : "chunks", max_paced_count, count) ||
      !read_number(query, "interval", max_delay.count(), interval) ||
      !read_number(query, "size", max_paced_size, size) || (!sse && size == 0)) {
    return bad_request;
  }
  Route paced{.page = page,
              .paced = {.count = static_cast<std::uint32_t>(count),
                        .size = static_cast<std::uint32_t>(size),
                        .interval = std::chrono::milliseconds(interval)}};
  if (sse && !read_sse_parameters(query, paced.paced)) return bad_request;
  return paced;
}

}  // namespace

Route route(std::string_view target) {
  const auto path = path_of(target);
  if (path == "/") return {};
  if (path == "/json") return {.page = Page::json};
  if (path == "/echo") return {.page = Page::echo};
  if (path == "/acc") return {.page = Page::acc};
  if (path == "/sse") return paced_route(Page::sse, query_of(target));
  if (path == "/trickle") return paced_route(Page::trickle, query_of(target));
  if (const auto rest = after(path, "/status/")) {
    const auto code = parse_count(*rest);
    if (!code || *code < first_status || *code > last_status) return bad_request;
    return {.page = Page::status, .status = static_cast<unsigned>(*code)};
  }
  if (const auto rest = after(path, "/delay/")) {
    const auto ms = parse_count(*rest);
    if (!ms) return bad_request;
    const auto capped = std::min<std::uint64_t>(*ms, max_delay.count());
    return {.delay = std::chrono::milliseconds(capped)};
  }
  if (const auto rest = after(path, "/bytes/")) {
    const auto size = parse_count(*rest);
    if (!size) return bad_request;
    if (*size > max_bytes) return {.page = Page::bytes_limit, .status = 400};
    return {.page = Page::bytes, .size = *size};
  }
  return {.page = Page::status, .status = 404};
}

void take_last_event_id(Route& route, std::string_view value) {
  const auto id = parse_count(value);
  if (route.page == Page::sse && id) route.paced.last_event_id = *id;
}

const Prebuilt& prebuilt(Page page, unsigned status, Persistence persistence) {
  static const Catalog catalog;
  return catalog.get(page, status, persistence);
}

Content content(Page page, unsigned status) {
  const auto& built = prebuilt(page, status, Persistence::keep_alive);
  const auto body = built.full.substr(built.head.size());
  if (is_websocket(page)) return {.status = 426, .type = text_plain, .body = body};
  if (page == Page::busy) return {.status = busy_route.status, .type = text_plain, .body = body};
  if (page == Page::json) return {.status = status, .type = "application/json", .body = body};
  if (page == Page::status && (status == 204 || status == 304)) return {.status = status};
  return {.status = status, .type = text_plain, .body = body};
}

std::size_t format_bytes_head(std::uint64_t size, Persistence persistence, std::span<char> out) {
  return compose_head(
      out, {.content_type = bytes_content_type, .length = size, .persistence = persistence});
}

std::span<const char> filler() {
  static const std::string block(filler_size, 'x');
  return block;
}

}  // namespace stampede::target_server
