// Dashboard: --dashboard ADDR, the run drawn live in a browser while it goes.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "report/html_report.hpp"
#include "server/statistics/summary.hpp"
#include "server/sweep/sweep_result.hpp"

namespace stampede::cmd {

/// Serves, on a thread of its own, the report's page in live mode (`GET /`), the run as
/// Server-Sent Events (`GET /feed`: each second what changed, at the end the final page) and a
/// stop button (`POST /stop`, as Ctrl-C). The run never waits for a viewer: each viewer has at
/// most one message on its way, and one that falls behind gets, when it can take more, all it
/// missed in one message (so a stalled viewer holds one message, never a queue).
/// Cross-site requests are refused: the feed and the stop need the page's token, the stop an
/// Origin that is the dashboard's own (when sent), every request a Host that names an address
/// (no DNS name, which could be rebound to loopback).
class Dashboard {
 public:
  /// Listens on `address` (as --prometheus: "127.0.0.1:8089", "[::1]:8089", ":8089"); throws
  /// UsageError for one it cannot read or bind, before any load.
  Dashboard(const std::string& address, report::PageOrigin origin);
  Dashboard(const Dashboard&) = delete;
  Dashboard& operator=(const Dashboard&) = delete;
  /// Stops serving; viewers are cut.
  ~Dashboard();

  /// The page's address: `http://127.0.0.1:8089/`.
  [[nodiscard]] std::string url() const;
  /// The run as it stands (from the tick handler): viewers get it soon.
  void publish(statistics::Summary now);
  /// What the stop button does while a run goes (empty: the button is refused as too early or
  /// too late). Thread-safe.
  void set_stop(std::function<void()> stop);
  /// A sweep's steps so far (after each step): shown beside the step under way.
  void publish(const server::sweep::SweepResult& so_far);
  /// The run (or the sweep) ended: each viewer gets the final page; waits until they have it,
  /// 2 s at most.
  void finish(const statistics::Summary& summary);
  void finish(const server::sweep::SweepResult& sweep);

  struct Viewer;
  struct Head;

 private:
  boost::asio::awaitable<void> accept();
  boost::asio::awaitable<void> serve(boost::asio::ip::tcp::socket socket);
  std::string answer_to(const Head& head);
  void take(const statistics::Summary& summary, bool final);
  void new_run();
  void ended_with(const std::string& page);
  void show();
  void wait_for_delivery();
  void feed(const std::shared_ptr<Viewer>& viewer);
  void drop(const std::shared_ptr<Viewer>& viewer);
  void note_delivery();
  bool stop_run();

  boost::asio::io_context context_{1};
  boost::asio::ip::tcp::acceptor acceptor_;
  report::PageOrigin origin_;
  std::string token_;
  std::string page_;  ///< the live page, made once
  // The dashboard's thread alone touches these.
  std::string data_;                  ///< the page's data as of the last second
  std::vector<std::string> seconds_;  ///< the report's seconds so far, each a JSON object
  std::uint64_t version_ = 0;         ///< data_'s: one more each second
  std::uint64_t run_ = 0;             ///< seconds_'s run: one more each run of a sweep
  std::chrono::system_clock::time_point run_started_{};  ///< that run's start
  std::string sweep_;       ///< a sweep's steps so far (report::sweep_data()); empty: not a sweep
  std::string final_page_;  ///< at the end: the --html page, as a JSON string
  bool ended_ = false;      ///< the run ended: viewers get the final page
  std::list<std::shared_ptr<Viewer>> viewers_;
  // Shared with the other threads.
  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> stop_;
  bool delivered_ = false;  ///< after the end, no viewer waits for the final page
  std::thread thread_;
};

}  // namespace stampede::cmd
