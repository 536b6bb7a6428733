// Test helper: a raw HTTP client of the target server, every step bounded in time.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>

namespace stampede::target_server {

/// Every client operation gives up after this, so a broken server fails a test, not hangs it.
inline constexpr std::chrono::seconds io_timeout{5};

/// A response as the test clients read it.
using Response = boost::beast::http::response<boost::beast::http::string_body>;

/// A raw HTTP client: sends bytes as given, parses responses with Beast, every step bounded.
class HttpClient {
 public:
  explicit HttpClient(unsigned short port) : stream_(context_) {
    stream_.expires_after(io_timeout);
    const boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::make_address("127.0.0.1"), port);
    stream_.async_connect(endpoint, [this](boost::beast::error_code ec) { error_ = ec; });
    run();
    EXPECT_FALSE(error_) << error_.message();
  }

  void send(const std::string& raw) {
    stream_.expires_after(io_timeout);
    boost::asio::async_write(stream_, boost::asio::buffer(raw),
                             [this](boost::beast::error_code ec, std::size_t) { error_ = ec; });
    run();
    EXPECT_FALSE(error_) << error_.message();
  }

  /// Reads one response; `head` for a response to HEAD (no body follows).
  Response receive(bool head = false) {
    boost::beast::http::response_parser<boost::beast::http::string_body> parser;
    parser.skip(head);
    parser.body_limit(200 * 1024 * 1024);
    stream_.expires_after(io_timeout);
    boost::beast::http::async_read(
        stream_, buffer_, parser,
        [this](boost::beast::error_code ec, std::size_t) { error_ = ec; });
    run();
    EXPECT_FALSE(error_) << error_.message();
    return parser.release();
  }

  Response get(const std::string& target) {
    send("GET " + target + " HTTP/1.1\r\nHost: test\r\n\r\n");
    return receive();
  }

  /// Reads exactly `size` bytes (what a response left in the buffer first); fewer if the
  /// connection ends or io_timeout passes.
  std::string read_bytes(std::size_t size) {
    const auto buffered = buffer_.cdata();
    std::string bytes(static_cast<const char*>(buffered.data()), std::min(size, buffered.size()));
    buffer_.consume(bytes.size());
    const auto have = bytes.size();
    std::size_t got = 0;
    if (have < size) {
      bytes.resize(size);
      stream_.expires_after(io_timeout);
      boost::asio::async_read(stream_, boost::asio::buffer(bytes.data() + have, size - have),
                              [this, &got](boost::beast::error_code ec, std::size_t n) {
                                error_ = ec;
                                got = n;
                              });
      run();
    }
    bytes.resize(have + got);
    return bytes;
  }

  /// True if the server closes the connection (end of stream) before sending anything else.
  bool closed_by_server() {
    if (buffer_.size() > 0) return false;
    char byte = 0;
    stream_.expires_after(io_timeout);
    stream_.async_read_some(boost::asio::buffer(&byte, 1),
                            [this](boost::beast::error_code ec, std::size_t) { error_ = ec; });
    run();
    return error_ == boost::asio::error::eof || error_ == boost::asio::error::connection_reset;
  }

 private:
  void run() {
    context_.restart();
    context_.run();
  }

  boost::asio::io_context context_;
  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  boost::beast::error_code error_;
};

}  // namespace stampede::target_server
