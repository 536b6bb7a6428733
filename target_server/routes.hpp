// Routes of the target server: which response a request-target gets, and its pre-built bytes.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace stampede::target_server {

/// The body a response carries; with the status (and size for bytes) it names the response.
/// bytes_limit: the 400 for a /bytes/{n} over max_bytes, its body saying the limit.
/// echo, acc: the WebSocket endpoints; a request that does not ask to upgrade gets their 426
/// (Upgrade Required, "Upgrade: websocket"). bad_upgrade: the 400 for an upgrade to them that
/// RFC 6455 refuses (no valid Sec-WebSocket-Key, a version other than 13, not GET HTTP/1.1).
/// busy: the 503 for a request past `serve --max-in-flight` (admission.hpp); no target names it.
/// sse, trickle: bodies sent piece by piece on a schedule (Paced, paced_body.hpp).
enum class Page {
  hello,
  json,
  status,
  bytes,
  bytes_limit,
  echo,
  acc,
  bad_upgrade,
  busy,
  sse,
  trickle
};

/// True for the pages served over WebSocket once the request upgrades.
constexpr bool is_websocket(Page page) { return page == Page::echo || page == Page::acc; }

/// True for the pages whose body goes out piece by piece over time (/sse, /trickle).
constexpr bool is_paced(Page page) { return page == Page::sse || page == Page::trickle; }

/// How /sse ends every line (eol=lf|crlf|cr): text/event-stream allows all three.
enum class LineEnd : std::uint8_t { lf, crlf, cr };

/// What /sse does after its events instead of ending (fault=stall|long|utf8|cut).
enum class Fault : std::uint8_t { none, stall, long_line, bad_utf8, cut };

/// The parameters of a paced body: /sse's events or /trickle's chunks.
struct Paced {
  std::uint32_t count = 10;                 ///< events or chunks
  std::uint32_t size = 0;                   ///< /sse: the data to pad to; /trickle: chunk bytes
  std::chrono::milliseconds interval{100};  ///< from one event or chunk to the next
  std::optional<std::uint64_t> retry{};     ///< /sse's "retry:" line, if asked for
  std::uint64_t last_event_id = 0;          ///< /sse's Last-Event-ID: the events it resumes after
  /// /sse: the most events one response carries (0: all), so that a reconnecting client
  /// resumes the rest with Last-Event-ID.
  std::uint64_t per_stream = 0;
  LineEnd eol = LineEnd::lf;
  Fault fault = Fault::none;
};

/// What a request asked for, decided from its target (the method only matters for HEAD, and
/// Last-Event-ID for /sse: take_last_event_id()).
struct Route {
  Page page = Page::hello;
  unsigned status = 200;               ///< the response's status code
  std::uint64_t size = 0;              ///< body bytes of Page::bytes
  std::chrono::milliseconds delay{0};  ///< how long to wait before answering (/delay/{ms})
  Paced paced{};                       ///< /sse's and /trickle's parameters
};

/// How a response ends its exchange; each choice is a separate pre-built variant.
enum class Persistence {
  keep_alive,         ///< HTTP/1.1 default: no Connection header
  keep_alive_http10,  ///< HTTP/1.0 clients (ab -k) need "Connection: keep-alive" to reuse
  close,              ///< "Connection: close", then the server closes
};

/// The largest /bytes/{n} body; a larger n gets 400 (Page::bytes_limit), not a shorter body.
inline constexpr std::uint64_t max_bytes = std::uint64_t{100} * 1024 * 1024;
/// The longest /delay/{ms}, and /sse's and /trickle's longest interval; longer ones are capped.
inline constexpr std::chrono::milliseconds max_delay{60'000};
/// The most events of an /sse, or chunks of a /trickle; more are capped.
inline constexpr std::uint32_t max_paced_count = 1'000'000;
/// The largest /sse data or /trickle chunk; larger ones are capped.
inline constexpr std::uint32_t max_paced_size = 1024 * 1024;
/// The value of every response's Server header (the project's version, see CMakeLists.txt).
inline constexpr std::string_view server_name = "stampede/0.1.0";
/// The interim response to "Expect: 100-continue".
inline constexpr std::string_view continue_response = "HTTP/1.1 100 Continue\r\n\r\n";
/// The answer to an HTTP/1.1 request that upgrades to HTTP/2 ("Upgrade: h2c", RFC 7540 3.2).
inline constexpr std::string_view h2c_switching_response =
    "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n";
/// The Content-Type of /bytes/{n} bodies.
inline constexpr std::string_view bytes_content_type = "application/octet-stream";
/// Room format_bytes_head() needs: the longest head of a /bytes response.
inline constexpr std::size_t bytes_head_capacity = 192;

/// What a request refused for `serve --max-in-flight` gets instead of its route: 503 (Service
/// Unavailable), a body of its own (busy_body) to tell it from /status/503's, the connection kept.
inline constexpr Route busy_route{.page = Page::busy, .status = 503};
/// The body of busy_route's answer.
inline constexpr std::string_view busy_body =
    "busy: as many requests in flight as serve --max-in-flight allows\n";

/// Maps a request-target such as "/status/404?x=1" to its route (for /sse and /trickle, their
/// query's parameters too; a bad value is a 400). Never allocates.
Route route(std::string_view target);

/// Applies a request's Last-Event-ID to its /sse route, whose events then resume after it; a
/// value that is not a number, or another route, is left alone.
void take_last_event_id(Route& route, std::string_view value);

/// The Content-Type of a paced page's body.
constexpr std::string_view paced_content_type(Page page) {
  return page == Page::sse ? "text/event-stream" : "application/octet-stream";
}

/// A complete response built once at startup; both views stay valid for the program's life.
struct Prebuilt {
  std::string_view full;  ///< head and body, contiguous: what a GET gets
  std::string_view head;  ///< the head alone (a prefix of full): what a HEAD gets
};

/// The pre-built response for a route that is not Page::bytes (status 200..599). For echo and
/// acc it is their 426, for busy its 503; for sse and trickle the head alone (chunked, the
/// body to follow); bad_upgrade has a close variant only (`persistence` is not read).
const Prebuilt& prebuilt(Page page, unsigned status, Persistence persistence);

/// What a response carries besides its status, apart from any HTTP/1.1 head: what HTTP/2
/// sends in HEADERS fields and DATA.
struct Content {
  unsigned status = 200;    ///< the route's, but 426 for a WebSocket page (no upgrade in HTTP/2),
                            ///< 503 for busy
  std::string_view type{};  ///< Content-Type; empty for 204 and 304, which have no body either
  std::string_view body{};  ///< the same bytes as prebuilt()'s body, valid for the program's life
};

/// The content of a route that is not Page::bytes, as prebuilt(page, status, ...) carries it.
Content content(Page page, unsigned status);

/// Writes the head of a /bytes/{size} response into `out` (bytes_head_capacity at least) and
/// returns its length; the body is then written from filler().
std::size_t format_bytes_head(std::uint64_t size, Persistence persistence, std::span<char> out);

/// A constant block of body bytes ('x') that /bytes bodies are written from, over and over.
std::span<const char> filler();

}  // namespace stampede::target_server
