// The HTTP/2 client's hold (--hold): its connection kept open after the requests by one pending
// read and an H2Idle in the place of nghttp2's session, PINGed with --ping, ended by GOAWAY.
#include <array>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_allocator.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <memory_resource>
#include <utility>

#include "server/client/connect.hpp"
#include "server/client/failure_log.hpp"
#include "server/client/http2_client.hpp"

namespace stampede::client {

namespace {

/// What finish() reads after our GOAWAY goes here, dropped: one buffer per thread serves every
/// connection. Not for the held reads: several reads complete in one pass of the reactor, each
/// into its buffer, before any handler parses what it got (see Http2Client::held_input_).
std::array<char, 4096>& scratch() {
  static thread_local std::array<char, 4096> buffer;
  return buffer;
}

}  // namespace

template <class Stream>
bool Http2Client<Stream>::hold(Clock::time_point until, std::shared_ptr<HoldOwner> owner) {
  if (!is_open()) return false;
  hand_over();
  owner_ = owner;
  hold_until_ = until;
  heard_at_ = Clock::now();
  if (idle_->server_goaway()) {  // the last response came with the server's goodbye
    held_outcome_ = end_by_server({});
    end_held(*owner);
    return true;
  }
  holding_ = true;
  arm_deadline(next_deadline());
  flush();  // what the session had left to write
  read_held(std::move(owner));
  return true;
}

template <class Stream>
net::awaitable<void> Http2Client<Stream>::finish() {
  if (!is_open() || !setup_.hold) co_return;
  hand_over();
  start_goodbye();
  // After our GOAWAY what comes is dropped until the server closes (or the goodbye's limit).
  for (bool open = true; open;) {
    const auto [error, n] = co_await stream_->async_read_some(net::buffer(scratch()), as_tuple);
    open = !error;
  }
  if (writing_) close_socket();  // the connection is over: a write under way would never end
  co_await join_writer();
  stop_clock();
  close();
}

/// The session goes, and what a held connection needs of it is kept: where it stands in the
/// server's frames and what it had to write. Buffers sized for requests go too.
template <class Stream>
void Http2Client<Stream>::hand_over() {
  if (session_) idle_.emplace(session_->hand_over());
  session_.reset();
  std::vector<char>().swap(read_buffer_);
}

/// The hold's end (the watchdog at `until`, or the stopping run): GOAWAY goes out beside the
/// pending read, which then waits for the server to close.
template <class Stream>
bool Http2Client<Stream>::say_goodbye() {
  if (!holding_) return false;
  start_goodbye();
  return true;
}

template <class Stream>
bool Http2Client<Stream>::ping_if_due() {
  if (!holding_ || Clock::now() >= hold_until_) return false;
  if (idle_->ping_unanswered()) {
    holding_ = false;  // lost: no goodbye, the read is cut short as a timeout
    return false;
  }
  idle_->ping();
  pinged_at_ = Clock::now();
  arm_deadline(next_deadline());
  flush();
  return true;
}

template <class Stream>
void Http2Client<Stream>::start_goodbye() {
  holding_ = false;
  said_goodbye_ = true;
  arm_goodbye_deadline();
  idle_->goodbye();
  flush();
}

/// While held, the deadline is the hold's end or, with --ping, the next PING (the interval
/// after the last bytes read) or the one sent's limit for its ACK, whichever comes first.
template <class Stream>
ClientBase::Clock::time_point Http2Client<Stream>::next_deadline() const {
  if (setup_.ping_interval.count() == 0) return hold_until_;
  const auto since = idle_->ping_unanswered() ? pinged_at_ : heard_at_;
  return std::min(hold_until_,
                  since + std::chrono::duration_cast<Clock::duration>(setup_.ping_interval));
}

/// The held connection's next bytes, into its own small buffer. The read's operation is allocated
/// at its own size: from Asio's per-thread cache it would keep whatever block came first, such as a
/// request's, for as long as the connection is held. Its handler keeps `owner`, and so this client,
/// alive.
template <class Stream>
void Http2Client<Stream>::read_held(std::shared_ptr<HoldOwner> owner) {
  const std::pmr::polymorphic_allocator<std::byte> exact(std::pmr::new_delete_resource());
  stream_->async_read_some(
      net::buffer(held_input_),
      net::bind_allocator(
          exact, [this, owner = std::move(owner)](const boost::system::error_code& error,
                                                  std::size_t n) { on_held(error, n, owner); }));
}

template <class Stream>
void Http2Client<Stream>::on_held(const boost::system::error_code& error, std::size_t n,
                                  const std::shared_ptr<HoldOwner>& owner) {
  const auto ended = held_read(error, held_input_.data(), n);
  if (!ended) {
    read_held(owner);
    return;
  }
  held_outcome_ = *ended;
  holding_ = false;
  hold_over_ = true;
  if (!writing_) {
    end_held(*owner);
    return;
  }
  close_socket();  // the write under way would never end: write_pending() ends the hold
}

/// Takes one read of a held connection: how the connection ended, or nothing while it goes
/// on. After our GOAWAY what comes is dropped until the server closes.
template <class Stream>
std::optional<model::ErrorKind> Http2Client<Stream>::held_read(
    const boost::system::error_code& error, const char* data, std::size_t n) {
  if (said_goodbye_) {
    if (error) return model::ErrorKind::none;
    return std::nullopt;
  }
  if (error == net::error::eof || error == net::ssl::error::stream_truncated) {
    return end_by_server(error);
  }
  if (error) {  // a timeout if the watchdog cut it short: ping_if_due() stopped the hold
    return failure(Phase::read, error,
                   holding_ ? "" : "a held connection's PING had no ACK within --ping's interval");
  }
  if (!idle_->input(data, n)) return failure(Phase::read, idle_->error());
  if (idle_->server_goaway()) return end_by_server({});
  heard_at_ = Clock::now();
  arm_deadline(next_deadline());
  flush();  // the answers: SETTINGS and PING ACKs
  return std::nullopt;
}

/// The server ended the held connection (GOAWAY, or closing it: `error`): `closed`, as a
/// WebSocket server's close frame is.
template <class Stream>
model::ErrorKind Http2Client<Stream>::end_by_server(const boost::system::error_code& error) {
  log_first_failure(setup_, model::ErrorKind::closed, error,
                    error ? "the server closed a held HTTP/2 connection"
                          : "the server sent GOAWAY on a held HTTP/2 connection");
  return model::ErrorKind::closed;
}

template <class Stream>
void Http2Client<Stream>::end_held(HoldOwner& owner) {
  hold_over_ = false;
  owner_.reset();
  stop_clock();
  close();
  owner.hold_ended(*this, held_outcome_);
}

/// Starts writing what the held connection has to send, unless a write is under way (it goes
/// on until nothing more is queued): frames go out beside the pending read.
template <class Stream>
void Http2Client<Stream>::flush() {
  if (writing_ || !idle_->has_output()) return;
  writing_ = true;
  net::co_spawn(executor_, write_pending(owner_.lock()), net::detached);
}

/// `owner`: the hold's (none in finish()), kept alive with this client until the write ends.
template <class Stream>
net::awaitable<void> Http2Client<Stream>::write_pending(std::shared_ptr<HoldOwner> owner) {
  boost::system::error_code error;
  while (!error && idle_->has_output()) {
    const auto output = idle_->take_output();
    const auto [write_error, written] =
        co_await net::async_write(*stream_, net::buffer(output), as_tuple);
    error = write_error;
  }
  // After our GOAWAY, the end of our side tells the server to close too (no TLS close_notify:
  // nothing waits for one); a failed write ends the connection, and the pending read with it.
  boost::system::error_code ignored;
  if (error) {
    close_socket();
  } else if (said_goodbye_) {
    tcp_socket(*stream_).shutdown(net::socket_base::shutdown_send, ignored);
  }
  writing_ = false;
  if (joiner_ != nullptr) joiner_->cancel();
  if (owner && hold_over_) end_held(*owner);
}

/// Waits for write_pending() to end, if it runs: the connection must outlive it.
template <class Stream>
net::awaitable<void> Http2Client<Stream>::join_writer() {
  if (!writing_) co_return;
  net::steady_timer joiner(executor_, Clock::time_point::max());
  joiner_ = &joiner;
  co_await joiner.async_wait(as_tuple);
  joiner_ = nullptr;
}

// The class is instantiated in http2_client.cpp, with the members defined there; these are the
// hold's entry points (what they call is instantiated with them).
template bool Http2Client<TcpStream>::hold(ClientBase::Clock::time_point,
                                           std::shared_ptr<HoldOwner>);
template bool Http2Client<TlsSocket>::hold(ClientBase::Clock::time_point,
                                           std::shared_ptr<HoldOwner>);
template net::awaitable<void> Http2Client<TcpStream>::finish();
template net::awaitable<void> Http2Client<TlsSocket>::finish();
template bool Http2Client<TcpStream>::say_goodbye();
template bool Http2Client<TlsSocket>::say_goodbye();
template bool Http2Client<TcpStream>::ping_if_due();
template bool Http2Client<TlsSocket>::ping_if_due();

}  // namespace stampede::client
