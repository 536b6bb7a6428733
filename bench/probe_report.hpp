// What the bench probes (uring_probe, newconn_probe) print: requests, CPU, CPU per request.
#pragma once

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>

/// A probe's CPU from `before` (getrusage at the clock's `start`) to now, for `done` requests,
/// on one line after `label`.
inline void print_probe_report(const char* label, const rusage& before,
                               std::chrono::steady_clock::time_point start, std::uint64_t done) {
  const auto seconds = [](const timeval& from, const timeval& to) {
    return static_cast<double>(to.tv_sec - from.tv_sec) +
           static_cast<double>(to.tv_usec - from.tv_usec) / 1e6;
  };
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  const double user = seconds(before.ru_utime, after.ru_utime);
  const double system = seconds(before.ru_stime, after.ru_stime);
  const auto requests = static_cast<double>(done);
  std::printf(
      "%s%.0f requests in %.2f s; CPU user %.2f s, system %.2f s: %.0f requests per CPU-second, "
      "%.2f us a request\n",
      label, requests, elapsed, user, system, requests / (user + system),
      (user + system) / requests * 1e6);
}
