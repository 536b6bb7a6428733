// Dispatch: idle users as a stack, waiting requests as a range of the schedule.
#include "server/pacing/dispatch.hpp"

#include <utility>

namespace stampede::server::pacing {

Dispatch::Handout Dispatch::due(std::uint64_t k) {
  if (!idle_.empty()) {
    const auto user = idle_.back();
    idle_.pop_back();
    return {Handout::To::idle_user, user};
  }
  if (started_ < cap_) return {Handout::To::new_user, started_++};
  // Requests come due in order, so the waiting ones stay one range.
  if (queue_begin_ == queue_end_) queue_begin_ = queue_end_ = k;
  ++queue_end_;
  ++capped_;
  return {Handout::To::queue, 0};
}

std::optional<std::uint64_t> Dispatch::release(std::uint32_t user) {
  if (queue_begin_ != queue_end_) return queue_begin_++;
  idle_.push_back(user);
  return std::nullopt;
}

void Dispatch::drop_waiting() {
  missed_ += waiting();
  queue_begin_ = queue_end_;
}

std::vector<std::uint32_t> Dispatch::take_idle() { return std::exchange(idle_, {}); }

}  // namespace stampede::server::pacing
