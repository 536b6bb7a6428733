// The target's accept loop: connections waiting to be accepted are taken at once, busy or not.
#include "target_server/listener.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "target_server/routes.hpp"
#include "target_server/server.hpp"
#include "tests/target_server/server_thread.hpp"

namespace stampede::target_server {
namespace {

namespace net = boost::asio;
using net::ip::tcp;
using namespace std::chrono_literals;

constexpr std::string_view get_request = "GET / HTTP/1.1\r\nHost: test\r\n\r\n";

tcp::endpoint endpoint_of(unsigned short port) {
  return {net::ip::make_address("127.0.0.1"), port};
}

/// Connections completed by the kernel and not yet accepted (what `ss -ltn` shows as Recv-Q).
std::uint32_t accept_queue_length(tcp::acceptor& acceptor) {
  tcp_info info{};
  socklen_t size = sizeof(info);
  getsockopt(acceptor.native_handle(), IPPROTO_TCP, TCP_INFO, &info, &size);
  return info.tcpi_unacked;  // for a listening socket: the accept queue's length
}

/// Waits (at most 5 s) until `count` connections wait in `acceptor`'s queue.
bool wait_for_queue(tcp::acceptor& acceptor, std::uint32_t count) {
  for (int i = 0; i < 500 && accept_queue_length(acceptor) < count; ++i) {
    std::this_thread::sleep_for(10ms);
  }
  return accept_queue_length(acceptor) == count;
}

TEST(TargetListener, AcceptsEveryWaitingConnectionInOneTurn) {
  net::io_context context;
  auto acceptor = listen(context, loopback_options());
  ConnectionSet connections(60s);
  Dealer dealer({Shard{&context, &connections}});
  constexpr std::uint32_t waiting = 20;
  std::vector<tcp::socket> clients;
  for (std::uint32_t i = 0; i < waiting; ++i) {
    clients.emplace_back(context).connect(endpoint_of(acceptor.local_endpoint().port()));
  }
  ASSERT_TRUE(wait_for_queue(acceptor, waiting));
  EXPECT_EQ(accept_waiting(acceptor, dealer, 8), 8U);  // the limit holds
  EXPECT_EQ(accept_waiting(acceptor, dealer, 100), waiting - 8);
  EXPECT_EQ(accept_queue_length(acceptor), 0U);
  EXPECT_EQ(accept_waiting(acceptor, dealer, 100), 0U);  // an empty queue: would_block, no wait
}

/// Clients that keep the server busy: each connection keeps `depth` requests in flight.
struct BusyLoad {
  net::io_context context{1};
  std::atomic<std::uint64_t> responses{0};
};

/// One busy connection: `depth` requests written, then one more for each response read.
net::awaitable<void> keep_busy(tcp::socket socket, BusyLoad* load, std::size_t depth) {
  constexpr auto use_tuple = net::as_tuple(net::use_awaitable);
  const auto response_size = prebuilt(Page::hello, 200, Persistence::keep_alive).full.size();
  std::string answer(response_size, '\0');
  std::string burst;
  for (std::size_t i = 0; i < depth; ++i) burst += get_request;
  auto [error, written] = co_await net::async_write(socket, net::buffer(burst), use_tuple);
  while (!error) {
    const auto [read_error, n] = co_await net::async_read(socket, net::buffer(answer), use_tuple);
    if (read_error) break;
    load->responses.fetch_add(1, std::memory_order_relaxed);
    std::tie(error, written) =
        co_await net::async_write(socket, net::buffer(get_request), use_tuple);
  }
}

std::uint64_t total(const std::vector<std::uint64_t>& counts) {
  return std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
}

// Asio runs ready handlers first in, first out, so under load the accept loop gets a turn only
// after many busy connections have had theirs. Taking one connection a turn left thousands of
// 5,000 users unserved for seconds; a burst must be taken within a pass or two over the busy
// connections. Counted in responses served meanwhile, not in seconds.
TEST(TargetListener, AcceptsABurstWithinAPassWhileBusy) {
  constexpr std::size_t busy = 256;
  constexpr std::size_t depth = 4;
  constexpr std::size_t burst = 256;
  if (!allow_open_files(2 * (busy + burst) + 100)) GTEST_SKIP() << "needs 1,100 open files";
  ServerThread running(loopback_options());
  Server& server = running.server();
  BusyLoad load;
  for (std::size_t i = 0; i < busy; ++i) {
    tcp::socket socket(load.context);
    socket.connect(endpoint_of(server.port()));
    net::co_spawn(load.context, keep_busy(std::move(socket), &load, depth), net::detached);
  }
  std::jthread loading([&load] { load.context.run_for(30s); });
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (load.responses < 20 * busy * depth && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(1ms);  // until the server is saturated
  }

  net::io_context burst_context;
  std::vector<tcp::socket> arrivals;
  const auto taken_before = total(server.connections_per_thread());
  const auto responses_before = load.responses.load();
  for (std::size_t i = 0; i < burst; ++i) {
    arrivals.emplace_back(burst_context).connect(endpoint_of(server.port()));
  }
  // A pass serves at most busy * depth responses. Taking one connection a turn, the server
  // served about 250 busy responses per connection taken (some 60,000 for the burst); taking
  // all at once, under 3,000 for the whole burst. Past the bound the test fails at once.
  constexpr std::uint64_t allowed = 24 * busy * depth;
  const auto bound = responses_before + allowed;
  while (total(server.connections_per_thread()) < taken_before + burst && load.responses < bound &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(100us);
  }
  const auto responses_during = load.responses.load() - responses_before;
  EXPECT_EQ(total(server.connections_per_thread()), taken_before + burst)
      << "busy responses served meanwhile: " << responses_during;
  EXPECT_LT(responses_during, allowed);
  load.context.stop();
}

}  // namespace
}  // namespace stampede::target_server
