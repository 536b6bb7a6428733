// The target server's HTTP/2 connections: a reader feeding H2Server, a writer while it has
// output, a timer for the delayed and paced streams; all on the socket's thread, sharing one
// state.
#include "target_server/h2_connection.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <string>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "target_server/connection_io.hpp"

namespace stampede::target_server {
namespace {

namespace net = boost::asio;
using boost::system::error_code;
using connection_io::socket_of;
using net::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

/// Read room: a whole frame at the default SETTINGS_MAX_FRAME_SIZE, and its header.
constexpr std::size_t input_capacity = std::size_t{16} * 1024 + 9;

/// One HTTP/2 connection. Its coroutines (the reader always; the writer while there is output;
/// the delay timer while a stream waits) each hold it, so it lives until the last one ends.
template <class Stream>
class H2Connection : public std::enable_shared_from_this<H2Connection<Stream>> {
 public:
  using Pointer = std::shared_ptr<H2Connection>;

  H2Connection(Stream stream, ConnectionSet* connections)
      : stream_(std::move(stream)),
        session_(connections->max_streams(), connections->in_flight()),
        timer_(stream_.get_executor()),
        connections_(connections) {
    entry_.socket = &socket_of(stream_);
    touch();
    connections_->rejoin(entry_);
  }
  ~H2Connection() { connections_->leave(entry_); }
  H2Connection(const H2Connection&) = delete;
  H2Connection& operator=(const H2Connection&) = delete;

  /// Answers stream 1 of an upgrade, feeds what was read already, then reads on.
  void start(std::string_view received, const H2cUpgrade* upgrade) {
    if (upgrade != nullptr) session_.upgrade(*upgrade);
    feed(received.data(), received.size());  // also starts what the upgrade's stream 1 asks
    net::co_spawn(stream_.get_executor(), read_frames(this->shared_from_this()), net::detached);
  }

 private:
  /// Moves the idle deadline forward: something just happened. Never before the last delayed
  /// stream's answer is due.
  void touch() {
    entry_.deadline = std::max(connections_->idle_deadline(Clock::now()), hold_until_);
  }

  /// Hands bytes read to the session, then starts what they call for: writing, timers.
  bool feed(const char* data, std::size_t size) {
    const bool ok = session_.input(data, size);
    const auto now = Clock::now();
    for (const auto& delayed : session_.take_delayed()) wait_for(delayed, now);
    flush();
    return ok;
  }

  /// Starts the writer if the session has output and no writer runs.
  void flush() {
    if (writing_ || closed_ || !session_.wants_write()) return;
    writing_ = true;
    net::co_spawn(stream_.get_executor(), write_output(this->shared_from_this()), net::detached);
  }

  /// Resumes the stream `delayed.delay` after `from`.
  void wait_for(const DelayedStream& delayed, Clock::time_point from) {
    const auto due = from + delayed.delay;
    hold_until_ = std::max(hold_until_, connections_->idle_deadline(due));
    touch();
    const bool sooner = due_.empty() || due < due_.begin()->first;
    due_.emplace(due, delayed.stream_id);
    if (!delaying_) {
      delaying_ = true;
      net::co_spawn(stream_.get_executor(), answer_delayed(this->shared_from_this()),
                    net::detached);
    } else if (sooner) {
      timer_.expires_at(due);  // the timer's wait ends (aborted): it waits again for this one
    }
  }

  /// No more reading: the writer ends the connection once its output is out, or we do now.
  void stop_reading() {
    reading_ = false;
    if (!writing_) close();
  }

  void close() {
    closed_ = true;
    timer_.cancel();
    error_code ignored;
    socket_of(stream_).close(ignored);
  }

  static net::awaitable<void> read_frames(Pointer self) {
    while (!self->session_.finished()) {
      const auto [ec, size] =
          co_await self->stream_.async_read_some(net::buffer(self->input_), use_tuple);
      if (ec) break;
      self->touch();
      if (!self->feed(self->input_.data(), size)) break;
    }
    self->stop_reading();
  }

  static net::awaitable<void> write_output(Pointer self) {
    for (auto out = self->session_.output(); !out.empty() && !self->closed_;
         out = self->session_.output()) {
      self->touch();  // a slow reader of a large body is not idle while it makes progress
      const auto [ec, written] =
          co_await net::async_write(self->stream_, net::buffer(out), use_tuple);
      if (ec) self->close();
    }
    self->writing_ = false;
    if (!self->reading_ && !self->closed_) self->close();
  }

  static net::awaitable<void> answer_delayed(Pointer self) {
    while (!self->due_.empty() && !self->closed_) {
      self->timer_.expires_at(self->due_.begin()->first);
      // Expired, or moved sooner by wait_for() (aborted): either way, answer what is due.
      co_await self->timer_.async_wait(use_tuple);
      const auto now = Clock::now();
      while (!self->closed_ && !self->due_.empty() && self->due_.begin()->first <= now) {
        const auto [due, stream_id] = *self->due_.begin();
        self->due_.erase(self->due_.begin());
        self->session_.resume(stream_id);
        // A paced stream's next pieces: counted from when these were due, not from now.
        for (const auto& next : self->session_.take_delayed()) self->wait_for(next, due);
      }
      self->flush();
    }
    self->delaying_ = false;
  }

  Stream stream_;
  H2Server session_;
  net::steady_timer timer_;  ///< until the first of due_
  ConnectionSet* connections_;
  ConnectionSet::Entry entry_;
  std::multimap<Clock::time_point, std::int32_t> due_;  ///< delayed streams by due time
  Clock::time_point hold_until_{};
  bool reading_ = true;
  bool writing_ = false;
  bool delaying_ = false;
  bool closed_ = false;
  std::array<char, input_capacity> input_;
};

}  // namespace

void serve_h2(tcp::socket socket, ConnectionSet* connections, std::string_view received,
              const H2cUpgrade* upgrade) {
  std::make_shared<H2Connection<tcp::socket>>(std::move(socket), connections)
      ->start(received, upgrade);
}

void serve_h2(TlsStream stream, ConnectionSet* connections) {
  std::make_shared<H2Connection<TlsStream>>(std::move(stream), connections)->start({}, nullptr);
}

}  // namespace stampede::target_server
