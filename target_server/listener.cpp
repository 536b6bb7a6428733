// The target server's listening socket and accept loop: binding, batched accepts, dealing.
#include "target_server/listener.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <stdexcept>
#include <string>

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace stampede::target_server {
namespace {

namespace net = boost::asio;
using boost::system::error_code;
using net::ip::tcp;

/// How long the accept loop rests after a failure such as EMFILE, instead of spinning on it.
constexpr std::chrono::milliseconds accept_backoff{50};

[[noreturn]] void cannot_listen(const ServeOptions& options, const std::string& why) {
  throw std::runtime_error("cannot listen on " + host_port(options.bind, options.port) + ": " +
                           why);
}

/// An address literal as is; a host name ("localhost") through the resolver.
tcp::endpoint resolve(net::io_context& context, const ServeOptions& options) {
  error_code ec;
  const auto address = net::ip::make_address(options.bind, ec);
  if (!ec) return {address, options.port};
  tcp::resolver resolver(context);
  const auto flags = tcp::resolver::passive | tcp::resolver::numeric_service;
  const auto results = resolver.resolve(options.bind, std::to_string(options.port), flags, ec);
  if (ec) cannot_listen(options, ec.message());
  if (results.empty()) cannot_listen(options, "no address");
  return results.begin()->endpoint();
}

/// SO_REUSEPORT: Asio has no option for it.
void share_port(tcp::acceptor& acceptor, error_code& ec) {
  const int on = 1;
  if (setsockopt(acceptor.native_handle(), SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) != 0) {
    ec = error_code(errno, boost::system::system_category());
  }
}

}  // namespace

tcp::acceptor bind_port(net::io_context& context, const ServeOptions& options) {
  const auto endpoint = resolve(context, options);
  tcp::acceptor acceptor(context);
  error_code ec;
  acceptor.open(endpoint.protocol(), ec);
  // SO_REUSEADDR lets a restarted server bind while old connections sit in TIME_WAIT.
  // SO_REUSEPORT only when asked: it would let two servers share a port silently.
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec && options.reuse_port) share_port(acceptor, ec);
  // Linux hands TCP_NODELAY down to accepted sockets: one setsockopt instead of one per
  // connection. Each write is a whole response; Nagle would only delay a /bytes tail.
  if (!ec) acceptor.set_option(tcp::no_delay(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (ec) cannot_listen(options, ec.message());
  return acceptor;
}

tcp::acceptor listen(net::io_context& context, const ServeOptions& options) {
  auto acceptor = bind_port(context, options);
  error_code ec;
  acceptor.listen(listen_backlog, ec);
  if (!ec) acceptor.non_blocking(true, ec);
  if (ec) cannot_listen(options, ec.message());
  return acceptor;
}

void Dealer::deal(tcp::socket socket) {
  const Shard shard = shards_[next_++ % shards_.size()];
  if (tls_ != nullptr) {
    net::co_spawn(*shard.context, serve_tls_connection(std::move(socket), shard.connections, tls_),
                  net::detached);
    return;
  }
  net::co_spawn(*shard.context, serve_connection(std::move(socket), shard.connections),
                net::detached);
}

std::size_t accept_waiting(tcp::acceptor& acceptor, Dealer& dealer, std::size_t limit) {
  std::size_t accepted = 0;
  for (; accepted < limit; ++accepted) {
    error_code ec;
    auto socket = acceptor.accept(dealer.next_context(), ec);
    if (ec) break;
    dealer.deal(std::move(socket));
  }
  return accepted;
}

net::awaitable<void> accept_connections(tcp::acceptor* acceptor, Dealer dealer) {
  constexpr auto use_tuple = net::as_tuple(net::use_awaitable);
  net::steady_timer backoff(acceptor->get_executor());
  for (;;) {
    auto [ec, socket] = co_await acceptor->async_accept(dealer.next_context(), use_tuple);
    if (ec == net::error::operation_aborted || !acceptor->is_open()) co_return;
    if (ec) {
      spdlog::warn("target server: accept failed: {}", ec.message());
      backoff.expires_after(accept_backoff);
      co_await backoff.async_wait(use_tuple);
      continue;
    }
    dealer.deal(std::move(socket));
    accept_waiting(*acceptor, dealer, accept_batch - 1);
  }
}

}  // namespace stampede::target_server
