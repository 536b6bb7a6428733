// StreamClientBase: a stream's exchanges, units and reconnects, over any transport.
#include "server/client/stream_client_base.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <utility>

#include "model/http_syntax.hpp"
#include "server/client/failure_log.hpp"

namespace stampede::client {

bool has_content_type(const model::Response& head, std::string_view type) {
  for (const auto& [name, value] : head.headers) {
    if (name == "content-type" && value.size() >= type.size() &&
        model::same_field_name(std::string_view(value).substr(0, type.size()), type)) {
      return true;
    }
  }
  return false;
}

StreamClientBase::StreamClientBase(const ClientSetup& setup, ThreadContext& thread,
                                   model::Protocol protocol)
    : ClientBase(setup, thread, protocol) {
  switch (setup.stream_as) {
    case StreamAs::messages:
      units_ = make_grpc_units(setup);
      break;
    case StreamAs::chunks:
      units_ = make_chunk_units(setup);
      break;
    case StreamAs::events:
    case StreamAs::whole:
      units_ = make_sse_units(setup);
      break;
  }
}

/// The stream's next unit: from what was read already, or read now. A stream the server ended
/// ends the exchange with no unit, or with --reconnect is opened again, after the delay the
/// units ask for (SSE's `retry:`).
net::awaitable<void> StreamClientBase::exchange(const PreparedRequest& request,
                                                model::Response& response) {
  begin_exchange(request, response);
  const auto timeout_at = deadline();
  if (thread_.window_end < timeout_at) arm_deadline(thread_.window_end);
  waiting_ = true;
  if (streaming_) send_unit(request);
  if (!streaming_ && setup_.scheduled_streams) units_->start_over();  // a start on the schedule
  while (response.error == model::ErrorKind::none && !cut_) {
    if (!streaming_) {
      co_await open_stream(request, response);
      if (!streaming_) break;  // refused: the response says why
      continue;
    }
    if (uploads()) {
      if (upload_step(response)) break;
    } else {
      if (next_unit(response)) break;
      if (server_ended()) {
        end_stream(response);
        if (!setup_.reconnect || response.error != model::ErrorKind::none) break;
        co_await wait_to_reconnect(response);
        continue;
      }
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
  // A unit that came past -z's end, before the watchdog looked, is still one.
  if (deadline() < timeout_at && response.error == model::ErrorKind::none) {
    arm_deadline(timeout_at);
  }
  end_exchange(request, response);
}

bool StreamClientBase::accept(const PreparedRequest& request, model::Response& response) {
  if (!units_->open(head(), request, response)) return false;
  open_unheard(response);
  return true;
}

void StreamClientBase::open_unheard(model::Response& response) {
  streaming_ = true;
  first_ = true;
  response.stream_opened = true;
}

/// -z's end: the wait for a unit ends as the stopping run's does.
bool StreamClientBase::say_goodbye() {
  if (!waiting_ || Clock::now() < thread_.window_end) return false;
  cut_short();
  return true;
}

void StreamClientBase::cut_short() {
  if (!waiting_) return;
  cut_ = true;
  close_socket();
}

void StreamClientBase::close_socket() {
  interrupt();
  if (retry_timer_ != nullptr) retry_timer_->cancel();
}

/// The next unit of what was read, into `response`; true when there was one, or a fault that
/// fails the exchange.
bool StreamClientBase::next_unit(model::Response& response) {
  if (!units_->next(unparsed(), response)) return false;
  if (response.error == model::ErrorKind::none) count_unit(response);
  return true;
}

void StreamClientBase::count_unit(model::Response& response) {
  response.keep_alive = true;
  response.stream_event = first_ ? model::StreamEvent::first : model::StreamEvent::next;
  if (std::exchange(first_, false)) response.first_event = Clock::now() - opened_at_;
}

/// The server ended the stream (its response is complete): the units say whether that fails
/// the exchange (a gRPC call's status); with --reconnect or --rate, a stream that ended without
/// a unit fails it as `closed`.
void StreamClientBase::end_stream(model::Response& response) {
  streaming_ = false;
  if (units_->end(head(), response)) {
    if (first_ && (setup_.reconnect || setup_.scheduled_streams)) {
      response.error = model::ErrorKind::closed;
      log_first_failure(setup_, response.error, {},
                        "the server ended a stream before anything came on it");
    } else {
      response.stream_ended = true;
    }
  }
  stream_over();
}

/// Waits the delay the units ask for before the next stream (SSE's `retry:`, as a browser
/// does); -t may end the wait first.
net::awaitable<void> StreamClientBase::wait_to_reconnect(model::Response& response) {
  const auto delay = units_->retry();
  if (!delay || delay->count() == 0) co_return;
  net::steady_timer timer(executor_, *delay);
  retry_timer_ = &timer;
  co_await timer.async_wait(net::as_tuple(net::use_awaitable));
  retry_timer_ = nullptr;
  if (timed_out()) record_failure(response, Phase::connect, net::error::timed_out);
}

}  // namespace stampede::client
