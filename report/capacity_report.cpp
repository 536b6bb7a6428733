// capacity_text(), capacity_json(): the rule of thumb shown with its inputs, so it can be checked.
#include "report/capacity_report.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

#include "report/report_format.hpp"

namespace stampede::report {

namespace {

std::string capacity_line(const std::string& label, const std::string& value) {
  return pad_right(label, 24) + value + '\n';
}

std::string percent(double share) { return format_fixed(share * 100, 0) + "%"; }

}  // namespace

std::string capacity_text(const statistics::CapacityPlan& plan, const std::string& measured_by) {
  const auto& in = plan.inputs;
  std::string text = "\nCapacity plan (--pv):\n";
  text += capacity_line("Page views a day:", format_fixed(in.page_views, 0) + " (" +
                                                 percent(in.peak_share) + " of them in " +
                                                 percent(in.peak_time_share) + " of the day)");
  text += capacity_line("Peak rate:", format_fixed(plan.peak_qps, 2) + " requests/s (PV x " +
                                          format_fixed(in.peak_share, 2) + " / (86400 s x " +
                                          format_fixed(in.peak_time_share, 2) + "))");
  text += capacity_line("One server took:", format_fixed(in.measured_qps, 2) +
                                                " successful requests/s (" + measured_by + ")");
  text += capacity_line("Servers needed:", plan.servers_needed > 0
                                               ? std::to_string(plan.servers_needed)
                                               : std::string("unknown: no request succeeded"));
  return text;
}

nlohmann::json capacity_json(const statistics::CapacityPlan& plan) {
  const auto& in = plan.inputs;
  return {{"page_views", in.page_views},
          {"peak_share", in.peak_share},
          {"peak_time_share", in.peak_time_share},
          {"peak_qps", round_to(plan.peak_qps, 3)},
          {"measured_qps", round_to(in.measured_qps, 3)},
          {"servers_needed", plan.servers_needed}};
}

}  // namespace stampede::report
