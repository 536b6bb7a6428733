// An HTTP/1.1 connection's paced bodies (/sse, /trickle), chunk by chunk when due: for
// connection.cpp alone.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <variant>

#include <boost/asio/experimental/awaitable_operators.hpp>

#include "target_server/connection_io.hpp"
#include "target_server/paced_body.hpp"

namespace stampede::target_server::connection_io {

/// The end of a chunked body.
inline constexpr std::string_view last_chunk = "0\r\n\r\n";

/// Waits until `due`, the wait counting as activity for the idle sweep. Reads meanwhile (a
/// request pipelined behind the stream is kept for later), so that a client that leaves ends
/// the wait, and the connection, at once: no timer is left holding it. False if it left.
template <class Stream>
net::awaitable<bool> wait_until(Connection<Stream>* c, Clock::time_point due) {
  using namespace net::experimental::awaitable_operators;  // NOLINT(google-build-using-namespace)
  c->entry.deadline = c->connections->idle_deadline(due);
  c->pause.expires_at(due);
  while (make_room(*c)) {
    const auto room = net::buffer(c->input.data() + c->end, c->input.size() - c->end);
    const auto first =
        co_await (c->pause.async_wait(use_tuple) || c->stream.async_read_some(room, use_tuple));
    if (first.index() == 0) co_return true;
    const auto [ec, received] = std::get<1>(first);
    if (ec) co_return false;
    c->end += received;
  }
  // The input is full: the client has to read this stream to the end before it sends more.
  const auto [ec] = co_await c->pause.async_wait(use_tuple);
  co_return !ec;
}

/// Writes `piece` as one chunk: its size line, its text and its run of 'x' from filler(), a
/// filler block a write.
template <class Stream>
net::awaitable<bool> send_piece(Connection<Stream>* c, Piece piece) {
  constexpr std::size_t buffers = 5;  // the most this queues before a write
  if (c->pending_count + buffers > max_pending) {
    const auto [ec, written] = co_await write_pending(*c);
    if (ec) co_return false;
  }
  std::array<char, 24> size_line{};
  auto* end = std::to_chars(size_line.data(), size_line.data() + 20, piece.size(), 16).ptr;
  *end++ = '\r';
  *end++ = '\n';
  queue(*c, std::string_view(size_line.data(), end));
  queue(*c, piece.head());
  const auto block = filler();
  for (auto left = piece.run(); left > 0;) {
    const auto slice = std::min<std::uint64_t>(left, block.size());
    queue(*c, std::string_view(block.data(), slice));
    left -= slice;
    c->touch();
    const auto [ec, written] = co_await write_pending(*c);
    if (ec) co_return false;
  }
  queue(*c, piece.tail());
  queue(*c, "\r\n");
  c->touch();
  const auto [ec, written] = co_await write_pending(*c);
  co_return !ec;
}

/// Keeps a stalled stream's connection open and silent until the client leaves or the idle
/// sweep closes it: what the client sends meanwhile is dropped, and is not activity.
template <class Stream>
net::awaitable<void> stall(Connection<Stream>* c) {
  for (;;) {
    const auto [ec, received] =
        co_await c->stream.async_read_some(net::buffer(c->input), use_tuple);
    if (ec) co_return;
  }
}

/// Sends /sse or /trickle: its head (with the queued answers), each piece when due on a fixed
/// schedule from the first (a late write does not delay the next), then its ending: the last
/// chunk is queued, or the connection stalls, or it is cut. False if the connection is to end
/// (the client left, a write failed, a stall or a cut).
template <class Stream>
net::awaitable<bool> send_paced(Connection<Stream>* c, Route route, bool head_only,
                                Persistence persistence) {
  if (c->pending_count + 2 > max_pending) {  // the head, and the last chunk of an empty body
    const auto [ec, written] = co_await write_pending(*c);
    if (ec) co_return false;
  }
  queue(*c, prebuilt(route.page, route.status, persistence).head);
  if (head_only) co_return true;
  const PacedBody body(route);
  const auto start = Clock::now();
  for (std::uint64_t index = 0; index < body.pieces(); ++index) {
    const auto due = start + body.due_after(index);
    if (due > Clock::now()) {
      if (const bool ok = co_await wait_until(c, due); !ok) co_return false;
    }
    if (const bool ok = co_await send_piece(c, body.piece(index)); !ok) co_return false;
  }
  switch (body.ending()) {
    case Ending::end:
      queue(*c, last_chunk);
      co_return true;
    case Ending::stall:
      co_await stall(c);
      break;
    case Ending::cut:
      break;  // closing the connection without the last chunk
  }
  co_return false;
}

}  // namespace stampede::target_server::connection_io
