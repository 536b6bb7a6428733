// MetricsEndpoint: a small HTTP/1.1 responder, one request a connection, for Prometheus's scrapes.
#include "cmd/metrics_endpoint.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <sstream>

#include "cmd/small_http.hpp"

namespace stampede::cmd {
namespace {

namespace net = boost::asio;
using net::ip::tcp;
constexpr auto as_tuple = net::as_tuple(net::use_awaitable);

/// One request, one answer; a client silent for 5 s is dropped.
net::awaitable<void> answer(tcp::socket socket, std::shared_ptr<const std::string> text) {
  std::istringstream head(co_await read_request_head(socket));
  std::string method, target;
  head >> method >> target;
  if (method.empty()) co_return;
  const bool metrics = target == "/metrics" || target.starts_with("/metrics?");
  const std::string reply =
      metrics && (method == "GET" || method == "HEAD")
          ? plain_response("200 OK", "text/plain; version=0.0.4; charset=utf-8",
                           method == "HEAD" ? "" : *text)
          : plain_response("404 Not Found", "text/plain; charset=utf-8",
                           "stampede serves GET /metrics\n");
  (void)co_await net::async_write(socket, net::buffer(reply), as_tuple);
  boost::system::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
}

}  // namespace

MetricsEndpoint::MetricsEndpoint(const std::string& address)
    : acceptor_(context_), text_(std::make_shared<const std::string>()) {
  listen_on(acceptor_, "--prometheus", address, 9464);
  port_ = acceptor_.local_endpoint().port();
  net::co_spawn(context_, accept(), net::detached);
  thread_ = std::thread([this] { context_.run(); });
}

std::string MetricsEndpoint::url() const {
  return "http://" + authority_of(acceptor_) + "/metrics";
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
