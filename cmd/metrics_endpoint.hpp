// MetricsEndpoint: --prometheus ADDR, the live metrics served for a Prometheus to scrape.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace stampede::cmd {

/// Answers `GET /metrics` with the text last published, on a thread of its own, from
/// construction to destruction; a scrape never waits for the run, nor the run for a scrape.
class MetricsEndpoint {
 public:
  /// Listens on `address`: "127.0.0.1:9464", "[::1]:9464", or ":9464" (127.0.0.1). Throws
  /// UsageError for an address it cannot read or bind (a port in use), before any load.
  explicit MetricsEndpoint(const std::string& address);
  MetricsEndpoint(const MetricsEndpoint&) = delete;
  MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;
  /// Stops listening; a scrape under way is cut.
  ~MetricsEndpoint();

  /// The text the next scrapes get (thread-safe).
  void publish(std::string text);
  /// The port bound (the one asked for, or the kernel's pick for port 0).
  [[nodiscard]] unsigned short port() const { return port_; }
  /// Where the metrics are: `http://127.0.0.1:9464/metrics`, with the port bound.
  [[nodiscard]] std::string url() const;

 private:
  [[nodiscard]] std::shared_ptr<const std::string> current() const;
  /// Accepts scrapes until the context stops, each answered by a coroutine of its own.
  boost::asio::awaitable<void> accept();

  boost::asio::io_context context_{1};
  boost::asio::ip::tcp::acceptor acceptor_;
  unsigned short port_ = 0;
  mutable std::mutex mutex_;
  std::shared_ptr<const std::string> text_;
  std::thread thread_;
};

}  // namespace stampede::cmd
