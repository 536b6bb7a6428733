// One client connection of the target server: read, parse, answer, repeat.
#pragma once

#include <chrono>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace stampede::target {

/// Serves HTTP/1.x on `socket` until the peer closes, a response says "Connection: close", a
/// request is malformed (400) or too large (431), or nothing moves for `idle_timeout`.
/// Run it on the socket's executor; it never throws.
boost::asio::awaitable<void> serve_connection(boost::asio::ip::tcp::socket socket,
                                              std::chrono::milliseconds idle_timeout);

}  // namespace stampede::target
