// Dashboard: the live page, its feed and its stop button over a small HTTP/1.1 server of its own
// (one request a connection; the feed's stays open, its end the connection's close).
#include "cmd/dashboard.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include <pthread.h>

#include "cmd/small_http.hpp"

namespace stampede::cmd {

namespace net = boost::asio;
using net::ip::tcp;

/// A browser reading the feed: its socket, what it has had, and the one message on its way.
struct Dashboard::Viewer {
  explicit Viewer(tcp::socket connected)
      : socket(std::move(connected)), deadline(socket.get_executor()) {}
  tcp::socket socket;
  net::steady_timer deadline;  ///< a message not taken in time drops the viewer
  std::string message;         ///< the one on its way
  std::size_t seconds = 0;     ///< the report's seconds it has had
  std::uint64_t version = 0;   ///< the data it has had (Dashboard::version_)
  std::uint64_t run = 0;       ///< whose seconds it has had (Dashboard::run_)
  bool writing = false;
  bool done = false;  ///< it has had the end, or was dropped
};

namespace {

constexpr auto as_tuple = net::as_tuple(net::use_awaitable);
/// More viewers than this are refused (503): each may hold a message.
constexpr std::size_t most_viewers = 256;
/// A viewer that takes no message for this long is dropped.
constexpr auto write_timeout = std::chrono::seconds(30);
/// How long the end of a run waits for its viewers to have the final page.
constexpr auto end_wait = std::chrono::seconds(2);

/// The feed's response head: the events follow until the connection closes.
constexpr std::string_view feed_start =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\r\n";

}  // namespace

/// What the server reads of a request.
struct Dashboard::Head {
  std::string method;
  std::string target;
  std::string host;
  std::string origin;
  std::string token;  ///< X-Stampede-Token
};

namespace {

Dashboard::Head read_head(std::istream& in) {
  Dashboard::Head head;
  std::string line;
  std::getline(in, line);
  std::istringstream first(line);
  first >> head.method >> head.target;
  while (std::getline(in, line) && line != "\r" && !line.empty()) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    value.erase(value.find_last_not_of(" \t\r") + 1);
    if (name == "host") head.host = value;
    if (name == "origin") head.origin = value;
    if (name == "x-stampede-token") head.token = value;
  }
  return head;
}

std::string text_reply(const std::string& status, const std::string& why) {
  return plain_response(status, "text/plain; charset=utf-8", why + "\n");
}

/// 128 random bits in hex: the page's token.
std::string new_token() {
  std::random_device random;
  std::string token;
  for (int i = 0; i < 4; ++i) {
    char part[9];
    std::snprintf(part, sizeof part, "%08x", random());
    token += part;
  }
  return token;
}

/// A Host the dashboard answers: an IP address or localhost, with its port. A DNS name could
/// be one an attacker points at loopback (DNS rebinding) to read the page's token.
bool own_host(const std::string& host, unsigned short port) {
  const auto colon = host.rfind(':');
  if (colon == std::string::npos || host.substr(colon + 1) != std::to_string(port)) return false;
  std::string name = host.substr(0, colon);
  if (name == "localhost") return true;
  if (name.size() >= 2 && name.front() == '[' && name.back() == ']') {
    name = name.substr(1, name.size() - 2);
  }
  boost::system::error_code error;
  net::ip::make_address(name, error);
  return !error;
}

/// The token in "/feed?token=T".
std::string query_token(const std::string& target) {
  const auto at = target.find("token=");
  if (at == std::string::npos) return "";
  return target.substr(at + 6, target.find('&', at) - at - 6);
}

}  // namespace

Dashboard::Dashboard(const std::string& address, report::PageOrigin origin)
    : acceptor_(context_), origin_(std::move(origin)), token_(new_token()) {
  listen_on(acceptor_, "--dashboard", address, 8089);
  page_ = report::live_page(origin_, token_);
  net::co_spawn(context_, accept(), net::detached);
  thread_ = std::thread([this] {
    // Named, so that its CPU shows apart (bench/dashboard_cost.sh, top -H).
    pthread_setname_np(pthread_self(), "stampede-dash");
    context_.run();
  });
}

Dashboard::~Dashboard() {
  context_.stop();
  thread_.join();
}

std::string Dashboard::url() const { return "http://" + authority_of(acceptor_) + "/"; }

void Dashboard::publish(statistics::Summary now) {
  auto copy = std::make_shared<const statistics::Summary>(std::move(now));
  net::post(context_, [this, copy] { take(*copy, false); });
}

void Dashboard::set_stop(std::function<void()> stop) {
  const std::lock_guard lock(mutex_);
  stop_ = std::move(stop);
}

void Dashboard::publish(const server::sweep::SweepResult& so_far) {
  auto copy = std::make_shared<const server::sweep::SweepResult>(so_far);
  net::post(context_, [this, copy] { sweep_ = report::sweep_data(*copy, origin_); });
}

void Dashboard::finish(const statistics::Summary& summary) {
  set_stop({});
  auto copy = std::make_shared<const statistics::Summary>(summary);
  net::post(context_, [this, copy] { take(*copy, true); });
  wait_for_delivery();
}

void Dashboard::finish(const server::sweep::SweepResult& sweep) {
  set_stop({});
  auto copy = std::make_shared<const server::sweep::SweepResult>(sweep);
  net::post(context_, [this, copy] {
    new_run();
    data_ = report::sweep_data(*copy, origin_);
    ended_with(report::html_sweep(*copy, origin_));
    show();
  });
  wait_for_delivery();
}

void Dashboard::wait_for_delivery() {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, end_wait, [this] { return delivered_; });
}

