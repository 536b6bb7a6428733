// Dispatch: which of a thread's users starts each request of a --rate schedule, with -c as the cap.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace stampede::server::pacing {

/// The bookkeeping of an open model, without clocks or sockets: requests come due on a schedule
/// whatever the responses, and each goes to a user that is free. The user freed last goes
/// first (a stack), so a fast server is served by few users and so few connections; a new user
/// starts only when every started one is busy, up to the cap. With every user busy and the cap
/// reached, a due request waits its turn (it is `capped`): the next user to finish starts it at
/// once, and its latency still counts from when it was due.
class Dispatch {
 public:
  /// Who starts a due request.
  struct Handout {
    enum class To : unsigned char { idle_user, new_user, queue } to;
    std::uint32_t user = 0;  ///< idle_user, new_user: the user's number on its thread
  };

  /// `cap`: the thread's users (its share of -c).
  explicit Dispatch(std::uint32_t cap) : cap_(cap) {}

  /// Request `k` of the schedule came due.
  Handout due(std::uint64_t k);
  /// User `user` is done with its request: the waiting request it starts at once, else nothing
  /// (it waits, idle, for the next).
  std::optional<std::uint64_t> release(std::uint32_t user);
  /// The schedule's window is over: the requests still waiting will not start (`missed`).
  void drop_waiting();
  /// Takes the idle users out, for the engine to end them (the schedule is over).
  std::vector<std::uint32_t> take_idle();

  [[nodiscard]] std::uint32_t started() const { return started_; }
  [[nodiscard]] std::uint32_t cap() const { return cap_; }
  [[nodiscard]] std::uint64_t waiting() const { return queue_end_ - queue_begin_; }
  /// Requests that came due with every user busy and the cap reached.
  [[nodiscard]] std::uint64_t capped() const { return capped_; }
  /// Requests that were still waiting when the window closed.
  [[nodiscard]] std::uint64_t missed() const { return missed_; }

 private:
  std::uint32_t cap_;
  std::uint32_t started_ = 0;
  std::vector<std::uint32_t> idle_;  // a stack: the user freed last on top
  // The waiting requests are consecutive numbers of the schedule: [queue_begin_, queue_end_).
  std::uint64_t queue_begin_ = 0;
  std::uint64_t queue_end_ = 0;
  std::uint64_t capped_ = 0;
  std::uint64_t missed_ = 0;
};

}  // namespace stampede::server::pacing
