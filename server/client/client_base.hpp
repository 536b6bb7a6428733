// ClientBase: what every protocol client does alike: the exchange's deadline under the thread's
// watchdog, opening a connection within --connect-timeout, and recording a failure.
#pragma once

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string_view>

#include "server/client/classify.hpp"
#include "server/client/client.hpp"
#include "server/client/connect.hpp"

namespace stampede::client {

/// A user's client under the watchdog of its thread. Subclasses hold the connection and say how
/// to close it; an exchange runs between start_clock() and stop_clock().
class ClientBase : public Client, public Watchdog::Guarded {
 public:
  using Clock = std::chrono::steady_clock;

  ClientBase(net::any_io_executor executor, const ClientSetup& setup, Watchdog& watchdog);
  ~ClientBase() override;
  ClientBase(const ClientBase&) = delete;
  ClientBase& operator=(const ClientBase&) = delete;

  [[nodiscard]] Clock::time_point deadline() const final { return deadline_; }

  /// Past the deadline: closing the socket fails the pending operation, which then reports a
  /// timeout.
  void expire() final {
    timed_out_ = true;
    close_socket();
  }

 protected:
  /// Closes the socket under the pending operation, if a connection is open.
  virtual void close_socket() = 0;

  /// An exchange starts: it must end within the request's own timeout (a curl step's
  /// --max-time) or else -t.
  void start_clock(const PreparedRequest& request) {
    timed_out_ = false;
    const auto limit = request.timeout.count() > 0 ? request.timeout : setup_.timeout;
    deadline_ = Clock::now() + limit;
  }
  void stop_clock() { deadline_ = Clock::time_point::max(); }

  /// Opens `stream` (TCP, then TLS), within `connect_timeout` if it is set and the exchange's
  /// deadline allows; on success the response records a new connection and its connect time.
  template <class Stream>
  net::awaitable<std::optional<OpenFailure>> connect(std::optional<Stream>& stream,
                                                     model::Response& response,
                                                     std::chrono::nanoseconds connect_timeout) {
    const auto start = Clock::now();
    const auto whole = deadline_;
    if (connect_timeout.count() > 0) deadline_ = std::min(whole, start + connect_timeout);
    auto failure = co_await open_stream(stream, executor_, setup_);
    deadline_ = whole;
    if (!failure) {
      response.connect = Clock::now() - start;
      response.new_connection = true;
    }
    co_return failure;
  }

  /// -d: whether this exchange is one of the first few logged in full. A plain load first:
  /// every thread shares the counter, so the hot path must not write it.
  [[nodiscard]] bool claim_debug_slot() const {
    return setup_.debug_budget.load(std::memory_order_relaxed) > 0 &&
           setup_.debug_budget.fetch_sub(1, std::memory_order_relaxed) > 0;
  }

  /// How many bytes the next read asks for. Reads start small (1 KiB, as nginx's
  /// client_header_buffer_size), since an idle connection's buffer is memory per user and most
  /// API responses fit, and grow while reads fill the buffer (large bodies then take fewer
  /// syscalls; a user's buffer keeps its size across requests).
  [[nodiscard]] std::size_t read_size() const { return read_size_; }
  /// A read returned `n` bytes: a full one doubles the next, up to 64 KiB.
  void note_read(std::size_t n) {
    if (n == read_size_) read_size_ = std::min(read_size_ * 2, max_read_size);
  }

  /// Sets response.error (a timeout if the watchdog cut the exchange short) and logs the first
  /// failure of each kind, with `hint` if given.
  void record_failure(model::Response& response, Phase phase,
                      const boost::system::error_code& error, std::string_view hint = {});

  net::any_io_executor executor_;
  const ClientSetup& setup_;
  Watchdog& watchdog_;

 private:
  static constexpr std::size_t max_read_size = 64 * 1024;

  std::size_t read_size_ = 1024;
  Clock::time_point deadline_ = Clock::time_point::max();
  bool timed_out_ = false;
};

/// `ClientFor<Stream>` over TLS when `setup.tls` is set, else over plain TCP: the one place the
/// protocol clients' factories choose a transport.
template <template <class> class ClientFor>
std::unique_ptr<Client> make_for_transport(net::any_io_executor executor, const ClientSetup& setup,
                                           Watchdog& watchdog) {
  if (setup.tls != nullptr) {
    return std::make_unique<ClientFor<TlsStream>>(std::move(executor), setup, watchdog);
  }
  return std::make_unique<ClientFor<TcpStream>>(std::move(executor), setup, watchdog);
}

}  // namespace stampede::client
