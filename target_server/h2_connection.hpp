// The target server's HTTP/2 connections: H2Server over a socket, plain (h2c) or TLS (h2).
#pragma once

#include <string_view>

#include <boost/asio/ip/tcp.hpp>

#include "target_server/connection.hpp"
#include "target_server/h2_server.hpp"

namespace boost::asio::ssl {
template <typename Stream>
class stream;
}  // namespace boost::asio::ssl

namespace stampede::target_server {

/// HTTP/2's connection preface, the first bytes of a client speaking it (RFC 9113 3.4).
inline constexpr std::string_view h2_preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// A TLS connection of the target server.
using TlsStream = boost::asio::ssl::stream<boost::asio::ip::tcp::socket>;

/// Starts serving HTTP/2 on `socket`, an h2c connection handed over by the HTTP/1.1 side,
/// whose first bytes `received` were read there (the connection preface, or what followed an
/// upgrade request), and returns: the connection lives on in its operations on the socket's
/// executor, until the client closes it, it breaks the protocol, or the idle sweep of
/// `connections` closes it (it is not counted as joining again). With `upgrade` (after its
/// 101), stream 1 is that request. Requests are answered as H2Server says, /delay/{ms} on a
/// timer without holding up the other streams. Never throws.
void serve_h2(boost::asio::ip::tcp::socket socket, ConnectionSet* connections,
              std::string_view received, const H2cUpgrade* upgrade);

/// The same over TLS, once the handshake selected h2 by ALPN.
void serve_h2(TlsStream stream, ConnectionSet* connections);

}  // namespace stampede::target_server
