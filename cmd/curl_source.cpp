// curl_source(): `-p FILE:WEIGHT` split at its last colon, the weight checked.
#include "cmd/curl_source.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "cmd/options.hpp"
#include "curl/har.hpp"

namespace stampede::cmd {

CurlSource curl_source(const std::string& text) {
  constexpr std::uint64_t max_weight = 1'000'000;
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return {text, 1};
  const std::string_view digits(text.data() + colon + 1, text.size() - colon - 1);
  // Only digits make a weight: `C:\flows\a.sh` and `a.sh:` are file names.
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
      })) {
    return {text, 1};
  }
  std::uint64_t weight = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), weight);
  if (error != std::errc{} || weight < 1 || weight > max_weight) {
    throw UsageError("-p " + text + ": a flow's weight is a whole number from 1 to 1000000");
  }
  return {text.substr(0, colon), weight};
}

bool any_har(const std::vector<std::string>& sources) {
  return std::any_of(sources.begin(), sources.end(), [](const std::string& source) {
    return curl::is_har(curl_source(source).path);
  });
}

}  // namespace stampede::cmd
