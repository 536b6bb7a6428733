// SseParser: the text/event-stream grammar, one line at a time.
#include "server/client/sse_parser.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <utility>

namespace stampede::client {

namespace {

constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";

/// The length of the UTF-8 sequence that `lead` starts and the smallest value it may encode
/// (shorter forms are overlong); 0 for a byte no sequence starts with.
struct Lead {
  int length;
  std::uint32_t least;
};

Lead lead_of(unsigned char lead) {
  if (lead < 0x80) return {1, 0};
  if ((lead & 0xE0U) == 0xC0) return {2, 0x80};
  if ((lead & 0xF0U) == 0xE0) return {3, 0x800};
  if ((lead & 0xF8U) == 0xF0) return {4, 0x10000};
  return {0, 0};
}

}  // namespace

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const auto [length, least] = lead_of(lead);
    if (length == 0 || i + length > text.size()) return false;
    std::uint32_t value = length == 1 ? lead : lead & (0x7FU >> length);
    for (int k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0U) != 0x80) return false;
      value = (value << 6U) | (next & 0x3FU);
    }
    if (value < least || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return false;
    i += length;
  }
  return true;
}

std::size_t SseParser::put(std::string_view data) {
  if (dispatched_ || fault_ == SseFault::not_utf8) {  // the event given out is done with
    data_.clear();
    type_.clear();
    block_utf8_ = true;
  }
  dispatched_ = false;
  fault_ = SseFault::none;
  std::size_t used = 0;
  if (at_start_ && !data.empty()) {
    const auto head = data.substr(0, byte_order_mark.size());
    if (head.size() < byte_order_mark.size() && byte_order_mark.starts_with(head)) return 0;
    at_start_ = false;
    if (head == byte_order_mark) used = byte_order_mark.size();
  }
  while (used < data.size() && !dispatched_ && fault_ == SseFault::none) {
    used += take_line(data.substr(used));
  }
  return used;
}

void SseParser::restart(std::size_t max_line) {
  max_line_ = max_line;
  line_.clear();
  data_.clear();
  type_.clear();
  fault_ = SseFault::none;
  dispatched_ = false;
  after_cr_ = false;
  at_start_ = true;
  block_utf8_ = true;
}

/// Takes the next line of `rest`, or what there is of it; returns the bytes used.
std::size_t SseParser::take_line(std::string_view rest) {
  if (std::exchange(after_cr_, false) && rest.front() == '\n') return 1;
  const auto end = rest.find_first_of("\r\n");
  const auto length = std::min(end, rest.size());
  if (line_.size() + length > max_line_) {
    fault_ = SseFault::too_long;
    return length;
  }
  if (end == std::string_view::npos) {
    line_.append(rest);
    return rest.size();
  }
  after_cr_ = rest[end] == '\r';
  if (line_.empty()) {
    process(rest.substr(0, end));
  } else {
    line_.append(rest.substr(0, end));
    process(line_);
    line_.clear();
  }
  return end + 1;
}

void SseParser::process(std::string_view line) {
  if (line.empty()) {
    dispatch();
    return;
  }
  if (line.front() == ':') return;  // a comment (a server's heartbeat)
  if (!valid_utf8(line)) block_utf8_ = false;
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) {
    field(line, {});
    return;
  }
  auto value = line.substr(colon + 1);
  if (value.starts_with(' ')) value.remove_prefix(1);
  field(line.substr(0, colon), value);
}

void SseParser::field(std::string_view name, std::string_view value) {
  if (name == "data") {
    if (data_.size() + value.size() >= max_line_) {
      fault_ = SseFault::too_long;
      return;
    }
    data_.append(value);
    data_.push_back('\n');
  } else if (name == "event") {
    type_.assign(value);
  } else if (name == "id") {
    if (value.find('\0') == std::string_view::npos) last_id_.assign(value);
  } else if (name == "retry") {
    std::uint64_t ms = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), ms);
    if (!value.empty() && error == std::errc{} && end == value.data() + value.size()) {
      retry_ = std::chrono::milliseconds(ms);
    }
  }  // other fields are ignored, as the grammar says
}

/// A blank line: the block's data is an event, unless it has none.
void SseParser::dispatch() {
  if (data_.empty()) {
    type_.clear();
    block_utf8_ = true;
    return;
  }
  data_.pop_back();  // the LF after the last data line
  if (block_utf8_) {
    dispatched_ = true;
  } else {
    fault_ = SseFault::not_utf8;
  }
}

}  // namespace stampede::client
