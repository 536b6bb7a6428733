// The target server: one io_context per thread, the connections on each, run and stop.
#include "target/server.hpp"

#include <algorithm>
#include <optional>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "target/connection.hpp"
#include "target/listener.hpp"

namespace stampede::target {
namespace {

namespace net = boost::asio;
using net::ip::tcp;
using Contexts = std::vector<std::unique_ptr<net::io_context>>;
using WorkGuard = net::executor_work_guard<net::io_context::executor_type>;

Contexts make_contexts(unsigned threads) {
  if (threads == 0) threads = std::max(1U, std::thread::hardware_concurrency());
  Contexts contexts;
  for (unsigned i = 0; i < threads; ++i) {
    contexts.push_back(std::make_unique<net::io_context>(1));  // 1: each runs on one thread
  }
  return contexts;
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
  net::co_spawn(*contexts.front(), accept_connections(&*impl_->acceptor, Dealer(shards)),
                net::detached);
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

std::string host_port(const std::string& host, unsigned short port) {
  const bool ipv6 = host.find(':') != std::string::npos;
  return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace stampede::target
