// The small HTTP/1.1 servers a run keeps beside it (--prometheus, --dashboard): the address a
// flag names, read and bound; a request's head, read; an answer, made.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <string>

namespace stampede::cmd {

/// Opens `acceptor` listening on `address`: "127.0.0.1:9464", "[::1]:9464", or ":9464"
/// (127.0.0.1); port 0 leaves the port to the kernel. Throws UsageError naming `flag` for an
/// address it cannot read or bind (a port in use), its examples on the flag's `port`.
void listen_on(boost::asio::ip::tcp::acceptor& acceptor, const std::string& flag,
               const std::string& address, unsigned short port);

/// Where `acceptor` listens, as a URL's authority: "127.0.0.1:9464", "[::1]:9464".
std::string authority_of(const boost::asio::ip::tcp::acceptor& acceptor);

/// A request's head (its lines up to the empty one, 8 KiB at most); empty when the client
/// sent none within 5 s, or more, or the read failed.
boost::asio::awaitable<std::string> read_request_head(boost::asio::ip::tcp::socket& socket);

/// A whole answer that closes the connection: `status` ("200 OK"), its type and body.
std::string plain_response(const std::string& status, const std::string& type,
                           const std::string& body);

}  // namespace stampede::cmd
