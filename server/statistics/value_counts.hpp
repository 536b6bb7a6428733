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
    // A run's responses mostly repeat one value (one Server, one page's length): the value last
    // added is looked at first, one compare instead of a search (about 150 instructions a
    // response for a Server header, docs/benchmarks.md, round three).
    if (last_ < entries_.size() && entries_[last_].first == value) {
      entries_[last_].second += count;
      return;
    }
    const auto at =
        std::lower_bound(entries_.begin(), entries_.end(), value,
                         [](const Entry& entry, const V& v) { return entry.first < v; });
    const auto index = static_cast<std::size_t>(at - entries_.begin());
    if (at != entries_.end() && at->first == value) {
      at->second += count;
      last_ = index;
      return;
    }
    if (entries_.size() == limit && at == entries_.end()) return;
    if (entries_.size() == limit) entries_.pop_back();
    entries_.insert(entries_.begin() + static_cast<std::ptrdiff_t>(index), Entry{T(value), count});
    last_ = index;
  }

  /// Adds every count of `other`.
  void merge(const ValueCounts& other) {
    for (const auto& [value, count] : other.entries_) add(value, count);
  }

  /// Forgets every value.
  void clear() {
    entries_.clear();
    last_ = 0;
  }

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
  friend bool operator==(const ValueCounts& a, const ValueCounts& b) {
    return a.entries_ == b.entries_;
  }

 private:
  using Entry = std::pair<T, std::uint64_t>;
  std::vector<Entry> entries_;  // ascending by value; a handful, so a sorted vector beats a map
  std::size_t last_ = 0;        // where the value last added is (while entries_ holds it)
};

}  // namespace stampede::statistics
