// Opening a client connection, shared by the protocol clients: TCP connect, then TLS if any.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "server/client/classify.hpp"
#include "server/client/client.hpp"
#include "server/client/failure_log.hpp"
#include "server/client/open_socket.hpp"
#include "server/client/tls_session.hpp"

namespace stampede::client {

using TcpStream = net::ip::tcp::socket;

/// The clients' completion token: an operation's error comes back as a value, not an exception.
inline constexpr auto as_tuple = net::as_tuple(net::use_awaitable);

/// A server may close an idle keep-alive connection just as we reuse it. A request that then
/// fails before any response byte is retried once on a new connection, but only when its
/// method is idempotent (RFC 9110 9.2.2), as browsers and Go's client do: the server may
/// have read it.
inline bool stale_connection(const boost::system::error_code& error) {
  return error == net::error::eof || error == net::error::connection_reset ||
         error == net::error::broken_pipe || error == net::ssl::error::stream_truncated;
}

/// The server closed the connection (over TLS, with or without close_notify): a response
/// that runs to the connection's end is then complete.
inline bool end_of_stream(const boost::system::error_code& error) {
  return error == net::error::eof || error == net::ssl::error::stream_truncated;
}

/// Why a connection could not be opened.
struct OpenFailure {
  Phase phase;
  boost::system::error_code error;
};

/// The TCP socket under `stream`, the one the watchdog closes (over TLS: tls_socket.hpp's).
inline TcpStream& tcp_socket(TcpStream& stream) { return stream; }

/// The server selected "h2" by ALPN on the TLS connection `ssl`.
inline bool selected_h2(const SSL* ssl) {
  const unsigned char* protocol = nullptr;
  unsigned int length = 0;
  SSL_get0_alpn_selected(ssl, &protocol, &length);
  return std::string_view(reinterpret_cast<const char*>(protocol), length) == "h2";
}

/// Closes the TCP socket under `stream`, if open: every wait on it ends (the watchdog's cut, a
/// connection given up).
template <class Stream>
void close_under(std::optional<Stream>& stream) {
  boost::system::error_code ignored;
  if (stream) tcp_socket(*stream).close(ignored);
}

/// Over plain TCP no protocol is selected (no ALPN there; over TLS: tls_socket.hpp's).
inline bool alpn_selected_h2(TcpStream& /*stream*/) { return false; }

/// `host` is an IP address, not a name: SNI never names one (RFC 6066, section 3).
inline bool address_literal(const std::string& host) {
  boost::system::error_code not_an_address;
  (void)net::ip::make_address(host, not_an_address);
  return !not_an_address;
}

/// Where a connection's local address and port come from.
struct LocalEnd {
  const net::ip::address* source = nullptr;  ///< --source-ips' next; nullptr: the kernel picks
  /// bind() picks the port (else connect() does). Linux's connect() looks for a free port among
  /// the even ones of the range first and bind() among the odd ones, so once half the range is
  /// in use to one server from one address (14,116 ports here), each connect() walks every busy
  /// even port before it tries an odd one: opening 19,000 WebSocket connections fell from about
  /// 3,000 a second to 300-900 past that point (docs/benchmarks.md). Long-lived connections
  /// take turns, so each search has its half to itself. Others leave the port to connect(),
  /// which may reuse one in TIME_WAIT (bind() would not), and whose ports each server shares.
  bool port_from_bind = false;
};

/// The local end of `setup`'s next connection: each takes the next source address in turn, and
/// the next turn of port_from_bind.
inline LocalEnd next_local_end(const ClientSetup& setup) {
  const bool long_lived = setup.protocol == model::Protocol::websocket;
  if (setup.sources.empty() && !long_lived) return {};
  const auto turn = setup.next_source.fetch_add(1, std::memory_order_relaxed);
  const auto sources = std::max<std::size_t>(setup.sources.size(), 1);
  return {setup.sources.empty() ? nullptr : &setup.sources[turn % sources],
          long_lived && (turn / sources) % 2 == 1};
}

/// Binds the open `socket` as `local` says, for a connection to `to`; a failure to bind the
/// source address is the first connect failure's message. IP_BIND_ADDRESS_NO_PORT (Linux 4.2)
/// leaves the port to connect(), which picks one free for this (source, server) pair; a port
/// bind() picks is reserved against every server. Where the option is refused, or no odd port is
/// free for port_from_bind, the port is picked as it can be.
inline boost::system::error_code bind_local(TcpStream& socket, const LocalEnd& local,
                                            const net::ip::tcp& to, const ClientSetup& setup) {
  boost::system::error_code error;
  if (local.source == nullptr) {
    if (local.port_from_bind) socket.bind({to, 0}, error);
    return {};  // unbound after a failed bind(): connect() picks the port
  }
  if (local.port_from_bind) socket.bind({*local.source, 0}, error);
  if (!local.port_from_bind || error) {  // the port is left to connect()
    const int on = 1;
    (void)::setsockopt(socket.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &on, sizeof on);
    socket.bind({*local.source, 0}, error);
  }
  if (error) {
    const auto hint = "binding source address " + local.source->to_string() +
                      " of --source-ips: is it an address of this machine?";
    log_first_failure(setup, model::ErrorKind::connect, error, hint);
  }
  return error;
}

/// --unix-socket: puts a Unix stream socket connected to `path` in `socket`'s place. Asio's TCP
/// socket reads and writes its descriptor as any stream socket, so every client (HTTP/1.1, TLS,
/// HTTP/2, WebSocket) works over it unchanged (TCP_NODELAY, which it has no use for, is not set). A
/// local connect() completes at once or fails (a full backlog is EAGAIN), so it is not awaited.
inline boost::system::error_code connect_unix(TcpStream& socket, const std::string& path) {
  boost::system::error_code error;
  socket.close(error);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) return net::error::name_too_long;
  std::memcpy(address.sun_path, path.data(), path.size());
  // A path ends with its NUL; an abstract name (leading NUL) is exactly its bytes.
  const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + path.size() +
                                             (path.front() == '\0' ? 0 : 1));
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return {errno, boost::system::system_category()};
  socket.assign(net::ip::tcp::v4(), fd, error);
  if (error) {
    ::close(fd);
    return error;
  }
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), length) != 0) {
    return {errno, boost::system::system_category()};
  }
  socket.non_blocking(true, error);  // as start_connect leaves a TCP socket
  return error;
}

