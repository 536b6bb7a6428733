// MetricsEndpoint: a small HTTP/1.1 responder, one request a connection, for Prometheus's scrapes.
#include "cmd/metrics_endpoint.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <istream>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

namespace net = boost::asio;
using net::ip::tcp;
constexpr auto as_tuple = net::as_tuple(net::use_awaitable);

tcp::endpoint endpoint_of(const std::string& address) {
  const auto colon = address.rfind(':');
  const auto refuse = [&address](const std::string& why) {
    throw UsageError("--prometheus " + address + ": " + why +
                     " (give HOST:PORT, as 127.0.0.1:9464 or [::1]:9464)");
  };
  if (colon == std::string::npos) refuse("no port");
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  if (host.empty()) host = "127.0.0.1";
  const std::string port_text = address.substr(colon + 1);
  unsigned long port = 0;
  try {
    std::size_t used = 0;
    port = std::stoul(port_text, &used);
    if (used != port_text.size() || port > 65535) refuse("a port from 0 to 65535");
  } catch (const std::logic_error&) {
    refuse("a port from 0 to 65535");
  }
  boost::system::error_code error;
  const auto ip = net::ip::make_address(host, error);
  if (error) refuse("'" + host + "' is not an IP address");
  return {ip, static_cast<unsigned short>(port)};
}

std::string response(const std::string& status, const char* type, const std::string& body) {
  return "HTTP/1.1 " + status + "\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" +
         body;
}

/// One request, one answer; a client silent for 5 s is dropped.
net::awaitable<void> answer(tcp::socket socket, std::shared_ptr<const std::string> text) {
  net::steady_timer deadline(socket.get_executor(), std::chrono::seconds(5));
  deadline.async_wait([&socket](boost::system::error_code error) {
    if (!error) socket.close();
  });
  net::streambuf request(8192);
  auto [error, length] = co_await net::async_read_until(socket, request, "\r\n\r\n", as_tuple);
  deadline.cancel();
  if (error) co_return;
  std::istream head(&request);
  std::string method, target;
  head >> method >> target;
  const bool metrics = target == "/metrics" || target.starts_with("/metrics?");
  const std::string reply = metrics && (method == "GET" || method == "HEAD")
                                ? response("200 OK", "text/plain; version=0.0.4; charset=utf-8",
                                           method == "HEAD" ? "" : *text)
                                : response("404 Not Found", "text/plain; charset=utf-8",
                                           "stampede serves GET /metrics\n");
  (void)co_await net::async_write(socket, net::buffer(reply), as_tuple);
  boost::system::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
}

}  // namespace

MetricsEndpoint::MetricsEndpoint(const std::string& address)
    : acceptor_(context_), text_(std::make_shared<const std::string>()) {
  const auto endpoint = endpoint_of(address);
  boost::system::error_code error;
  acceptor_.open(endpoint.protocol(), error);
  if (!error) acceptor_.set_option(tcp::acceptor::reuse_address(true), error);
  if (!error) acceptor_.bind(endpoint, error);
  if (!error) acceptor_.listen(net::socket_base::max_listen_connections, error);
  if (error)
    throw UsageError("--prometheus " + address + ": cannot listen (" + error.message() + ")");
  port_ = acceptor_.local_endpoint().port();
  net::co_spawn(context_, accept(), net::detached);
  thread_ = std::thread([this] { context_.run(); });
}

std::string MetricsEndpoint::url() const {
  const auto address = acceptor_.local_endpoint().address();
  const auto host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  return "http://" + host + ":" + std::to_string(port_) + "/metrics";
}

net::awaitable<void> MetricsEndpoint::accept() {
  for (;;) {
    auto [error, socket] = co_await acceptor_.async_accept(as_tuple);
    if (error == net::error::operation_aborted) co_return;
    if (!error) net::co_spawn(context_, answer(std::move(socket), current()), net::detached);
  }
}

MetricsEndpoint::~MetricsEndpoint() {
  context_.stop();
  thread_.join();
}

void MetricsEndpoint::publish(std::string text) {
  auto shared = std::make_shared<const std::string>(std::move(text));
  const std::lock_guard lock(mutex_);
  text_ = std::move(shared);
}

std::shared_ptr<const std::string> MetricsEndpoint::current() const {
  const std::lock_guard lock(mutex_);
  return text_;
}

}  // namespace stampede::cmd
