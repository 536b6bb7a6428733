// grpc-timeout: choosing the unit that keeps a timeout's precision within 8 digits.
#include "grpc/timeout.hpp"

#include <array>
#include <cstdint>

namespace stampede::grpc {

namespace {

struct Unit {
  std::int64_t nanoseconds;
  char letter;
};

/// Largest first, so the first exact fit is the shortest text.
constexpr std::array<Unit, 6> units{{{3'600'000'000'000, 'H'},
                                     {60'000'000'000, 'M'},
                                     {1'000'000'000, 'S'},
                                     {1'000'000, 'm'},
                                     {1'000, 'u'},
                                     {1, 'n'}}};

constexpr std::int64_t max_value = 99'999'999;

std::string text(std::int64_t value, char letter) { return std::to_string(value) + letter; }

}  // namespace

std::string grpc_timeout(std::chrono::nanoseconds timeout) {
  const std::int64_t ns = timeout.count();
  if (ns <= 0) return "1n";
  for (const auto& unit : units) {
    if (ns % unit.nanoseconds == 0 && ns / unit.nanoseconds <= max_value) {
      return text(ns / unit.nanoseconds, unit.letter);
    }
  }
  // No exact fit: the finest unit whose rounded-up count fits. Hours always do: an int64 of
  // nanoseconds is less than 2.6 million hours.
  const auto rounded_up = [ns](const Unit& unit) { return (ns - 1) / unit.nanoseconds + 1; };
  auto unit = units.rbegin();
  while (rounded_up(*unit) > max_value) ++unit;
  return text(rounded_up(*unit), unit->letter);
}

}  // namespace stampede::grpc