/// Starts connecting the open, non-blocking `socket` to `endpoint` and says how far it got:
/// connected (success), would_block (under way), or why it failed. An empty send() asks
/// whether the connection is already up, as it is on loopback, where connect() runs the whole
/// handshake before it returns EINPROGRESS.
inline boost::system::error_code start_connect(TcpStream& socket,
                                               const net::ip::tcp::endpoint& endpoint) {
  const auto system_error = [] {
    return boost::system::error_code(errno, boost::system::system_category());
  };
  const int fd = socket.native_handle();
  if (::connect(fd, endpoint.data(), static_cast<socklen_t>(endpoint.size())) == 0) return {};
  if (errno != EINPROGRESS) return system_error();
  if (::send(fd, nullptr, 0, MSG_NOSIGNAL) == 0) return {};
  return errno == EAGAIN ? net::error::would_block : system_error();  // EAGAIN: in SYN_SENT
}

/// How the connect awaited on `socket` ended: its SO_ERROR.
inline boost::system::error_code connect_outcome(TcpStream& socket) {
  int outcome = 0;
  socklen_t size = sizeof outcome;
  if (::getsockopt(socket.native_handle(), SOL_SOCKET, SO_ERROR, &outcome, &size) != 0) {
    outcome = errno;
  }
  return {outcome, boost::system::system_category()};
}

/// Connects `socket` to the first of `setup.endpoints` that answers, from the next source
/// address if any, and sets TCP_NODELAY on it: nullopt, or the last attempt's error as a connect
/// failure (what open_stream() returns, so that it returns this coroutine itself). Asio's
/// range async_connect is not used: when it cannot open a socket (EMFILE, ENFILE, ENOBUFS) it
/// reports operation_aborted, as if the socket had been closed under it, and the real reason is
/// lost. A socket closed under us (the watchdog) ends the loop, as there.
inline net::awaitable<std::optional<OpenFailure>> connect_socket(TcpStream& socket,
                                                                 const ClientSetup& setup) {
  if (!setup.unix_socket.empty()) {
    const auto error = connect_unix(socket, setup.unix_socket);
    if (!error) co_return std::nullopt;
    co_await net::post(socket.get_executor(), as_tuple);  // as below: never spin
    co_return OpenFailure{Phase::connect, error};
  }
  const auto local = next_local_end(setup);
  const auto* source = local.source;
  boost::system::error_code error = net::error::host_not_found;
  for (const auto& endpoint : setup.endpoints) {
    // Flow keeps only the endpoints of the sources' family: a guard, not a path.
    if (source != nullptr && source->is_v6() != (endpoint.protocol() == net::ip::tcp::v6())) {
      error = net::error::address_family_not_supported;
      continue;
    }
    boost::system::error_code ignored;
    socket.close(ignored);
    open_non_blocking(socket, endpoint.protocol(), error);
    const bool opened = !error;
    if (opened) error = bind_local(socket, local, endpoint.protocol(), setup);
    if (error) {
      // Failed without waiting: yield once, as Asio does, or a user whose every connect fails
      // so would loop without letting its thread run anything else (timers, other users, stop).
      co_await net::post(socket.get_executor(), as_tuple);
      if (opened) break;  // a source address that does not bind fails for every endpoint alike
      continue;
    }
    // Asio's async_connect always waits for the socket to become writable, then polls it and
    // asks SO_ERROR: an epoll_ctl, a turn of the loop and three syscalls more than a connection
    // that is up at once needs. Only one still under way is awaited here.
    error = start_connect(socket, endpoint);
    if (error == net::error::would_block) {
      std::tie(error) = co_await socket.async_wait(net::socket_base::wait_write, as_tuple);
      if (!error) error = connect_outcome(socket);  // else closed under us: operation_aborted
    } else if (error) {
      // Refused without waiting: yield once, as async_connect's posted handler did, or a user
      // whose every connect is refused would loop without letting its thread run anything else.
      co_await net::post(socket.get_executor(), as_tuple);
    }
    if (!error || !socket.is_open()) break;
  }
  if (error) co_return OpenFailure{Phase::connect, error};
  // A request goes in one write and its answer is awaited: no Nagle delay.
  socket.set_option(net::ip::tcp::no_delay(true), error);
  co_return std::nullopt;
}

/// Makes `stream` (a closed one is opened anew: no new object, whose making and unmaking, with
/// Asio's service lookups, cost about 200 instructions a new connection) and connects it to the
/// first of `setup.endpoints` that answers (from the next of `setup.sources`, if any). Nullopt
/// on success. Not a coroutine of its own: the connect is awaited in one frame less. Over TLS,
/// tls_socket.hpp's shakes hands too.
inline net::awaitable<std::optional<OpenFailure>> open_stream(std::optional<TcpStream>& stream,
                                                              const net::any_io_executor& executor,
                                                              const ClientSetup& setup,
                                                              TlsSession& /*session*/) {
  if (!stream) stream.emplace(executor);
  return connect_socket(*stream, setup);
}

}  // namespace stampede::client
