// classify(): protocol and TLS errors are recognised by category, the rest by phase.
#include "server/client/classify.hpp"

#include <optional>

#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/websocket/error.hpp>

#include "server/client/content_decoding.hpp"
#include "server/client/h2_error.hpp"

namespace stampede::client {

namespace {

namespace websocket = boost::beast::websocket;

/// WebSocket's own outcomes: a close from the server, a message over the limit, a refused
/// upgrade; any other error of Beast's WebSocket category breaks the protocol.
std::optional<model::ErrorKind> websocket_kind(const boost::system::error_code& error) {
  using model::ErrorKind;
  if (error == websocket::error::closed) return ErrorKind::closed;
  if (error == websocket::error::message_too_big) return ErrorKind::too_big;
  if (error == websocket::condition::handshake_failed) return ErrorKind::handshake;
  if (error.category() == make_error_code(websocket::error::closed).category()) {
    return ErrorKind::protocol;
  }
  return std::nullopt;
}

}  // namespace

bool websocket_outcome(const boost::system::error_code& error) {
  return error.category() == make_error_code(websocket::error::closed).category();
}

model::ErrorKind classify(Phase phase, const boost::system::error_code& error) {
  using model::ErrorKind;
  if (const auto kind = websocket_kind(error)) return *kind;
  // Beast's own timer: a keep-alive ping (--ping) the server did not answer in time.
  if (error == boost::beast::error::timeout) return ErrorKind::timeout;
  // ETIMEDOUT: the kernel gave up (a connect's SYNs, a keep-alive probe), or an HTTP/2
  // connection's clock ended its connect (H2Connection::expire()).
  if (error == boost::asio::error::timed_out) return ErrorKind::timeout;
  // A stream the server did not process (REFUSED_STREAM, or past its GOAWAY's last stream):
  // it closed the connection to that request before any reply.
  if (error == h2_refused()) return ErrorKind::closed;
  if (error.category() == make_error_code(boost::beast::http::error::need_more).category() ||
      error.category() == content_decoding_category() || error.category() == h2_category()) {
    return ErrorKind::protocol;
  }
  const bool tls_category = error.category() == boost::asio::error::get_ssl_category();
  switch (phase) {
    case Phase::connect:
      return ErrorKind::connect;
    case Phase::handshake:
      return ErrorKind::tls;
    case Phase::write:
      return ErrorKind::write;
    case Phase::read:
      return tls_category && error != boost::asio::ssl::error::stream_truncated ? ErrorKind::tls
                                                                                : ErrorKind::read;
  }
  return ErrorKind::read;
}

}  // namespace stampede::client
