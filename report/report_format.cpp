// Formatting helpers the reporters share, so every report spells numbers and codes the same way.
#include "report/report_format.hpp"

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

std::string pad_left(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string pad_right(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
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

std::string errors_text(const Metrics& metrics) {
  std::string text;
  for (const model::ErrorKind kind : model::failure_kinds) {
    const std::uint64_t count = metrics.errors_of(kind);
    if (count == 0) {
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

}  // namespace stampede::report