net::awaitable<void> Dashboard::accept() {
  for (;;) {
    auto [error, socket] = co_await acceptor_.async_accept(as_tuple);
    if (error == net::error::operation_aborted) co_return;
    if (!error) net::co_spawn(context_, serve(std::move(socket)), net::detached);
  }
}

/// One request: the page, the feed (the connection is then the viewer's) or the stop.
net::awaitable<void> Dashboard::serve(tcp::socket socket) {
  std::istringstream in(co_await read_request_head(socket));
  const Head head = read_head(in);
  if (head.method.empty()) co_return;
  const auto answer = answer_to(head);
  (void)co_await net::async_write(socket, net::buffer(answer), as_tuple);
  if (answer.starts_with(feed_start)) {
    viewers_.push_back(std::make_shared<Viewer>(std::move(socket)));
    feed(viewers_.back());
    co_return;
  }
  boost::system::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
}

/// The answer to a request, or the feed's start (then the connection becomes a viewer).
std::string Dashboard::answer_to(const Head& head) {
  if (!own_host(head.host, acceptor_.local_endpoint().port())) {
    return text_reply("403 Forbidden", "the dashboard answers its own address only");
  }
  if (head.method == "GET" && head.target == "/") {
    return plain_response("200 OK", "text/html; charset=utf-8", page_);
  }
  if (head.method == "GET" && head.target.starts_with("/feed")) {
    if (query_token(head.target) != token_) {
      return text_reply("403 Forbidden", "the feed needs the page's token");
    }
    if (viewers_.size() >= most_viewers) {
      return text_reply("503 Service Unavailable", "too many viewers");
    }
    return std::string(feed_start);
  }
  if (head.method == "POST" && head.target == "/stop") {
    // A page of another origin may send a POST: it cannot know the token, and its Origin says
    // where it comes from.
    if (head.token != token_ || (!head.origin.empty() && head.origin != "http://" + head.host)) {
      return text_reply("403 Forbidden", "stopping needs the page's token, from the page");
    }
    return stop_run() ? text_reply("200 OK", "stopping")
                      : text_reply("409 Conflict", "no run is under way");
  }
  return text_reply("404 Not Found", "stampede's dashboard serves GET /");
}

bool Dashboard::stop_run() {
  const std::lock_guard lock(mutex_);
  if (!stop_) return false;
  stop_();
  return true;
}

/// The run as of now, for every viewer (with a sweep's steps done, if it is a sweep's); at the
/// end with the final page.
void Dashboard::take(const statistics::Summary& summary, bool final) {
  if (summary.info.started_at != run_started_) {  // a sweep's next run: its seconds start over
    run_started_ = summary.info.started_at;
    new_run();
  }
  auto view = report::live_view(summary, origin_, !final, seconds_.size());
  data_ = sweep_.empty() ? std::move(view.data) : report::with_sweep(view.data, sweep_);
  std::move(view.seconds.begin(), view.seconds.end(), std::back_inserter(seconds_));
  if (final) ended_with(report::html_report(summary, origin_));
  show();
}

/// The seconds shown are another run's from now on: each viewer gets them from the first.
void Dashboard::new_run() {
  seconds_.clear();
  ++run_;
}

void Dashboard::ended_with(const std::string& page) {
  final_page_ = nlohmann::json(page).dump();
  ended_ = true;
}

/// What changed goes to every viewer.
void Dashboard::show() {
  ++version_;
  for (const auto& viewer : std::list(viewers_)) feed(viewer);
  note_delivery();
}

/// Sends `viewer` what it has not had, unless a message is on its way: it gets the rest once
/// that one went.
void Dashboard::feed(const std::shared_ptr<Viewer>& viewer) {
  if (viewer->writing || viewer->done || (viewer->version == version_ && !ended_)) return;
  if (version_ == 0) return;  // nothing to show yet
  if (viewer->run != run_) {  // another run's seconds: all of them
    viewer->run = run_;
    viewer->seconds = 0;
  }
  std::string& message = viewer->message;
  message = ended_ ? "event: end\ndata: {\"from\":" : "event: tick\ndata: {\"from\":";
  message += std::to_string(viewer->seconds) + ",\"seconds\":[";
  for (std::size_t i = viewer->seconds; i < seconds_.size(); ++i) {
    if (i > viewer->seconds) message += ',';
    message += seconds_[i];
  }
  message += "],\"data\":" + data_;
  if (ended_) message += ",\"page\":" + final_page_;
  message += "}\n\n";
  viewer->seconds = seconds_.size();
  viewer->version = version_;
  viewer->writing = true;
  const bool last = ended_;
  viewer->deadline.expires_after(write_timeout);
  viewer->deadline.async_wait([viewer](boost::system::error_code error) {
    if (!error) viewer->socket.close();
  });
  net::async_write(viewer->socket, net::buffer(message),
                   [this, viewer, last](boost::system::error_code error, std::size_t) {
                     viewer->deadline.cancel();
                     viewer->writing = false;
                     if (error || last) {
                       drop(viewer);
                     } else {
                       feed(viewer);  // what came while this was on its way
                     }
                   });
}

void Dashboard::drop(const std::shared_ptr<Viewer>& viewer) {
  viewer->done = true;
  boost::system::error_code ignored;
  viewer->socket.shutdown(tcp::socket::shutdown_both, ignored);
  viewer->socket.close(ignored);
  viewers_.remove(viewer);
  note_delivery();
}

/// After the end: once no viewer waits for the final page, finish() may return.
void Dashboard::note_delivery() {
  if (!ended_ || !viewers_.empty()) return;
  const std::lock_guard lock(mutex_);
  delivered_ = true;
  changed_.notify_all();
}

}  // namespace stampede::cmd
