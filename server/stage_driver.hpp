// StageDriver: one thread's --stages, starting and stopping its users as the level moves.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <functional>
#include <vector>

#include "server/pacing/stages.hpp"
#include "server/thread_tally.hpp"

namespace stampede::server {

/// Follows the Stages on one thread: at each step of the level it sets the thread's share
/// (ThreadTally::user_limit; a user past it stops once its current request is over) and starts each
/// user under it that is not running. `spawn(driver, local)` starts the thread's user `local`
/// (the run's user local x threads + index), which calls driver.ended(local) when it is done.
/// `on_finish` counts the driver itself done, once the stages are over or the run stops.
class StageDriver {
 public:
  using SpawnUser = std::function<void(StageDriver& driver, std::uint32_t local)>;

  StageDriver(const boost::asio::any_io_executor& executor, pacing::Stages stages, unsigned threads,
              unsigned index, ThreadTally& tally, SpawnUser spawn, std::function<void()> on_finish);

  /// Moves the thread's users along the stages until their end (or -z's, or a stop).
  boost::asio::awaitable<void> run();

  /// User `local` is done; it starts again at once if the level wants it back meanwhile.
  void ended(std::uint32_t local);

  /// The run is stopping: no user starts again.
  void stop() { clock_.cancel(); }

 private:
  /// Sets the thread's share of `level` and starts the users under it that are not running.
  void follow(std::uint64_t level);
  void start(std::uint32_t local);

  pacing::Stages stages_;
  unsigned threads_;
  unsigned index_;
  ThreadTally& tally_;
  SpawnUser spawn_;
  std::function<void()> on_finish_;
  boost::asio::steady_timer clock_;
  std::vector<bool> running_;  ///< by the thread's user number, up to its share of the peak
  bool over_ = false;
};

}  // namespace stampede::server
