// `serve --max-in-flight`: how many requests the whole serve process serves at once, at most.
#pragma once

#include <atomic>
#include <cstdint>

namespace stampede::target_server {

/// The requests being served at once across every thread of one Server, and the most it may
/// serve: a request past them is refused (503) instead of served, which gives a test a server
/// of known capacity. Shared by the threads, so one atomic counter: touched twice per request,
/// and not at all without a limit.
class InFlightLimit {
 public:
  /// `most` requests at once; 0: no limit.
  explicit InFlightLimit(std::uint32_t most) : most_(most) {}
  InFlightLimit(const InFlightLimit&) = delete;
  InFlightLimit& operator=(const InFlightLimit&) = delete;

  /// Counts one more request in flight if fewer than most() are; false (and nothing counted)
  /// if most() already are. Always true without a limit.
  [[nodiscard]] bool try_enter();
  /// Ends a request that try_enter() let in.
  void leave();

  /// The requests in flight now (0 without a limit: they are not counted); any thread may read.
  [[nodiscard]] std::uint32_t in_flight() const {
    return in_flight_.load(std::memory_order_relaxed);
  }
  /// The most requests in flight at once; 0: no limit.
  [[nodiscard]] std::uint32_t most() const { return most_; }

 private:
  const std::uint32_t most_;
  std::atomic<std::uint32_t> in_flight_{0};
};

/// One request's place under an InFlightLimit, given back by release(), by being moved over,
/// or by its destruction: whichever way a request ends (answered, reset, its connection gone),
/// the place is given back exactly once.
class InFlightSlot {
 public:
  /// Holds no place, and is not admitted().
  InFlightSlot() = default;
  /// Asks `limit` for a place; nullptr: no limit, admitted.
  explicit InFlightSlot(InFlightLimit* limit);
  ~InFlightSlot() { release(); }
  InFlightSlot(InFlightSlot&& other) noexcept;
  InFlightSlot& operator=(InFlightSlot&& other) noexcept;
  InFlightSlot(const InFlightSlot&) = delete;
  InFlightSlot& operator=(const InFlightSlot&) = delete;

  /// False if the limit was full when asked: the request is to be refused.
  [[nodiscard]] bool admitted() const { return admitted_; }
  /// Gives the place back, if it holds one: the answer is out.
  void release();

 private:
  InFlightLimit* held_ = nullptr;  ///< the limit a place is held under; null once given back
  bool admitted_ = false;
};

}  // namespace stampede::target_server
