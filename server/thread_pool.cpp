// ThreadPool: work guards keep idle contexts alive until the engine says stop.
#include "server/thread_pool.hpp"

namespace stampede::server {

ThreadPool::ThreadPool(unsigned threads) {
  for (unsigned i = 0; i < threads; ++i) {
    // Concurrency hint 1: one thread runs each context, so Asio skips some locking.
    contexts_.push_back(std::make_unique<boost::asio::io_context>(1));
    guards_.push_back(boost::asio::make_work_guard(*contexts_.back()));
  }
}

void ThreadPool::start() {
  for (auto& context : contexts_) {
    threads_.emplace_back([&context] { context->run(); });
  }
}

void ThreadPool::stop() {
  guards_.clear();
  for (auto& context : contexts_) context->stop();
  for (auto& thread : threads_) thread.join();
  threads_.clear();
}

}  // namespace stampede::server
