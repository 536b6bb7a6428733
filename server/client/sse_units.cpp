// An event stream's units (Server-Sent Events): its events, the id a reconnect resumes from, and
// the events a reconnect skipped.
#include <charconv>
#include <optional>
#include <string>

#include "server/client/failure_log.hpp"
#include "server/client/sse_parser.hpp"
#include "server/client/stream_units.hpp"

namespace stampede::client {

namespace {

/// The id as a number, when it is one (ids say how many events a reconnect lost only then).
std::optional<std::uint64_t> numeric_id(std::string_view id) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), value);
  if (id.empty() || error != std::errc{} || end != id.data() + id.size()) return std::nullopt;
  return value;
}

/// A 200 with text/event-stream opens the stream; `data:` lines make the events, `id:` the
/// Last-Event-ID of a reconnect, `retry:` its delay (SseParser). Events a reconnect skipped are
/// counted by id on the resumed stream's first event (Response::events_lost).
class SseUnits final : public StreamUnits {
 public:
  explicit SseUnits(const ClientSetup& setup) : setup_(setup) {}

  void start_over() override { sse_ = SseParser(0); }

  [[nodiscard]] std::pair<std::string_view, std::string_view> resume_header() const override {
    if (sse_.last_event_id().empty()) return {};
    return {"last-event-id", sse_.last_event_id()};  // HTTP/2 asks for lower case
  }

  bool open(const model::Response& head, const PreparedRequest& request,
            model::Response& response) override {
    response.status = head.status;
    if (head.status != 200 || !has_content_type(head, "text/event-stream")) {
      response.error = model::ErrorKind::handshake;
      log_first_failure(
          setup_, response.error, {},
          "the server answered " + std::to_string(head.status) + " without a text/event-stream");
      return false;
    }
    resumed_from_ = numeric_id(sse_.last_event_id());
    sse_.restart(request.max_message);
    first_ = true;
    return true;
  }

  bool next(std::string& body, model::Response& response) override {
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

  [[nodiscard]] std::optional<std::chrono::milliseconds> retry() const override {
    return sse_.retry();
  }

 private:
  void deliver(std::string_view data, model::Response& response) {
    response.status = 200;
    response.body_bytes = data.size();
    if (setup_.keep_body) response.body.assign(data);
    if (!std::exchange(first_, false)) return;
    const auto id = numeric_id(sse_.last_event_id());
    if (resumed_from_ && id && *id > *resumed_from_ + 1) {
      response.events_lost = static_cast<std::uint32_t>(*id - *resumed_from_ - 1);
    }
  }

  const ClientSetup& setup_;
  SseParser sse_{0};
  std::optional<std::uint64_t> resumed_from_;  ///< the Last-Event-ID the stream was opened with
  bool first_ = false;                         ///< the stream's next event is its first
};

}  // namespace

std::unique_ptr<StreamUnits> make_sse_units(const ClientSetup& setup) {
  return std::make_unique<SseUnits>(setup);
}

}  // namespace stampede::client
