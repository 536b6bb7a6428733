// A text/event-stream parser (Server-Sent Events): events out of body bytes as they arrive.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace stampede::client {

/// How a block of the stream went wrong: a line longer than the limit, or an event whose
/// fields are not UTF-8.
enum class SseFault : unsigned char { none, too_long, not_utf8 };

/// Parses the event stream of WHATWG HTML's "event stream interpretation": lines end with CRLF,
/// LF or CR (a CRLF split between two reads is one line end), `:` starts a comment, `data:`
/// lines join with LF, a blank line dispatches the event (none when it has no data), `id:`
/// sets the last event id for the stream's later events and its reconnect, `retry:` the
/// reconnect delay. Sans I/O: the client feeds it body bytes; it stops after each event, so
/// the client can time each one. Written here as no Debian library parses event streams.
class SseParser {
 public:
  /// `max_line`: the longest line accepted (a longer one is SseFault::too_long), which also
  /// bounds an event's data.
  explicit SseParser(std::size_t max_line) : max_line_(max_line) {}

  /// Parses `data` up to the end of the next event or fault; returns the bytes used. When
  /// event() is set afterwards, it is the event just dispatched; bytes after it are left for
  /// the next call.
  std::size_t put(std::string_view data);

  /// The event the last put() dispatched, if it did: its data (data lines joined with LF).
  [[nodiscard]] std::optional<std::string_view> event() const {
    if (!dispatched_) return std::nullopt;
    return std::string_view(data_);
  }
  /// The dispatched event's type (`event:`; "message" when it had none).
  [[nodiscard]] std::string_view type() const {
    return type_.empty() ? std::string_view("message") : std::string_view(type_);
  }
  /// The last event id the stream set (`id:`), sent as Last-Event-ID when it reconnects.
  [[nodiscard]] const std::string& last_event_id() const { return last_id_; }
  /// The reconnect delay the stream asked for (`retry:`), if it did.
  [[nodiscard]] std::optional<std::chrono::milliseconds> retry() const { return retry_; }
  /// What went wrong in the last put(); the stream cannot go on after too_long, and goes on
  /// after a not_utf8 event (which event() does not give).
  [[nodiscard]] SseFault fault() const { return fault_; }

  /// A new stream, whose lines may be `max_line` long (a reconnect keeps last_event_id() and
  /// retry(), as a browser does).
  void restart(std::size_t max_line);

 private:
  std::size_t take_line(std::string_view data);
  void process(std::string_view line);
  void field(std::string_view name, std::string_view value);
  void dispatch();

  std::size_t max_line_;
  std::string line_;     ///< a line split across reads, until its end arrives
  std::string data_;     ///< the event's data so far
  std::string type_;     ///< the event's type so far
  std::string last_id_;  ///< the last event id
  std::optional<std::chrono::milliseconds> retry_;
  SseFault fault_ = SseFault::none;
  bool dispatched_ = false;  ///< put() ended with an event
  bool after_cr_ = false;    ///< the last line ended with CR: an LF next belongs to it
  bool at_start_ = true;     ///< no byte of the stream yet: a byte-order mark is skipped
  bool block_utf8_ = true;   ///< the block's field lines so far are UTF-8
};

/// True when `text` is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
bool valid_utf8(std::string_view text);

}  // namespace stampede::client
