// How often each value of a field was seen (Server header, body length), bounded and mergeable.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace stampede::statistics {

/// Counts per distinct value, for at most `limit` values: the `limit` smallest ever added.
/// Keeping the smallest (not the first seen) makes the result the same whatever order values
/// and merges come in: merge is associative and commutative, and equal contents compare equal.
template <typename T>
class ValueCounts {
 public:
  /// Distinct values kept; a value larger than all of them while they are this many is not.
  static constexpr std::size_t limit = 8;

  /// Adds `count` sightings of `value` (anything that compares with and converts to T).
  template <typename V>
  void add(const V& value, std::uint64_t count = 1) {
    if (count == 0) return;
    const auto at =
        std::lower_bound(entries_.begin(), entries_.end(), value,
                         [](const Entry& entry, const V& v) { return entry.first < v; });
    if (at != entries_.end() && at->first == value) {
      at->second += count;
      return;
    }
    if (entries_.size() == limit && at == entries_.end()) return;
    const auto index = at - entries_.begin();
    if (entries_.size() == limit) entries_.pop_back();
    entries_.insert(entries_.begin() + index, Entry{T(value), count});
  }

  /// Adds every count of `other`.
  void merge(const ValueCounts& other) {
    for (const auto& [value, count] : other.entries_) add(value, count);
  }

  /// Forgets every value.
  void clear() { entries_.clear(); }

  /// The value seen most often, the smallest of those on a tie; T{} when none was seen.
  [[nodiscard]] const T& most_frequent() const {
    static const T none{};
    const Entry* best = nullptr;
    for (const Entry& entry : entries_) {
      if (best == nullptr || entry.second > best->second) best = &entry;
    }
    return best == nullptr ? none : best->first;
  }

  /// The kept values and their counts, ascending by value.
  [[nodiscard]] const auto& entries() const { return entries_; }

  /// Same values with the same counts.
  friend bool operator==(const ValueCounts&, const ValueCounts&) = default;

 private:
  using Entry = std::pair<T, std::uint64_t>;
  std::vector<Entry> entries_;  // ascending by value; a handful, so a sorted vector beats a map
};

}  // namespace stampede::statistics
