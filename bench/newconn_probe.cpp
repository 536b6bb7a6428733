// newconn_probe: a new connection per request over bare epoll, to see the kernel's floor there.
//
// Not stampede: a probe with next to no user space (one fixed GET with `Connection: close`,
// responses counted by size), so that its CPU per request is what the kernel costs for a TCP
// connection opened, used once and closed: the floor under compare.sh's "new connection per
// request" scenarios for any generator on epoll (docs/benchmarks.md, "Speed, round two").
// Each connection: socket (non-blocking), TCP_NODELAY, connect, the request once connected,
// reads until the whole response, close. SO_LINGER 0 (close with a reset, no FIN exchange and no
// TIME_WAIT at the server) is the option LINGER0=1.
//
//   g++ -O2 -std=c++20 bench/newconn_probe.cpp -o newconn_probe
//   ./newconn_probe PORT CONNECTIONS SECONDS [LINGER0]   # e.g. 8080 100 3
//
// Loopback only (127.0.0.1), bounded by SECONDS; prints requests, CPU and requests per CPU-second.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "probe_report.hpp"

namespace {

constexpr std::string_view request =
    "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";

struct Connection {
  int fd = -1;
  bool connected = false;
  std::size_t got = 0;
};

class Probe {
 public:
  Probe(int port, bool linger0) : linger0_(linger0), epoll_(epoll_create1(0)) {
    address_.sin_family = AF_INET;
    address_.sin_port = htons(static_cast<std::uint16_t>(port));
    inet_pton(AF_INET, "127.0.0.1", &address_.sin_addr);
  }

  /// The response's size, from one blocking exchange made before the clock starts (the
  /// target's responses are all alike: a fixed page, then the server's close).
  ssize_t response_size() const {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, reinterpret_cast<const sockaddr*>(&address_), sizeof address_) != 0 ||
        write(fd, request.data(), request.size()) < 0) {
      return -1;
    }
    std::array<char, 4096> buffer{};
    ssize_t total = 0;
    for (ssize_t n = 0; (n = read(fd, buffer.data(), buffer.size())) > 0;) total += n;
    close(fd);
    return total;
  }

  /// Opens `connection` anew; the request goes once connect() says it is connected, or once
  /// epoll says the socket is writable.
  bool open(Connection& connection) {
    connection = {socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), false, 0};
    const int one = 1;
    setsockopt(connection.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (linger0_) {
      const linger reset{1, 0};
      setsockopt(connection.fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    }
    const int result =
        connect(connection.fd, reinterpret_cast<const sockaddr*>(&address_), sizeof address_);
    if (result != 0 && errno != EINPROGRESS) return false;
    epoll_event event{};
    event.data.ptr = &connection;
    event.events = result == 0 ? EPOLLIN : EPOLLOUT;
    if (result == 0 && !send_request(connection)) return false;
    return epoll_ctl(epoll_, EPOLL_CTL_ADD, connection.fd, &event) == 0;
  }

  /// One readiness event; false when a connection failed.
  bool handle(Connection& connection, ssize_t size, std::uint64_t& done) {
    if (!connection.connected) {
      if (!send_request(connection)) return false;
      epoll_event event{};
      event.data.ptr = &connection;
      event.events = EPOLLIN;
      return epoll_ctl(epoll_, EPOLL_CTL_MOD, connection.fd, &event) == 0;
    }
    std::array<char, 4096> buffer{};
    const ssize_t n = read(connection.fd, buffer.data(), buffer.size());
    if (n < 0) return errno == EAGAIN;
    connection.got += static_cast<std::size_t>(n);
    if (static_cast<ssize_t>(connection.got) < size) {
      errno = ECONNRESET;  // a close before the whole response
      return n > 0;
    }
    ++done;
    close(connection.fd);
    return open(connection);
  }

  int epoll() const { return epoll_; }

 private:
  /// The request in one write, as it fits in any socket buffer.
  static bool send_request(Connection& connection) {
    connection.connected = write(connection.fd, request.data(), request.size()) > 0;
    return connection.connected;
  }

  sockaddr_in address_{};
  bool linger0_;
  int epoll_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: newconn_probe PORT CONNECTIONS SECONDS [LINGER0]\n");
    return 2;
  }
  Probe probe(std::atoi(argv[1]), argc > 4 && std::atoi(argv[4]) == 1);
  const auto count = static_cast<std::size_t>(std::atoi(argv[2]));
  const double duration = std::atof(argv[3]);
  const ssize_t size = probe.response_size();
  if (size <= 0) {
    std::perror("the first exchange");
    return 1;
  }
  std::vector<Connection> connections(count);
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  const auto start = std::chrono::steady_clock::now();
  const auto until = start + std::chrono::duration<double>(duration);
  for (auto& connection : connections) {
    if (!probe.open(connection)) {
      std::perror("connect");
      return 1;
    }
  }
  std::uint64_t done = 0;
  std::array<epoll_event, 256> events{};
  while (std::chrono::steady_clock::now() < until) {
    const int ready = epoll_wait(probe.epoll(), events.data(), events.size(), 100);
    for (int i = 0; i < ready; ++i) {
      if (!probe.handle(*static_cast<Connection*>(events[i].data.ptr), size, done)) {
        std::perror("a connection");
        return 1;
      }
    }
  }
  print_probe_report("", before, start, done);
  return 0;
}
