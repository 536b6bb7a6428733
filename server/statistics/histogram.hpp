// Latency histogram with HdrHistogram's log-linear layout: O(1) record, fixed memory, mergeable.
//
// Why our own: Debian ships no C/C++ HdrHistogram (only Go and Java ports), and we need just
// record / merge / percentile / exact min, max, mean and stdev, which fit in one small file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stampede::statistics {

/// Counts of values (nanoseconds) in buckets whose width is under 1% of their value.
/// Values from 0 to about 2^44 ns (~4.9 hours); larger values are clamped to the top bucket.
/// Min, max, sum and sum of squares are exact, so mean and stdev carry no bucketing error.
class Histogram {
 public:
  /// The largest value kept (2^44 - 1 ns); larger values are recorded as this.
  static constexpr std::uint64_t max_value = (std::uint64_t{1} << 44) - 1;

  Histogram();

  /// Add one value in nanoseconds.
  void record(std::uint64_t value_ns);
  /// Add every count of `other` (associative and commutative).
  void merge(const Histogram& other);
  /// Forget everything, keeping the memory.
  void reset();

  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] std::uint64_t min() const;  ///< 0 when empty
  [[nodiscard]] std::uint64_t max() const { return max_; }
  [[nodiscard]] double mean() const;   ///< 0 when empty
  [[nodiscard]] double stdev() const;  ///< population stdev, 0 when fewer than 2 values
  /// The smallest recorded value v such that at least q% of values are <= v, reported as the
  /// top of v's bucket (at most 0.8% above v) clamped to [min, max]: q <= 0 gives min and
  /// q >= 100 gives max exactly. 0 when empty.
  [[nodiscard]] std::uint64_t percentile(double q) const;
  /// Bytes this histogram holds, its counts included (for sizing per-thread state).
  [[nodiscard]] std::size_t memory_bytes() const;

  /// Same counts, extremes and sums (tests check that merge is associative with it).
  friend bool operator==(const Histogram&, const Histogram&) = default;

 private:
  [[nodiscard]] static std::size_t index_of(std::uint64_t value);
  [[nodiscard]] static std::uint64_t highest_equivalent(std::size_t index);

  std::vector<std::uint64_t> counts_;
  std::uint64_t count_ = 0;
  std::uint64_t min_ = UINT64_MAX;
  std::uint64_t max_ = 0;
  // Integers, not doubles: sums stay exact, so merge order never changes mean or stdev.
  unsigned __int128 sum_ = 0;
  unsigned __int128 sum_squares_ = 0;
};

}  // namespace stampede::statistics
