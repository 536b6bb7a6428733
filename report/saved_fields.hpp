// Reading a saved run's numbers strictly: a field of the wrong kind or out of its range is refused
// by name, where nlohmann's get<> would wrap a negative, truncate a fraction or cast 2^64 to 0.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace stampede::report {

using SavedJson = nlohmann::ordered_json;

/// A whole number from 0 to `most`; throws std::invalid_argument naming `name` otherwise.
std::uint64_t count_value(const SavedJson& value, std::string_view name,
                          std::uint64_t most = std::numeric_limits<std::uint64_t>::max());
/// count_value of object[key].
std::uint64_t count_at(const SavedJson& object, std::string_view key);
/// count_value of object[key], at most T's largest value.
template <typename T>
T count_at(const SavedJson& object, std::string_view key) {
  return static_cast<T>(count_value(object.at(key), key, std::numeric_limits<T>::max()));
}
/// A whole number, signed (nanoseconds since the epoch).
std::int64_t integer_at(const SavedJson& object, std::string_view key);
/// A finite number, not below 0 (a rate, a time in seconds).
double number_at(const SavedJson& object, std::string_view key);
/// An int written as text ("200"), the key of counts_to_json's object.
int number_key(const std::string& key);

}  // namespace stampede::report
