// The one interface every protocol client implements: send a request, fill in a Response.
#pragma once

#include <array>
#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/protocol.hpp"
#include "model/request.hpp"
#include "model/response.hpp"
#include "server/client/prepared_request.hpp"
#include "server/client/watchdog.hpp"

namespace stampede::client {

namespace net = boost::asio;

/// How a response is read: whole (an exchange a response), or as a stream whose units are each
/// an exchange: an event stream's events (--sse), a gRPC call's answer messages or a body's
/// chunks (--stream).
enum class StreamAs : unsigned char { whole, events, messages, chunks };

/// What every connection of a run shares; built once by the engine, read-only afterwards.
struct ClientSetup {
  std::vector<net::ip::tcp::endpoint> endpoints;  ///< resolved once, tried in order
  std::string host;                               ///< for SNI and certificate checks
  /// --unix-socket: connections go to this Unix socket (a leading NUL: the abstract namespace)
  /// instead of `endpoints`.
  std::string unix_socket;
  net::ssl::context* tls = nullptr;                            ///< null for plain http
  std::chrono::nanoseconds timeout{std::chrono::seconds(30)};  ///< one whole exchange
  bool keep_alive = false;
  model::Protocol protocol = model::Protocol::http1;  ///< the origin's first step decides
  /// HTTP/2 over plain TCP asked for as curl's --http2 does: each new connection starts as
  /// HTTP/1.1 asking to upgrade (model::asks_h2c_upgrade()).
  bool h2c_upgrade = false;
  bool keep_body = false;  ///< the verifier reads bodies
  /// Responses read as streams (StreamUnits): an exchange is the stream's next unit, the stream
  /// opened (or opened again) when none is.
  StreamAs stream_as = StreamAs::whole;
  /// --reconnect: a stream the server ends is opened again within the exchange.
  bool reconnect = false;
  /// --rate: streams start on the schedule, each start a request that its first unit answers
  /// (a stream that ends before any fails it as `closed`).
  bool scheduled_streams = false;
  /// A gRPC client-streaming call's messages (-n): the last one ends the call's request, and
  /// its exchange waits for the answer; 0: the call streams until the run cuts it.
  std::uint64_t messages_per_call = 0;
  bool insecure = false;  ///< certificates are not checked (a failure hint says so otherwise)
  /// --ping: a long-lived connection silent this long is pinged (0: never).
  std::chrono::nanoseconds ping_interval{0};
  /// --hold: users hold their connections after their requests, so an HTTP/2 client's
  /// connections are long-lived too (see Client::long_lived()).
  bool hold = false;
  /// --source-ips: the local addresses new connections bind to, each the next in turn (all of
  /// the endpoints' family); empty: the kernel picks.
  std::vector<net::ip::address> sources;
  /// The turn of the next connection among `sources`, shared by every user of the destination.
  mutable std::atomic<std::uint64_t> next_source{0};
  /// Each failure kind's first occurrence is logged once with its message, for the user.
  mutable std::array<std::atomic_flag, model::error_kind_count> failure_logged{};
  /// --http2 over TLS: a server that selected HTTP/1.1 by ALPN is reported once.
  mutable std::atomic_flag fallback_logged{};
  /// Exchanges still to log in full at debug level (-d), shared by every user.
  mutable std::atomic<int> debug_budget{0};
};

class Client;

/// A user's cookie jar as the requests an exchange makes after its first see it (a redirect's
/// hops, --digest's answer): a response that leads to another request gives it its cookies,
/// and each such request takes those that match, as a browser's and curl's do. The user's
/// session implements it; the final response's cookies are the session's to keep.
class SessionCookies {
 public:
  /// Keeps the Set-Cookie headers of `response` (in its wanted headers), which answered a
  /// request for `target` of `origin`.
  virtual void keep_cookies(const model::Origin& origin, std::string_view target,
                            const model::Response& response) = 0;
  /// The Cookie header's value for a request for `target` of `origin` (empty: no cookie).
  virtual std::string cookies_for(const model::Origin& origin, std::string_view target) = 0;

 protected:
  ~SessionCookies() = default;
};

class LongLived;

/// Whom a hold apart from any coroutine (LongLived::hold) tells that it is over.
class HoldOwner {
 public:
  /// `connection`'s hold is over and it is closed; `how` is none (held to the end), closed (by
  /// the server) or how the connection was lost.
  virtual void hold_ended(LongLived& connection, model::ErrorKind how) = 0;

 protected:
  ~HoldOwner() = default;
};

/// One user's connection to the target. Not thread-safe: one user, one Client.
class Client {
 public:
  virtual ~Client() = default;
  /// Sends `request` and fills `response`, opening a connection when none is open. Never throws
  /// for network outcomes: a failure is `response.error`. The caller owns both arguments and
  /// keeps them alive until the exchange completes; reusing `response` keeps its buffers.
  virtual net::awaitable<void> exchange(const PreparedRequest& request,
                                        model::Response& response) = 0;

