// Latency histogram with HdrHistogram's log-linear layout: O(1) record, mergeable, memory only for
// the octaves that were recorded.
//
// Why our own: Debian ships no C/C++ HdrHistogram (only Go and Java ports); we need just
// record / merge / percentile / exact min, max, mean and stdev, which fit in one small file; and
// a run keeps several histograms per thread and per flow step, so counts are allocated one octave
// at a time on first use (HdrHistogram_c allocates all of them up front: 38 KB at our range).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace stampede::statistics {

/// Counts of values (nanoseconds) in buckets whose width is under 1% of their value.
/// Values from 0 to about 2^44 ns (~4.9 hours); larger values are clamped to the top bucket.
/// Min, max, sum and sum of squares are exact, so mean and stdev carry no bucketing error.
/// An empty histogram holds no counts; each octave (128 counts, 1 KB) is allocated when a value
/// first falls in it, so latencies that all lie in one [2^k, 2^(k+1)) ns range cost 1 KB.
class Histogram {
 public:
  /// The largest value kept (2^44 - 1 ns); larger values are recorded as this.
  static constexpr std::uint64_t max_value = (std::uint64_t{1} << 44) - 1;

  /// Length of HdrHistogram's counts array for this layout (lowest discernible value 1,
  /// highest trackable max_value, 2 significant digits): what its encodings carry.
  static constexpr std::size_t counts_length = 4864;

  /// What the buckets cannot carry (a saved run keeps it, so a histogram reloads exactly).
  struct Exact {
    std::uint64_t min = UINT64_MAX;  ///< UINT64_MAX when empty
    std::uint64_t max = 0;
    unsigned __int128 sum = 0;
    unsigned __int128 sum_squares = 0;
    friend bool operator==(const Exact&, const Exact&) = default;
  };

  /// An empty histogram; it allocates nothing.
  Histogram();
  /// The histogram with `counts` at HdrHistogram's counts indices (at most counts_length) and
  /// `exact`'s figures; throws std::invalid_argument when they cannot belong together (too
  /// many counts, or min or max outside the counted buckets).
  static Histogram from_counts(std::span<const std::uint64_t> counts, const Exact& exact);

  /// Add one value in nanoseconds.
  void record(std::uint64_t value_ns);
  /// Add every count of `other` (associative and commutative).
  void merge(const Histogram& other);
  /// Forget everything, keeping the memory (the octaves stay allocated, at zero).
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
  /// Counts by HdrHistogram's counts index, up to the last non-zero one (empty when empty).
  [[nodiscard]] std::vector<std::uint64_t> counts_by_index() const;
  [[nodiscard]] Exact exact() const { return {min_, max_, sum_, sum_squares_}; }
  /// The lowest and highest value counted at counts index `index` (< counts_length).
  [[nodiscard]] static std::pair<std::uint64_t, std::uint64_t> bucket_range(std::size_t index) {
    return {index == 0 ? 0 : highest_equivalent(index - 1) + 1, highest_equivalent(index)};
  }
  /// Values counted in buckets whose every value is at most `value` (a bucket that `value`
  /// splits is left out: at most 0.8% of `value` below it): Prometheus's `le` buckets.
  [[nodiscard]] std::uint64_t count_at_most(std::uint64_t value) const;
  /// Bytes this histogram holds, its counts included (for sizing per-thread state).
  [[nodiscard]] std::size_t memory_bytes() const;

  /// Same counts, extremes and sums (tests check that merge is associative with it); an octave
  /// allocated but at zero equals one never allocated.
  friend bool operator==(const Histogram& a, const Histogram& b);

 private:
  /// Octaves of 128 counts: bucket 0's two halves, then one per bucket after it.
  static constexpr std::size_t octave_count = 38;
  static constexpr std::uint8_t absent = 0xFF;

  [[nodiscard]] static std::size_t index_of(std::uint64_t value);
  [[nodiscard]] static std::uint64_t highest_equivalent(std::size_t index);
  /// Allocates octave `octave` (at zero) and returns its position in counts_.
  std::size_t add_octave(std::size_t octave);
  /// Octave `octave`'s 128 counts, or nullptr when it was never allocated.
  [[nodiscard]] const std::uint64_t* octave_counts(std::size_t octave) const;

  std::vector<std::uint64_t> counts_;  // the allocated octaves, in the order first used
  std::array<std::uint8_t, octave_count> position_of_;  // octave -> its place in counts_, or absent
  std::uint64_t count_ = 0;
  std::uint64_t min_ = UINT64_MAX;
  std::uint64_t max_ = 0;
  // Integers, not doubles: sums stay exact, so merge order never changes mean or stdev.
  unsigned __int128 sum_ = 0;
  unsigned __int128 sum_squares_ = 0;
};

}  // namespace stampede::statistics
