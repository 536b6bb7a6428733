// Opening a client's TCP socket, non-blocking, with two system calls a connection fewer than
// Asio's open() and non_blocking(true) make.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/system/error_code.hpp>

namespace stampede::client {

/// Opens `socket` for `protocol` as Asio's open() then non_blocking(true) would, but:
/// - with no ioctl(FIONBIO): socket() makes it non-blocking, and Asio is told so;
/// - with no read tried before epoll says the socket is readable. Asio tries a new socket's
///   first read at once, and that finds nothing on a connection whose request was just
///   written (85% of them on loopback, docs/benchmarks.md).
/// On failure `error` says why and `socket` stays closed.
void open_non_blocking(boost::asio::ip::tcp::socket& socket, const boost::asio::ip::tcp& protocol,
                       boost::system::error_code& error);

}  // namespace stampede::client
