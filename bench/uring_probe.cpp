// uring_probe: HTTP/1.1 keep-alive over bare io_uring, to see the kernel's floor per request.
//
// Not stampede: a probe with next to no user space (one fixed GET, responses counted by size), so
// that its CPU per request is what the kernel costs under a given ring setup. It showed why Asio's
// io_uring backend lost on keep-alive (docs/benchmarks.md, "Speed, round two"): Asio 1.81 creates
// its ring without flags, and such a ring's completions cost twice the CPU of one set up with
// IORING_SETUP_COOP_TASKRUN or DEFER_TASKRUN.
//
//   g++ -O2 -std=c++20 bench/uring_probe.cpp -o uring_probe -luring   # liburing-dev
//   ./uring_probe PORT CONNECTIONS SECONDS [SETUP_FLAGS]   # e.g. 8080 10 3 0x100
//
// Loopback only (127.0.0.1), bounded by SECONDS; prints requests, CPU and requests per CPU-second.
#include <arpa/inet.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "probe_report.hpp"

namespace {

constexpr std::string_view request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

struct Connection {
  int fd = -1;
  std::array<char, 4096> buffer{};
  std::size_t got = 0;
};

/// A connected socket with TCP_NODELAY, as load generators set it; -1 on failure.
int connect_to(int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return -1;
  return fd;
}

/// The response's size, from one exchange made before the clock starts (the target's responses
/// are all alike: a fixed page).
ssize_t response_size(int fd) {
  if (write(fd, request.data(), request.size()) < 0) return -1;
  std::array<char, 4096> buffer{};
  return read(fd, buffer.data(), buffer.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: uring_probe PORT CONNECTIONS SECONDS [SETUP_FLAGS]\n");
    return 2;
  }
  const int port = std::atoi(argv[1]);
  const auto count = static_cast<std::size_t>(std::atoi(argv[2]));
  const double duration = std::atof(argv[3]);
  io_uring_params params{};
  params.flags = argc > 4 ? static_cast<unsigned>(std::strtoul(argv[4], nullptr, 0)) : 0;
  std::vector<Connection> connections(count);
  for (auto& connection : connections) {
    connection.fd = connect_to(port);
    if (connection.fd < 0) {
      std::perror("connect");
      return 1;
    }
  }
  const ssize_t size = response_size(connections[0].fd);
  io_uring ring{};
  if (const int error = io_uring_queue_init_params(4096, &ring, &params); error != 0) {
    std::fprintf(stderr, "io_uring_queue_init: %s\n", std::strerror(-error));
    return 1;
  }
  // user_data: the connection's index times two, plus one for a receive.
  const auto send = [&](std::size_t i) {
    auto* entry = io_uring_get_sqe(&ring);
    io_uring_prep_send(entry, connections[i].fd, request.data(), request.size(), 0);
    entry->user_data = i * 2;
  };
  const auto receive = [&](std::size_t i) {
    auto& connection = connections[i];
    auto* entry = io_uring_get_sqe(&ring);
    io_uring_prep_recv(entry, connection.fd, connection.buffer.data() + connection.got,
                       connection.buffer.size() - connection.got, 0);
    entry->user_data = i * 2 + 1;
  };
  for (std::size_t i = 0; i < count; ++i) send(i);
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  const auto start = std::chrono::steady_clock::now();
  const auto until = start + std::chrono::duration<double>(duration);
  std::uint64_t done = 0;
  while (std::chrono::steady_clock::now() < until) {
    io_uring_submit_and_wait(&ring, 1);
    io_uring_cqe* completion = nullptr;
    unsigned head = 0;
    unsigned seen = 0;
    io_uring_for_each_cqe(&ring, head, completion) {
      ++seen;
      const std::size_t i = completion->user_data / 2;
      if (completion->res <= 0) {
        std::fprintf(stderr, "connection %zu: %s\n", i,
                     completion->res == 0 ? "closed" : std::strerror(-completion->res));
        return 1;
      }
      if (completion->user_data % 2 == 0) {
        receive(i);
        continue;
      }
      auto& connection = connections[i];
      connection.got += static_cast<std::size_t>(completion->res);
      if (static_cast<ssize_t>(connection.got) < size) {
        receive(i);
        continue;
      }
      connection.got = 0;
      ++done;
      send(i);
    }
    io_uring_cq_advance(&ring, seen);
  }
  char label[32];
  std::snprintf(label, sizeof label, "setup flags %#x: ", params.flags);
  print_probe_report(label, before, start, done);
  return 0;
}
