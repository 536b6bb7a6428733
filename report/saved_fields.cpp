// Strict readers of a saved run's numbers: each names the field it refuses and shows its value.
#include "report/saved_fields.hpp"

#include <cmath>
#include <stdexcept>

namespace stampede::report {
namespace {

/// The value as the file had it, cut short: enough to find it in the file.
std::string shown(const SavedJson& value) {
  constexpr std::size_t longest = 40;
  auto text = value.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  if (text.size() > longest) text = text.substr(0, longest) + "...";
  return text;
}

std::invalid_argument refused(std::string_view name, const SavedJson& value, std::string_view is) {
  return std::invalid_argument("'" + std::string(name) + "' is " + shown(value) + ", not " +
                               std::string(is));
}

}  // namespace

std::uint64_t count_value(const SavedJson& value, std::string_view name, std::uint64_t most) {
  // A number beyond 64 bits or with a fraction is parsed as a float: never a count.
  const bool whole =
      value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() >= 0);
  if (!whole) throw refused(name, value, "a count");
  if (value.get<std::uint64_t>() > most) {
    throw refused(name, value, "a count up to " + std::to_string(most));
  }
  return value.get<std::uint64_t>();
}

std::uint64_t count_at(const SavedJson& object, std::string_view key) {
  return count_value(object.at(key), key);
}

std::int64_t integer_at(const SavedJson& object, std::string_view key) {
  const auto& value = object.at(key);
  if (!value.is_number_integer() ||
      (value.is_number_unsigned() &&
       value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))) {
    throw refused(key, value, "a 64-bit whole number");
  }
  return value.get<std::int64_t>();
}

double number_at(const SavedJson& object, std::string_view key) {
  const auto& value = object.at(key);
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
    throw refused(key, value, "a number from 0 up");
  }
  return value.get<double>();
}

int number_key(const std::string& key) {
  std::size_t used = 0;
  const int number = std::stoi(key, &used);  // throws on no digits or out of int's range
  if (used != key.size()) throw std::invalid_argument("a count under '" + key + "', not a number");
  return number;
}

}  // namespace stampede::report
