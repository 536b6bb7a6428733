// SpanWriter: text and numbers appended to a fixed span, for responses built without allocating.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace stampede::target_server {

/// Appends to a fixed span, cutting what does not fit; used at startup and per response (a
/// /bytes head, an /sse event), so it must not allocate.
class SpanWriter {
 public:
  explicit SpanWriter(std::span<char> out) : out_(out) {}

  SpanWriter& operator<<(std::string_view text) {
    const auto n = std::min(text.size(), out_.size() - size_);
    std::copy_n(text.data(), n, out_.data() + size_);
    size_ += n;
    return *this;
  }

  SpanWriter& operator<<(std::uint64_t number) {
    std::array<char, 24> digits{};
    const auto result = std::to_chars(digits.data(), digits.data() + digits.size(), number);
    return *this << std::string_view(digits.data(), result.ptr);
  }

  [[nodiscard]] std::size_t size() const { return size_; }

 private:
  std::span<char> out_;
  std::size_t size_ = 0;
};

}  // namespace stampede::target_server
