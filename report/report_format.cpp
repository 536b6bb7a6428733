// Formatting helpers the reporters share, so every report spells numbers and codes the same way.
#include "report/report_format.hpp"

#include "model/grpc_code.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stampede::report {

std::string format_fixed(double value, int decimals) {
  char buffer[64];
  // Very large values would print in full with %f; 64 bytes holds any double below 1e40.
  const double shown = std::isfinite(value) && std::fabs(value) < 1e40 ? value : 0.0;
  const int length = std::snprintf(buffer, sizeof buffer, "%.*f", decimals, shown);
  std::string text(buffer, length > 0 ? static_cast<std::size_t>(length) : 0);
  // "-0.00" reads like a bug in a report; a value that rounds to zero is zero.
  if (text.find_first_not_of("-0.") == std::string::npos && !text.empty() && text[0] == '-') {
    text.erase(0, 1);
  }
  return text;
}

std::string format_at_least(double value, int decimals) {
  constexpr int most = 9;  // a billionth: past it, the value shows as 0
  int wanted = decimals;
  if (std::isfinite(value) && value != 0) {
    wanted = std::max(decimals, 2 - static_cast<int>(std::floor(std::log10(std::fabs(value)))));
  }
  auto text = format_fixed(value, std::min(wanted, most));
  if (const auto point = text.find('.'); point != std::string::npos) {
    const auto shortest = point + (decimals > 0 ? 1 + static_cast<std::size_t>(decimals) : 0);
    while (text.size() > shortest && text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

double ratio(double numerator, double denominator) {
  if (denominator == 0) {
    return 0;
  }
  return finite_or_zero(numerator / denominator);
}

double finite_or_zero(double value) { return std::isfinite(value) ? value : 0.0; }

double to_seconds(std::chrono::nanoseconds duration) {
  return static_cast<double>(duration.count()) / 1e9;
}

double round_to(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return finite_or_zero(std::round(finite_or_zero(value) * scale) / scale);
}

std::string pad_left(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string pad_right(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

namespace {

bool continuation(std::string_view text, std::size_t at) {
  return at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80;
}

// Length of the well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing
// past U+10FFFF) at the start of `text`; 0 when there is none.
std::size_t utf8_length(std::string_view text) {
  const auto lead = static_cast<unsigned char>(text[0]);
  if (lead < 0x80) return 1;
  const std::size_t length = lead >= 0xC2 && lead <= 0xDF   ? 2
                             : lead >= 0xE0 && lead <= 0xEF ? 3
                             : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                            : 0;
  if (length == 0 || text.size() < length) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if (!continuation(text, i)) return 0;
  }
  const auto second = static_cast<unsigned char>(text[1]);
  const bool overlong_or_out_of_range = (lead == 0xE0 && second < 0xA0) ||
                                        (lead == 0xF0 && second < 0x90) ||
                                        (lead == 0xF4 && second > 0x8F);
  const bool surrogate = lead == 0xED && second > 0x9F;
  return overlong_or_out_of_range || surrogate ? 0 : length;
}

// C0 controls and DEL as one byte, C1 controls (U+0080..U+009F) as their two-byte UTF-8 form.
bool is_control(std::string_view sequence) {
  const auto lead = static_cast<unsigned char>(sequence[0]);
  if (sequence.size() == 1) return lead < 0x20 || lead == 0x7F;
  return sequence.size() == 2 && lead == 0xC2 && static_cast<unsigned char>(sequence[1]) < 0xA0;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t length = utf8_length(text.substr(at));
    if (length > 0 && !is_control(text.substr(at, length))) {
      out.append(text.substr(at, length));
      at += length;
      continue;
    }
    // Each byte of a control or of a broken sequence on its own: the next may start a good one.
    const std::size_t bytes = std::max<std::size_t>(length, 1);
    for (std::size_t i = 0; i < bytes; ++i) {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned char>(text[at + i]));
      out += escaped;
    }
    at += bytes;
  }
  return out;
}

std::string status_codes_text(const std::map<int, std::uint64_t>& codes) {
  std::string text;
  for (const auto& [code, count] : codes) {
    if (!text.empty()) {
      text += ';';
    }
    text += std::to_string(code) + ':' + std::to_string(count);
  }
  return text;
}

std::string grpc_codes_text(const std::map<int, std::uint64_t>& codes) {
  std::string text;
  for (const auto& [code, count] : codes) {
    text += (text.empty() ? "" : ";") + model::grpc_code_name(code) + ':' + std::to_string(count);
  }
  return text;
}

std::string failures_beside_codes_text(const Metrics& metrics) {
  std::string text;
  for (const model::ErrorKind kind : model::failure_kinds) {
    const std::uint64_t count = metrics.errors_of(kind);
    if (count == 0 || kind == model::ErrorKind::verify || kind == model::ErrorKind::handshake) {
      continue;
    }
    if (!text.empty()) {
      text += ';';
    }
    text += std::string(model::to_string(kind)) + ':' + std::to_string(count);
  }
  return text;
}

std::uint64_t non_2xx_count(const std::map<int, std::uint64_t>& codes) {
  std::uint64_t count = 0;
  for (const auto& [code, n] : codes) {
    if (code < 200 || code > 299) {
      count += n;
    }
  }
  return count;
}

std::string aligned_line(const std::string& label, const std::string& value) {
  return pad_right(label, 24) + value + '\n';
}

std::string ms_text(std::uint64_t ns) { return format_fixed(static_cast<double>(ns) / 1e6, 3); }

}  // namespace stampede::report
