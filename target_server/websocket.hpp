// The target server's WebSocket connections (/echo, /acc): the handshake and the message loop.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>

#include <boost/asio/ip/tcp.hpp>

#include "target_server/h2_connection.hpp"
#include "target_server/routes.hpp"

namespace stampede::target_server {

/// The longest message read; a longer one is refused with close code 1009 (message too big)
/// as soon as a frame header announces it, before its payload is buffered.
inline constexpr std::size_t max_message_bytes = std::size_t{1024} * 1024;

/// Sec-WebSocket-Key as the client sent it (24 base64 characters, checked by the HTTP side).
using WebSocketKey = std::array<char, 24>;

/// Starts serving one WebSocket connection whose upgrade request (to `page`, Page::echo or
/// Page::acc) was read and found valid by the HTTP side, and returns: the connection lives on
/// in its pending operations, on the socket's executor, until it ends. It answers 101 with the
/// accept key derived from `key`, then, message after message, /echo sends each message back
/// (text as text, binary as binary) and /acc sends acc_reply(). Pings get pongs and a close
/// gets a close. A protocol error is answered with close 1002, invalid UTF-8 in text with 1007,
/// an oversize message with 1009. There is no idle timeout: holding connections is what they
/// are for; `close_timeout` bounds the handshake. Call it on the socket's executor's thread.
void serve_websocket(boost::asio::ip::tcp::socket socket, Page page, const WebSocketKey& key,
                     std::chrono::milliseconds close_timeout);

/// The same over TLS (wss://), once the handshake is done.
void serve_websocket(TlsStream stream, Page page, const WebSocketKey& key,
                     std::chrono::milliseconds close_timeout);

}  // namespace stampede::target_server
