// gnuplot_lines(): one formatted line per request, appended in the order the ticks bring them.
#include "report/gnuplot_report.hpp"

#include <algorithm>
#include <ctime>

#include "report/report_format.hpp"

namespace stampede::report {
namespace {

std::string ms_field(std::chrono::nanoseconds duration) {
  return format_fixed(static_cast<double>(duration.count()) / 1e6, 3);
}

}  // namespace

std::string gnuplot_header() {
  return "starttime\tseconds\tctime\tdtime\tttime\twait\tstatus\terror\n";
}

std::string gnuplot_lines(std::span<const statistics::RequestLine> requests,
                          std::chrono::system_clock::time_point run_started) {
  std::string text;
  for (const auto& request : requests) {
    const auto started =
        run_started +
        std::chrono::duration_cast<std::chrono::system_clock::duration>(request.started);
    const std::time_t seconds = std::chrono::system_clock::to_time_t(started);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char when[32];
    (void)std::strftime(when, sizeof when, "%a %b %d %H:%M:%S %Y", &utc);
    const auto error = request.error == model::ErrorKind::none ? std::string_view("ok")
                                                               : model::to_string(request.error);
    text += std::string(when) + '\t' + std::to_string(seconds) + '\t' + ms_field(request.connect) +
            '\t' +
            ms_field(std::max(request.latency - request.connect, std::chrono::nanoseconds(0))) +
            '\t' + ms_field(request.latency) + '\t' + ms_field(request.waiting) + '\t' +
            std::to_string(request.status) + '\t' + std::string(error) + '\n';
  }
  return text;
}

}  // namespace stampede::report
