// connect_socket(): --source-ips addresses bound in turn, a source that cannot be bound, and
// TCP_NODELAY on what it connects.
#include "server/client/connect.hpp"

#include <gtest/gtest.h>
#include <netinet/tcp.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <fstream>
#include <list>
#include <sstream>

namespace stampede::client {
namespace {

namespace ip = net::ip;

/// Connects `count` sockets of `setup` one after the other, keeping them open in `sockets`.
net::awaitable<void> connect_all(const ClientSetup* setup, int count, std::list<TcpStream>* sockets,
                                 std::vector<boost::system::error_code>* errors) {
  const auto executor = co_await net::this_coro::executor;
  for (int i = 0; i < count; ++i) {
    auto& socket = sockets->emplace_back(executor);
    const auto failure = co_await connect_socket(socket, *setup);
    errors->push_back(failure ? failure->error : boost::system::error_code());
  }
}

/// A listener on 127.0.0.1 and a setup pointing at it.
struct Loopback {
  Loopback() : acceptor(context, {ip::make_address("127.0.0.1"), 0}) {
    setup.endpoints = {acceptor.local_endpoint()};
  }
  std::vector<boost::system::error_code> connect(int count) {
    net::co_spawn(context, connect_all(&setup, count, &sockets, &errors), net::detached);
    context.run();
    context.restart();
    return errors;
  }
  /// The source addresses of the connections waiting to be accepted, in their order.
  std::vector<std::string> accepted_from(int count) {
    std::vector<std::string> from;
    for (int i = 0; i < count; ++i)
      from.push_back(acceptor.accept().remote_endpoint().address().to_string());
    return from;
  }

  net::io_context context;
  ip::tcp::acceptor acceptor;
  ClientSetup setup;
  std::list<TcpStream> sockets;
  std::vector<boost::system::error_code> errors;
};

TEST(ConnectSocket, EachConnectionBindsTheNextSourceAddress) {
  Loopback loopback;
  loopback.setup.sources = {ip::make_address("127.0.0.2"), ip::make_address("127.0.0.3")};
  const auto errors = loopback.connect(4);
  for (const auto& error : errors) EXPECT_FALSE(error) << error.message();
  EXPECT_EQ(loopback.accepted_from(4),
            (std::vector<std::string>{"127.0.0.2", "127.0.0.3", "127.0.0.2", "127.0.0.3"}));
  // The port is left to connect(), so each source address has a port range per server.
  int no_port = 0;
  socklen_t size = sizeof no_port;
  ASSERT_EQ(getsockopt(loopback.sockets.front().native_handle(), IPPROTO_IP,
                       IP_BIND_ADDRESS_NO_PORT, &no_port, &size),
            0);
  EXPECT_EQ(no_port, 1);
}

TEST(ConnectSocket, WithoutSourcesTheKernelPicks) {
  Loopback loopback;
  EXPECT_FALSE(loopback.connect(1).front());
  EXPECT_EQ(loopback.accepted_from(1), (std::vector<std::string>{"127.0.0.1"}));
}

TEST(ConnectSocket, AConnectedSocketSendsWithoutNagleDelay) {
  Loopback loopback;  // every client (HTTP/1.1, TLS, HTTP/2, WebSocket) relies on it being set
  ASSERT_FALSE(loopback.connect(1).front());
  int no_delay = 0;
  socklen_t size = sizeof no_delay;
  ASSERT_EQ(getsockopt(loopback.sockets.front().native_handle(), IPPROTO_TCP, TCP_NODELAY,
                       &no_delay, &size),
            0);
  EXPECT_EQ(no_delay, 1);
}

TEST(ConnectSocket, AnAddressOfAnotherMachineFailsToBindAndIsNamedOnce) {
  std::ifstream nonlocal("/proc/sys/net/ipv4/ip_nonlocal_bind");
  int allowed = 0;
  nonlocal >> allowed;
  if (allowed != 0) GTEST_SKIP() << "ip_nonlocal_bind lets any address bind";
  std::ostringstream log;
  const auto previous = spdlog::default_logger();
  const auto capture = std::make_shared<spdlog::logger>(
      "test", std::make_shared<spdlog::sinks::ostream_sink_st>(log));
  capture->set_pattern("%v");
  spdlog::set_default_logger(capture);
  Loopback loopback;
  loopback.setup.sources = {ip::make_address("192.0.2.1")};  // TEST-NET-1 (RFC 5737)
  const auto errors = loopback.connect(2);
  spdlog::set_default_logger(previous);
  for (const auto& error : errors) {
    EXPECT_EQ(error, boost::system::errc::address_not_available) << error.message();
  }
  EXPECT_EQ(log.str(),
            "first connect failure: Cannot assign requested address (binding source address "
            "192.0.2.1 of --source-ips: is it an address of this machine?)\n");
}

TEST(ConnectSocket, AnEndpointOfAnotherFamilyIsSkipped) {
  Loopback loopback;
  loopback.setup.sources = {ip::make_address("::1")};
  EXPECT_EQ(loopback.connect(1).front(), net::error::address_family_not_supported);
}

}  // namespace
}  // namespace stampede::client