  /// This client's connections as long-lived ones, counted apart from the requests
  /// (Metrics::long_lived) and held after them (--hold, --listen): a WebSocket client's, and
  /// an HTTP/2 client's in a run that holds them. Null for request-response connections.
  virtual LongLived* long_lived() { return nullptr; }

  /// The requests an exchange makes after its first (a redirect's hops, --digest's answer)
  /// carry `cookies`' and give it theirs; null (the default): they carry none. The user's
  /// session outlives this until it says null.
  virtual void share_cookies(SessionCookies* /*cookies*/) {}

  /// The user is done: closes the connection as its protocol would (a WebSocket close frame,
  /// an HTTP/2 GOAWAY when held: at most a second); without an open connection, or for
  /// protocols with no goodbye, at once.
  virtual net::awaitable<void> finish();
};

/// The seam a long-lived connection adds to its Client (Client::long_lived()): whether it is
/// open, opening it apart, listening on it and holding it.
class LongLived {
 public:
  /// A connection is open now.
  [[nodiscard]] virtual bool is_open() const = 0;
  /// True when opened apart from the exchanges (WebSocket), which are messages timed without
  /// the set-up: the user calls open() when !is_open(). False for one opened inside exchange()
  /// (HTTP/2 with --hold, whose latency includes the connect, as ab's and wrk's do): such a
  /// client reports each connection it opened in `response.new_connection`, and the user
  /// counts what became of the one before from is_open() around the exchange.
  [[nodiscard]] virtual bool opens_apart() const { return false; }
  /// The close code of the server's close frame on the connection that ended last (WebSocket);
  /// 0: none came, or the protocol has none.
  [[nodiscard]] virtual int close_code() const { return 0; }

  /// Opens the connection (TCP, TLS, the upgrade) for `request`'s exchanges: `response` gets
  /// the connect time, or the failure (with the HTTP status of a refused upgrade).
  virtual net::awaitable<void> open(const PreparedRequest& request, model::Response& response);

  /// --hold, --listen: waits for the next message the server sends on the open connection
  /// (answering its pings meanwhile) until `until` or end_hold(), when the connection closes
  /// as its protocol would. Still open afterwards: `response` is that message. Closed: the
  /// hold is over; `response` says how: no error (held to the end), `closed` by the server,
  /// or how it was lost. (HTTP/2 has no message without a request: it holds with hold().)
  virtual net::awaitable<void> receive(std::chrono::steady_clock::time_point until,
                                       model::Response& response);

  /// --hold without --listen: holds the open connection as a loop of receive() would, dropping
  /// what the server sends, and tells `owner` once when it is over. No coroutine waits
  /// meanwhile, so a held connection costs its protocol state and one pending read; that read
  /// keeps `owner` (which owns this client) alive. False, with nothing started, for a client
  /// that holds only with receive().
  virtual bool hold(std::chrono::steady_clock::time_point until, std::shared_ptr<HoldOwner> owner);

 protected:
  ~LongLived() = default;
};

/// -m: the connections a thread's users share, one slot per destination and index, each made
/// by the first client that needs it, of that client's type (H2Shared<Stream>).
class ConnectionPool {
 public:
  /// The slot `index` of `setup`'s destination, made with `make()` if new.
  template <class Slot, class Make>
  Slot& slot(const ClientSetup& setup, std::uint32_t index, Make make) {
    auto& slot = slots_[{&setup, index}];
    if (!slot) slot = make();
    return *static_cast<Slot*>(slot.get());
  }

 private:
  std::map<std::pair<const ClientSetup*, std::uint32_t>, std::shared_ptr<void>> slots_;
};

/// What a thread lends every client it runs: its executor, its watchdog (which enforces the
/// exchanges' deadlines) and the connections its users share. Outlives the clients.
struct ThreadContext {
  net::any_io_executor executor;
  Watchdog* watchdog = nullptr;
  /// -m: how many connections to each destination this thread's users share (its part of
  /// -m); 0: each user has its own.
  std::uint32_t shared_connections = 0;
  ConnectionPool pool;
  /// What the thread's shared HTTP/2 connections (over TCP) read into, one at a time.
  std::vector<char> read_buffer;
  /// -z: when the users' time is up; an event stream's reader stops waiting then (max: no -z).
  std::chrono::steady_clock::time_point window_end = std::chrono::steady_clock::time_point::max();
};

/// Which user a client serves, 0 to -c - 1 (go-stress-testing's WebSocket ping carries it).
using UserId = std::uint64_t;

/// The protocol switch: a client for `setup.protocol`, over TLS when `setup.tls`, running on
/// `thread`'s executor, for user `user`.
std::unique_ptr<Client> make_client(const ClientSetup& setup, ThreadContext& thread, UserId user);

}  // namespace stampede::client
