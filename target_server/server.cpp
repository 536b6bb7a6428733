// The target server: one io_context per thread, the connections on each, run and stop.
#include "target_server/server.hpp"

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

#include "target_server/admission.hpp"
#include "target_server/connection.hpp"
#include "target_server/listener.hpp"
#include "target_server/tls_context.hpp"

namespace stampede::target_server {
namespace {

namespace net = boost::asio;
using net::ip::tcp;
using Contexts = std::vector<std::unique_ptr<net::io_context>>;
using WorkGuard = net::executor_work_guard<net::io_context::executor_type>;

/// The options with a certificate if TLS is on: a self-signed one if none is given.
ServeOptions with_certificate(ServeOptions options) {
  if (options.tls_port && options.certificate.empty()) {
    options.certificate = make_self_signed_certificate();
  }
  return options;
}

std::optional<net::ssl::context> make_tls(const ServeOptions& options) {
  if (!options.tls_port) return std::nullopt;
  return make_tls_context(options.certificate);
}

/// Listens on the TLS port, if there is one.
std::optional<tcp::acceptor> listen_tls(net::io_context& context, const ServeOptions& options) {
  if (!options.tls_port) return std::nullopt;
  auto tls_options = options;
  tls_options.port = *options.tls_port;
  return listen(context, tls_options);
}

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
      : options(with_certificate(std::move(serve_options))),
        in_flight(options.max_in_flight),
        contexts(make_contexts(options.threads)),
        acceptor(listen(*contexts.front(), options)),
        port(acceptor->local_endpoint().port()),
        tls(make_tls(options)),
        tls_acceptor(listen_tls(*contexts.front(), options)),
        tls_port(tls_acceptor ? tls_acceptor->local_endpoint().port() : 0) {
    for (const auto& context : contexts) {
      connections.push_back(
          std::make_unique<ConnectionSet>(options.idle_timeout, options.max_streams, &in_flight));
      guards.push_back(net::make_work_guard(*context));
    }
  }

  // A pending accept holds a socket of another context; a connection holds a socket of its own
  // and leaves its ConnectionSet when destroyed. So: the acceptors, then the contexts first to
  // last (each while what it refers to lives), then the ConnectionSets and the TLS context.
  ~Impl() {
    acceptor.reset();
    tls_acceptor.reset();
    guards.clear();
    for (auto& context : contexts) context.reset();
  }

  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  ServeOptions options;
  InFlightLimit in_flight;  // every thread's; outlives the contexts, whose requests leave it
  Contexts contexts;
  std::optional<tcp::acceptor> acceptor;
  unsigned short port;
  std::optional<net::ssl::context> tls;  // shared by every thread's TLS connections
  std::optional<tcp::acceptor> tls_acceptor;
  unsigned short tls_port;
  std::vector<std::unique_ptr<ConnectionSet>> connections;  // one per context
  std::vector<WorkGuard> guards;  // threads without connections yet must keep running
};

Server::Server(ServeOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Server::~Server() = default;

unsigned short Server::port() const { return impl_->port; }

unsigned short Server::tls_port() const { return impl_->tls_port; }

std::uint32_t Server::requests_in_flight() const { return impl_->in_flight.in_flight(); }

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
  if (impl_->tls_acceptor) {
    net::co_spawn(*contexts.front(),
                  accept_connections(&*impl_->tls_acceptor, Dealer(shards, &*impl_->tls)),
                  net::detached);
  }
  spdlog::debug("target server: listening on port {} (TLS: {}) with {} threads", impl_->port,
                impl_->tls_port, shards.size());
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

}  // namespace stampede::target_server
