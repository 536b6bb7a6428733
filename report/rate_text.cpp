// rate_text(): what a reader of a --rate run needs to trust its latencies.
#include "report/rate_text.hpp"

#include "report/report_format.hpp"

namespace stampede::report {

using statistics::Histogram;
namespace {

/// "p50 0.210, p99 1.503, max 4.000 ms".
std::string spread(const Histogram& histogram) {
  return "p50 " + ms_text(histogram.percentile(50)) + ", p99 " + ms_text(histogram.percentile(99)) +
         ", max " + ms_text(histogram.max()) + " ms";
}

}  // namespace

std::string rate_text(const statistics::Summary& summary) {
  if (summary.info.rate <= 0) return "";
  const auto& rate = summary.total.rate;
  // Over streams (--sse, --stream) the schedule starts streams; their units follow at the
  // server's pace.
  const bool streams = summary.info.reads_streams();
  const std::string noun = streams ? "streams" : "requests";
  const auto asked =
      " " + noun + (summary.info.rate_moves ? "/s asked on average, " : "/s asked, ");
  std::string text =
      aligned_line("Rate:", format_at_least(summary.info.rate, 2) + asked +
                                format_at_least(summary.achieved_rate(), 2) + " started");
  text += aligned_line("Latency:", streams ? "a stream's first " + summary.info.stream_unit +
                                                 " from the stream's due time (corrected for "
                                                 "coordinated omission)"
                                           : std::string("from each request's due time "
                                                         "(corrected for coordinated omission)"));
  text += aligned_line("Service time:", spread(rate.service_time) + " (the exchange alone)");
  text += aligned_line("Generator lag:", spread(rate.lag) + " (a free user to the send)");
  std::string capped = std::to_string(rate.capped) + " " + noun + " came due with all " +
                       std::to_string(summary.info.users) + " users (-c) busy, and waited for one";
  if (rate.capped_starting > 0) {
    capped += "; " + std::to_string(rate.capped_starting) +
              " of them while users were still connecting (on their first request)";
  }
  text += aligned_line("Capped:", capped);
  if (rate.missed > 0) {
    text += aligned_line("Missed:", std::to_string(rate.missed) + " " + noun +
                                        (streams ? " never started" : " never sent") +
                                        ": no user was free before -z's end");
  }
  return text;
}

}  // namespace stampede::report
