// The target server: binding, the accept loop, and one io_context per thread.
#include "target/server.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "target/connection.hpp"

namespace stampede::target {
namespace {

namespace net = boost::asio;
using boost::system::error_code;
using net::ip::tcp;
using Contexts = std::vector<std::unique_ptr<net::io_context>>;
using WorkGuard = net::executor_work_guard<net::io_context::executor_type>;

/// How long the accept loop rests after a failure such as EMFILE, instead of spinning on it.
constexpr std::chrono::milliseconds accept_backoff{50};

std::string describe(const ServeOptions& options) {
  const bool ipv6 = options.bind.find(':') != std::string::npos;
  const auto host = ipv6 ? "[" + options.bind + "]" : options.bind;
  return host + ":" + std::to_string(options.port);
}

[[noreturn]] void cannot_listen(const ServeOptions& options, const std::string& why) {
  throw std::runtime_error("cannot listen on " + describe(options) + ": " + why);
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

tcp::acceptor listen(net::io_context& context, const ServeOptions& options) {
  const auto endpoint = resolve(context, options);
  tcp::acceptor acceptor(context);
  error_code ec;
  acceptor.open(endpoint.protocol(), ec);
  // SO_REUSEADDR lets a restarted server bind while old connections sit in TIME_WAIT. Not
  // SO_REUSEPORT: it would let two servers share a port silently instead of failing here.
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  // Linux hands TCP_NODELAY down to accepted sockets: one setsockopt instead of one per
  // connection. Each write is a whole response; Nagle would only delay a /bytes tail.
  if (!ec) acceptor.set_option(tcp::no_delay(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(tcp::acceptor::max_listen_connections, ec);
  if (ec) cannot_listen(options, ec.message());
  return acceptor;
}

Contexts make_contexts(unsigned threads) {
  if (threads == 0) threads = std::max(1U, std::thread::hardware_concurrency());
  Contexts contexts;
  for (unsigned i = 0; i < threads; ++i) {
    contexts.push_back(std::make_unique<net::io_context>(1));  // 1: each runs on one thread
  }
  return contexts;
}

/// One thread's share of the server: its io_context and the connections living on it.
struct Shard {
  net::io_context* context;
  ConnectionSet* connections;
};

/// Accepts on the first context and deals connections round-robin to all of them; each
/// connection then lives on its context's thread alone (no locks on the request path).
net::awaitable<void> accept_connections(tcp::acceptor* acceptor, std::vector<Shard> shards) {
  constexpr auto use_tuple = net::as_tuple(net::use_awaitable);
  net::steady_timer backoff(acceptor->get_executor());
  for (std::size_t next = 0;; ++next) {
    const Shard shard = shards[next % shards.size()];
    auto [ec, socket] = co_await acceptor->async_accept(*shard.context, use_tuple);
    if (ec == net::error::operation_aborted || !acceptor->is_open()) co_return;
    if (ec) {
      spdlog::warn("target server: accept failed: {}", ec.message());
      backoff.expires_after(accept_backoff);
      co_await backoff.async_wait(use_tuple);
      continue;
    }
    net::co_spawn(*shard.context, serve_connection(std::move(socket), shard.connections),
                  net::detached);
  }
}

}  // namespace

struct Server::Impl {
  explicit Impl(ServeOptions serve_options)
      : options(std::move(serve_options)),
        contexts(make_contexts(options.threads)),
        acceptor(listen(*contexts.front(), options)),
        port(acceptor->local_endpoint().port()) {
    for (const auto& context : contexts) {
      connections.push_back(std::make_unique<ConnectionSet>(options.idle_timeout));
      guards.push_back(net::make_work_guard(*context));
    }
  }

  // A pending accept holds a socket of another context; a connection holds a socket of its own
  // and leaves its ConnectionSet when destroyed. So: the acceptor, then the contexts first to
  // last (each while what it refers to lives), then the ConnectionSets.
  ~Impl() {
    acceptor.reset();
    guards.clear();
    for (auto& context : contexts) context.reset();
  }

  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  ServeOptions options;
  Contexts contexts;
  std::optional<tcp::acceptor> acceptor;
  unsigned short port;
  std::vector<std::unique_ptr<ConnectionSet>> connections;  // one per context
  std::vector<WorkGuard> guards;  // threads without connections yet must keep running
};

Server::Server(ServeOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Server::~Server() = default;

unsigned short Server::port() const { return impl_->port; }

std::vector<std::uint64_t> Server::connections_per_thread() const {
  std::vector<std::uint64_t> counts;
  for (const auto& set : impl_->connections) counts.push_back(set->joined());
  return counts;
}

void Server::run() {
  const auto& contexts = impl_->contexts;
  std::vector<Shard> shards;
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    shards.push_back({contexts[i].get(), impl_->connections[i].get()});
    net::co_spawn(*contexts[i], sweep_idle(impl_->connections[i].get()), net::detached);
  }
  net::co_spawn(*contexts.front(), accept_connections(&*impl_->acceptor, shards), net::detached);
  spdlog::debug("target server: listening on port {} with {} threads", impl_->port, shards.size());
  std::vector<std::jthread> threads;
  for (std::size_t i = 1; i < contexts.size(); ++i) {
    threads.emplace_back([context = contexts[i].get()] { context->run(); });
  }
  try {
    contexts.front()->run();
  } catch (...) {
    stop();  // the other threads must end too, or the jthreads' joins would wait forever
    throw;
  }
  stop();
}

void Server::stop() {
  for (const auto& context : impl_->contexts) context->stop();
}

}  // namespace stampede::target
