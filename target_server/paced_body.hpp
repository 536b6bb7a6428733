// What /sse and /trickle send and when: their bodies' pieces, each made when it is due.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "target_server/routes.hpp"

namespace stampede::target_server {

/// One piece of a paced body (an event, a chunk): `head`, then `run` bytes of 'x' (from
/// filler()), then `tail`. A few dozen bytes whatever its size, so a held stream keeps none of
/// its output: the next piece is made when it is due.
class Piece {
 public:
  [[nodiscard]] std::string_view head() const { return {text_.data(), head_size_}; }
  [[nodiscard]] std::uint64_t run() const { return run_; }
  [[nodiscard]] std::string_view tail() const { return {text_.data() + head_size_, tail_size_}; }
  [[nodiscard]] std::uint64_t size() const { return head_size_ + run_ + tail_size_; }
  /// Copies its bytes from `offset` on into `out`, as many as fit; returns how many.
  std::size_t copy(std::uint64_t offset, std::span<char> out) const;

 private:
  friend class PacedBody;
  std::array<char, 64> text_{};  ///< head, then tail
  std::uint8_t head_size_ = 0;
  std::uint8_t tail_size_ = 0;
  std::uint64_t run_ = 0;
};

/// How a paced body ends once its last piece is out.
enum class Ending {
  end,    ///< as a response does: the last chunk (HTTP/1.1), END_STREAM (HTTP/2)
  stall,  ///< not at all: nothing more is sent, the connection stays open
  cut,    ///< broken off: HTTP/1.1 closes the connection, HTTP/2 resets the stream
};

/// /sse's or /trickle's body: its pieces, numbered from 0, each due a whole number of intervals
/// (its step) after the first, on a fixed schedule; a sender keeps the number of the next.
/// /sse's pieces: the opening (": stampede", its "retry:", a blank line), the events after
/// Last-Event-ID up to the count ("id: I", "data: {"seq":I}", a blank line; the data padded to
/// its size), then what its fault sends. /trickle's: its chunks of 'x'.
class PacedBody {
 public:
  /// No pieces; a stream's state before its request is known.
  PacedBody() = default;
  /// The body `route` (Page::sse or Page::trickle) asks for.
  explicit PacedBody(const Route& route);

  /// How many pieces there are.
  [[nodiscard]] std::uint64_t pieces() const;
  /// The intervals from the first piece to piece `index`: 0 for those due at once.
  [[nodiscard]] std::uint64_t step(std::uint64_t index) const;
  /// The time from the first piece to piece `index`.
  [[nodiscard]] std::chrono::milliseconds due_after(std::uint64_t index) const {
    return paced_.interval * static_cast<std::int64_t>(step(index));
  }
  /// Piece `index` (below pieces()).
  [[nodiscard]] Piece piece(std::uint64_t index) const;
  /// What comes after the last piece.
  [[nodiscard]] Ending ending() const;

 private:
  /// True if /sse's fault sends a piece of its own.
  [[nodiscard]] bool fault_piece() const;
  [[nodiscard]] Piece opening() const;
  [[nodiscard]] Piece event(std::uint64_t id) const;
  [[nodiscard]] Piece fault() const;

  Paced paced_{.count = 0};
  bool sse_ = false;
  std::uint64_t events_ = 0;  ///< /sse's events to send: those after Last-Event-ID
};

}  // namespace stampede::target_server
