// `serve --max-in-flight`: the process-wide count of requests being served, and each one's place.
#include "target_server/admission.hpp"

#include <utility>

namespace stampede::target_server {

bool InFlightLimit::try_enter() {
  if (most_ == 0) return true;
  // A compare-exchange rather than add-then-undo: an add past the limit, even undone at once,
  // would make a request entering meanwhile see the limit full while it is not.
  auto now = in_flight_.load(std::memory_order_relaxed);
  do {
    if (now >= most_) return false;
  } while (!in_flight_.compare_exchange_weak(now, now + 1, std::memory_order_relaxed));
  return true;
}

void InFlightLimit::leave() {
  if (most_ == 0) return;
  in_flight_.fetch_sub(1, std::memory_order_relaxed);
}

InFlightSlot::InFlightSlot(InFlightLimit* limit)
    : held_(limit), admitted_(limit == nullptr || limit->try_enter()) {
  if (!admitted_) held_ = nullptr;
}

InFlightSlot::InFlightSlot(InFlightSlot&& other) noexcept
    : held_(std::exchange(other.held_, nullptr)), admitted_(other.admitted_) {}

InFlightSlot& InFlightSlot::operator=(InFlightSlot&& other) noexcept {
  if (this != &other) {
    release();
    held_ = std::exchange(other.held_, nullptr);
    admitted_ = other.admitted_;
  }
  return *this;
}

void InFlightSlot::release() {
  if (held_ != nullptr) std::exchange(held_, nullptr)->leave();
}

}  // namespace stampede::target_server
