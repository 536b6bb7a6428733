// Test helper: H2Client over a real connection (TCP or TLS), every step bounded in time.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <string>
#include <string_view>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>

#include "tests/target_server/h2_client.hpp"
#include "tests/target_server/http_client.hpp"

namespace stampede::target_server {

namespace net = boost::asio;
namespace ssl = net::ssl;
using net::ip::tcp;

/// A TCP connection to 127.0.0.1:port on `context`.
inline tcp::socket connect_loopback(net::io_context& context, unsigned short port) {
  tcp::socket socket(context);
  boost::system::error_code ec;
  socket.connect({net::ip::make_address("127.0.0.1"), port}, ec);
  EXPECT_FALSE(ec) << ec.message();
  return socket;
}

/// A TLS client context trusting `certificate_pem` alone, offering `alpn` (wire form; empty:
/// no ALPN).
inline ssl::context tls_client(const std::string& certificate_pem, std::string_view alpn) {
  ssl::context context(ssl::context::tls_client);
  context.add_certificate_authority(net::buffer(certificate_pem));
  context.set_verify_mode(ssl::verify_peer);
  if (!alpn.empty()) {
    SSL_CTX_set_alpn_protos(context.native_handle(),
                            reinterpret_cast<const unsigned char*>(alpn.data()),
                            static_cast<unsigned>(alpn.size()));
  }
  return context;
}

/// Runs `context` until `done()` or io_timeout; false on timeout.
template <class Done>
bool run_until(net::io_context& context, Done done) {
  const auto deadline = std::chrono::steady_clock::now() + io_timeout;
  context.restart();
  while (!done()) {
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) return false;
    if (context.run_one_for(left) == 0 && context.stopped()) context.restart();
  }
  return true;
}

/// Moves `client`'s bytes over `stream` until `done()`, the connection ends, or io_timeout
/// passes. `received`: bytes already read for the client. Returns done().
template <class Stream, class Done>
bool exchange_until(net::io_context& context, Stream& stream, H2Client& client, Done done,
                    std::string_view received = {}) {
  if (!received.empty()) {
    EXPECT_TRUE(client.input(received));
  }
  std::array<char, 65536> buffer{};
  std::string out;
  bool reading = false;
  bool writing = false;
  bool ended = false;
  run_until(context, [&] {
    if (done() || ended) return true;
    if (!writing && !(out = client.output()).empty()) {
      writing = true;
      net::async_write(stream, net::buffer(out), [&](boost::system::error_code ec, std::size_t) {
        writing = false;
        ended = ended || static_cast<bool>(ec);
      });
    }
    if (!reading) {
      reading = true;
      stream.async_read_some(net::buffer(buffer), [&](boost::system::error_code ec, std::size_t n) {
        reading = false;
        ended = ended || static_cast<bool>(ec) || !client.input({buffer.data(), n});
      });
    }
    return false;
  });
  // Pending operations refer to this frame: cancel them and let them finish.
  boost::system::error_code ignored;
  stream.lowest_layer().cancel(ignored);
  run_until(context, [&] { return !reading && !writing; });
  return done();
}

/// Moves `client`'s bytes over `stream` until every stream submitted has closed, the connection
/// ends, or io_timeout passes. `received`: bytes already read for the client. True if every
/// stream closed.
template <class Stream>
bool exchange(net::io_context& context, Stream& stream, H2Client& client,
              std::string_view received = {}) {
  return exchange_until(
      context, stream, client, [&] { return client.all_closed(); }, received);
}

}  // namespace stampede::target_server
