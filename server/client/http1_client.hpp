// The HTTP/1.1 client's class: make_http1_client() makes it, and the HTTP/2 client keeps one for
// a server that answers HTTP/1.1 (by ALPN, or by declining an h2c upgrade).
#pragma once

#include <boost/beast/core/flat_buffer.hpp>
#include <chrono>
#include <optional>
#include <string>

#include "server/client/client_base.hpp"
#include "server/client/response_parser.hpp"

namespace stampede::client {

/// A connection the server switched to h2c (a 101 to an `Upgrade: h2c` request): the HTTP/2
/// client takes it with the bytes already read after the 101.
template <class Stream>
struct Switched {
  Stream stream;
  std::string rest;
};

/// HTTP/1.1 over plain TCP or TLS: one connection per user, reused with keep-alive.
template <class Stream>
class Http1Client final : public ClientBase {
 public:
  Http1Client(const ClientSetup& setup, ThreadContext& thread)
      : ClientBase(setup, thread, model::Protocol::http1) {}

  /// One frame for the whole exchange (retry, redirects, write and read loop): a user waiting
  /// for its response holds this frame and its own, not one per step; each nested frame
  /// stayed allocated while it waited, about 0.5 KB per connection.
  net::awaitable<void> exchange(const PreparedRequest& request, model::Response& response) override;

  /// After an exchange whose response was a 101 to an h2c upgrade (`setup.h2c_upgrade`): the
  /// connection, which this client lets go; otherwise nullopt.
  std::optional<Switched<Stream>> take_switched();

 private:
  void close_socket() override;
  Step write_failed(const PreparedRequest& request, model::Response& response, bool reused,
                    const boost::system::error_code& error);
  Step start_reading(const PreparedRequest& request, model::Response& response);
  Step after_read(const PreparedRequest& request, model::Response& response, bool reused,
                  const boost::system::error_code& error, std::size_t n);
  Step parse(const PreparedRequest& request, model::Response& response);
  Step complete(const PreparedRequest& request, model::Response& response);
  void start_parser(const PreparedRequest& request, model::Response& response);
  bool parse_buffered(model::Response& response);
  bool finish_at_eof();
  bool fail(model::Response& response, Phase phase, const boost::system::error_code& error);
  void keep_debug_copy(std::size_t n);
  void log_exchange(const PreparedRequest& request) const;
  void close() override;
  /// A connection is open (the next request reuses it).
  [[nodiscard]] bool connected() const;

  std::optional<Stream> stream_;
  ResponseParser parser_;         ///< one response at a time, restarted for each
  std::string debug_;             ///< raw response bytes for the -d log
  Clock::time_point written_at_;  ///< the request was written: `waiting` starts
  bool debugging_ = false;        ///< this exchange is one of the first few logged (-d)
  bool switched_ = false;         ///< a 101 to an h2c upgrade: take_switched() takes the stream
  boost::beast::flat_buffer buffer_;
};

}  // namespace stampede::client
