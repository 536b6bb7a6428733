// Histogram: HdrHistogram's log-linear bucket layout with 1 ns units and 2 significant digits.
#include "server/statistics/histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

namespace stampede::statistics {
namespace {

// Layout (HdrHistogram's, unit 1 ns): bucket 0 counts 0..255 exactly; bucket b >= 1 covers
// [2^(b+7), 2^(b+8)) with 128 slots of width 2^b, so a slot is never wider than 1/128 (0.78%) of
// the values in it. Buckets share no slots: each bucket past the first adds only its upper half.
constexpr unsigned sub_bucket_bits = 8;                                // 256 slots in bucket 0
constexpr unsigned half_bits = sub_bucket_bits - 1;                    // 128 new slots per bucket
constexpr std::uint64_t half_count = std::uint64_t{1} << half_bits;    // 128
constexpr std::uint64_t sub_bucket_mask = (half_count << 1) - 1;       // 255
constexpr unsigned value_bits = std::bit_width(Histogram::max_value);  // 44
constexpr unsigned bucket_count = value_bits - sub_bucket_bits + 1;    // 37
static_assert((bucket_count + 1) * half_count == Histogram::counts_length);
// Counts come in octaves of half_count: bucket 0's lower half, then each bucket's upper half.
constexpr std::size_t octave_of(std::size_t index) { return index >> half_bits; }
constexpr std::size_t slot_of(std::size_t index) { return index & (half_count - 1); }

}  // namespace

Histogram::Histogram() {
  static_assert(octave_count * half_count == counts_length, "the octaves cover every count");
  static_assert(octave_count < absent, "a position fits in a byte");
  position_of_.fill(absent);
}

Histogram Histogram::from_counts(std::span<const std::uint64_t> counts, const Exact& exact) {
  if (counts.size() > counts_length) {
    throw std::invalid_argument("a histogram with " + std::to_string(counts.size()) +
                                " counts; this layout has " + std::to_string(counts_length));
  }
  Histogram histogram;
  std::size_t lowest = counts.size();
  std::size_t highest = 0;
  for (std::size_t index = 0; index < counts.size(); ++index) {
    if (counts[index] == 0) continue;
    std::size_t position = histogram.position_of_[octave_of(index)];
    if (position == absent) position = histogram.add_octave(octave_of(index));
    histogram.counts_[(position << half_bits) + slot_of(index)] = counts[index];
    histogram.count_ += counts[index];
    lowest = std::min(lowest, index);
    highest = index;
  }
  const bool empty = histogram.count_ == 0;
  if (empty ? exact != Exact{}
            : exact.min > exact.max || index_of(exact.min) != lowest ||
                  index_of(exact.max) != highest) {
    throw std::invalid_argument("a histogram whose min or max lies outside its counts");
  }
  histogram.min_ = exact.min;
  histogram.max_ = exact.max;
  histogram.sum_ = exact.sum;
  histogram.sum_squares_ = exact.sum_squares;
  return histogram;
}

std::vector<std::uint64_t> Histogram::counts_by_index() const {
  std::vector<std::uint64_t> counts;
  if (count_ == 0) return counts;
  counts.resize(index_of(max_) + 1, 0);
  for (std::size_t octave = 0; octave < octave_count; ++octave) {
    const std::uint64_t* from = octave_counts(octave);
    for (std::size_t slot = 0; from != nullptr && slot < half_count; ++slot) {
      const std::size_t index = (octave << half_bits) + slot;
      if (index < counts.size()) counts[index] = from[slot];
    }
  }
  return counts;
}

std::size_t Histogram::index_of(std::uint64_t value) {
  // Bucket = how far the highest set bit is above bucket 0's range; OR-ing the mask puts every
  // value below 256 in bucket 0 without a branch.
  const unsigned magnitude = std::bit_width(value | sub_bucket_mask);  // 8..44
  const unsigned bucket = magnitude - sub_bucket_bits;
  const std::uint64_t sub_bucket = value >> bucket;  // 128..255, or 0..255 in bucket 0
  return static_cast<std::size_t>(((std::uint64_t{bucket} + 1) << half_bits) + sub_bucket -
                                  half_count);
}

std::uint64_t Histogram::highest_equivalent(std::size_t index) {
  std::uint64_t bucket = index >> half_bits;
  std::uint64_t sub_bucket = (index & (half_count - 1)) + half_count;
  if (bucket == 0) {  // the first 128 slots are bucket 0's lower half: values 0..127
    sub_bucket -= half_count;
  } else {
    --bucket;
  }
  const std::uint64_t lowest = sub_bucket << bucket;
  return lowest + (std::uint64_t{1} << bucket) - 1;
}

void Histogram::record(std::uint64_t value_ns) {
  const std::uint64_t value = std::min(value_ns, max_value);
  const std::size_t index = index_of(value);
  std::size_t position = position_of_[octave_of(index)];
  if (position == absent) [[unlikely]] {
    position = add_octave(octave_of(index));
  }
  ++counts_[(position << half_bits) + slot_of(index)];
  ++count_;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
  sum_ += value;
  sum_squares_ += static_cast<unsigned __int128>(value) * value;
}

std::size_t Histogram::add_octave(std::size_t octave) {
  const std::size_t position = counts_.size() / half_count;
  // Exactly one octave more: growing by doubling would hold up to twice the memory used.
  counts_.reserve(counts_.size() + half_count);
  counts_.resize(counts_.size() + half_count, 0);
  position_of_[octave] = static_cast<std::uint8_t>(position);
  return position;
}

const std::uint64_t* Histogram::octave_counts(std::size_t octave) const {
  const std::size_t position = position_of_[octave];
  return position == absent ? nullptr : counts_.data() + (position << half_bits);
}

void Histogram::merge(const Histogram& other) {
  for (std::size_t octave = 0; octave < octave_count; ++octave) {
    const std::uint64_t* from = other.octave_counts(octave);
    if (from == nullptr) continue;
    std::size_t position = position_of_[octave];
    if (position == absent) position = add_octave(octave);
    std::uint64_t* to = counts_.data() + (position << half_bits);
    for (std::size_t slot = 0; slot < half_count; ++slot) to[slot] += from[slot];
  }
  count_ += other.count_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
  sum_squares_ += other.sum_squares_;
}

void Histogram::reset() {
  std::fill(counts_.begin(), counts_.end(), 0);
  count_ = 0;
  min_ = UINT64_MAX;
  max_ = 0;
  sum_ = 0;
  sum_squares_ = 0;
}

std::uint64_t Histogram::min() const { return count_ == 0 ? 0 : min_; }

double Histogram::mean() const {
  if (count_ == 0) {
    return 0;
  }
  return static_cast<double>(static_cast<long double>(sum_) / count_);
}

double Histogram::stdev() const {
  if (count_ < 2) {
    return 0;
  }
  // n * variance = sum_squares - sum^2 / n. With sum = q*n + r that is exactly
  // (sum_squares - q^2 n - 2 q r) - r^2 / n, where the integer part cannot overflow (q^2 n <=
  // sum^2 / n <= sum_squares) and r^2 / n < n: no cancellation, unlike E[x^2] - E[x]^2 in floats.
  const unsigned __int128 n = count_;
  const unsigned __int128 q = sum_ / n;
  const unsigned __int128 r = sum_ % n;
  const unsigned __int128 whole = sum_squares_ - q * q * n - 2 * q * r;
  const long double fraction =
      static_cast<long double>(r) * static_cast<long double>(r) / static_cast<long double>(count_);
  const long double variance =
      (static_cast<long double>(whole) - fraction) / static_cast<long double>(count_);
  return variance <= 0 ? 0.0 : static_cast<double>(std::sqrt(variance));
}

std::uint64_t Histogram::percentile(double q) const {
  if (count_ == 0) {
    return 0;
  }
  if (q <= 0) {
    return min_;
  }
  if (q >= 100) {
    return max_;
  }
  // Nearest rank: ceil(q% of count), but a product that is an integer up to rounding (99.9% of
  // 1000) must not round up to the next rank.
  const double exact = q / 100 * static_cast<double>(count_);
  const double nearest = std::round(exact);
  const double rank_real =
      std::abs(exact - nearest) <= 1e-9 * std::max(1.0, exact) ? nearest : std::ceil(exact);
  const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(rank_real));
  std::uint64_t seen = 0;
  for (std::size_t octave = 0; octave < octave_count; ++octave) {
    const std::uint64_t* counts = octave_counts(octave);
    for (std::size_t slot = 0; counts != nullptr && slot < half_count; ++slot) {
      seen += counts[slot];
      if (seen >= rank) {
        return std::clamp(highest_equivalent((octave << half_bits) + slot), min_, max_);
      }
    }
  }
  return max_;  // unreachable: the counts add up to count_
}

