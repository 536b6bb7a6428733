// ThreadPool: work guards keep idle contexts alive until the engine says stop.
#include "server/thread_pool.hpp"

namespace stampede::server {

ThreadPool::ThreadPool(unsigned threads) {
  for (unsigned i = 0; i < threads; ++i) {
    // One thread runs each context and its sockets are used by that thread alone, so Asio
    // needs no lock around socket I/O (2 mutex round trips per request saved); posting and
    // stopping from other threads stay locked.
    contexts_.push_back(
        std::make_unique<boost::asio::io_context>(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO));
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
