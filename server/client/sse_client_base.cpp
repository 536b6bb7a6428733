// SseClientBase: an event stream's exchanges, events and reconnects, over any transport.
#include "server/client/sse_client_base.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <charconv>
#include <utility>

#include "model/http_syntax.hpp"
#include "server/client/failure_log.hpp"

namespace stampede::client {

namespace {

/// The id as a number, when it is one (ids say how many events a reconnect lost only then).
std::optional<std::uint64_t> numeric_id(std::string_view id) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), value);
  if (id.empty() || error != std::errc{} || end != id.data() + id.size()) return std::nullopt;
  return value;
}

}  // namespace

bool is_event_stream(const model::Response& head) {
  constexpr std::string_view type = "text/event-stream";
  for (const auto& [name, value] : head.headers) {
    if (name == "content-type" && value.size() >= type.size() &&
        model::same_field_name(std::string_view(value).substr(0, type.size()), type)) {
      return true;
    }
  }
  return false;
}

/// The stream's next event: from what was read already, or read now. A stream the server ended
/// ends the exchange with no event, or with --reconnect is opened again, after the delay its
/// `retry:` asked for.
net::awaitable<void> SseClientBase::exchange(const PreparedRequest& request,
                                             model::Response& response) {
  begin_exchange(request, response);
  const auto timeout_at = deadline();
  if (thread_.window_end < timeout_at) arm_deadline(thread_.window_end);
  waiting_ = true;
  while (response.error == model::ErrorKind::none && !cut_) {
    if (!streaming_) {
      co_await open_stream(request, response);
      continue;
    }
    if (next_event(response)) break;
    if (server_ended()) {
      end_stream(response);
      if (!setup_.reconnect || response.error != model::ErrorKind::none) break;
      co_await wait_to_reconnect(response);
      continue;
    }
    const auto error = co_await read_more(response);
    if (error && !cut_) record_failure(response, Phase::read, error);
  }
  waiting_ = false;
  if (std::exchange(cut_, false)) {
    response.error = model::ErrorKind::none;
    response.cut_short = true;
    close();
  }
  // An event that came past -z's end, before the watchdog looked, is still an event.
  if (deadline() < timeout_at && response.error == model::ErrorKind::none) {
    arm_deadline(timeout_at);
  }
  end_exchange(request, response);
}

bool SseClientBase::accept(int status, bool event_stream, const PreparedRequest& request,
                           model::Response& response) {
  response.status = status;
  if (status != 200 || !event_stream) {
    response.error = model::ErrorKind::handshake;
    log_first_failure(
        setup_, response.error, {},
        "the server answered " + std::to_string(status) + " without a text/event-stream");
    return false;
  }
  status_ = status;
  resumed_from_ = numeric_id(sse_.last_event_id());
  sse_.restart(request.max_message);
  streaming_ = true;
  first_ = true;
  response.stream_opened = true;
  return true;
}

/// -z's end: the wait for an event ends as the stopping run's does.
bool SseClientBase::say_goodbye() {
  if (!waiting_ || Clock::now() < thread_.window_end) return false;
  cut_short();
  return true;
}

void SseClientBase::cut_short() {
  if (!waiting_) return;
  cut_ = true;
  close_socket();
}

void SseClientBase::close_socket() {
  interrupt();
  if (retry_timer_ != nullptr) retry_timer_->cancel();
}

/// The next event of what was read, into `response`; true when there was one, or a fault that
/// fails the exchange.
bool SseClientBase::next_event(model::Response& response) {
  auto& body = unparsed();
  while (!body.empty()) {
    const auto used = sse_.put(body);
    body.erase(0, used);
    if (const auto event = sse_.event()) {
      deliver(*event, response);
      return true;
    }
    if (sse_.fault() != SseFault::none) {
      const bool too_long = sse_.fault() == SseFault::too_long;
      response.error = too_long ? model::ErrorKind::too_big : model::ErrorKind::protocol;
      log_first_failure(setup_, response.error, {},
                        too_long ? "an event stream's line was over --max-message"
                                 : "an event's data was not UTF-8");
      return true;
    }
    if (used == 0) return false;
  }
  return false;
}

void SseClientBase::deliver(std::string_view data, model::Response& response) {
  response.status = status_;
  response.body_bytes = data.size();
  if (setup_.keep_body) response.body.assign(data);
  response.keep_alive = true;
  response.stream_event = first_ ? model::StreamEvent::first : model::StreamEvent::next;
  if (!std::exchange(first_, false)) return;
  response.first_event = Clock::now() - opened_at_;
  const auto id = numeric_id(sse_.last_event_id());
  if (resumed_from_ && id && *id > *resumed_from_ + 1) {
    response.events_lost = static_cast<std::uint32_t>(*id - *resumed_from_ - 1);
  }
}

/// The server ended the stream (its response is complete). With --reconnect, a stream that
/// ended without an event fails the exchange as `closed`.
void SseClientBase::end_stream(model::Response& response) {
  streaming_ = false;
  if (first_ && setup_.reconnect) {
    response.error = model::ErrorKind::closed;
    log_first_failure(setup_, response.error, {},
                      "the server ended an event stream before its first event");
  } else {
    response.stream_ended = true;
  }
  stream_over();
}

/// Waits the delay the stream's `retry:` asked for before the next stream, as a browser does;
/// -t may end the wait first.
net::awaitable<void> SseClientBase::wait_to_reconnect(model::Response& response) {
  const auto delay = sse_.retry();
  if (!delay || delay->count() == 0) co_return;
  net::steady_timer timer(executor_, *delay);
  retry_timer_ = &timer;
  co_await timer.async_wait(net::as_tuple(net::use_awaitable));
  retry_timer_ = nullptr;
  if (timed_out()) record_failure(response, Phase::connect, net::error::timed_out);
}

}  // namespace stampede::client