std::uint64_t Histogram::count_at_most(std::uint64_t value) const {
  if (count_ == 0 || value < min_) return 0;
  if (value >= max_) return count_;
  std::uint64_t counted = 0;
  for (std::size_t octave = 0; octave < octave_count; ++octave) {
    const std::uint64_t* counts = octave_counts(octave);
    for (std::size_t slot = 0; counts != nullptr && slot < half_count; ++slot) {
      if (highest_equivalent((octave << half_bits) + slot) > value) return counted;
      counted += counts[slot];
    }
  }
  return counted;
}

std::size_t Histogram::memory_bytes() const {
  return sizeof(*this) + counts_.capacity() * sizeof(std::uint64_t);
}

bool operator==(const Histogram& a, const Histogram& b) {
  if (a.count_ != b.count_ || a.min_ != b.min_ || a.max_ != b.max_ || a.sum_ != b.sum_ ||
      a.sum_squares_ != b.sum_squares_) {
    return false;
  }
  for (std::size_t octave = 0; octave < Histogram::octave_count; ++octave) {
    const std::uint64_t* left = a.octave_counts(octave);
    const std::uint64_t* right = b.octave_counts(octave);
    for (std::size_t slot = 0; slot < half_count; ++slot) {
      if ((left == nullptr ? 0 : left[slot]) != (right == nullptr ? 0 : right[slot])) return false;
    }
  }
  return true;
}

}  // namespace stampede::statistics
