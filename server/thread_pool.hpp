// The engine's threads: one io_context each, so a user's whole life stays on one thread.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <memory>
#include <thread>
#include <vector>

namespace stampede::server {

/// N threads, each running its own io_context until stop().
class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads);
  ~ThreadPool() { stop(); }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// The io_context of thread `index`.
  boost::asio::io_context& context(std::size_t index) { return *contexts_[index]; }
  /// Starts the threads; work posted before this waits for them.
  void start();
  /// Stops every context (pending work is dropped) and joins the threads. Idempotent.
  void stop();

 private:
  using Guard = boost::asio::executor_work_guard<boost::asio::io_context::executor_type>;
  std::vector<std::unique_ptr<boost::asio::io_context>> contexts_;
  std::vector<Guard> guards_;
  std::vector<std::thread> threads_;
};

}  // namespace stampede::server
