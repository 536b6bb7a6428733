// shards_text(): which shards are held, which are not, and how together they started.
#include "report/shards_text.hpp"

#include "report/report_format.hpp"

namespace stampede::report {
namespace {

/// "5, 7": the shards' numbers, counted from 1 as --shard counts them.
std::string index_list(const std::vector<unsigned>& indexes) {
  std::string text;
  for (const auto index : indexes) text += (text.empty() ? "" : ", ") + std::to_string(index + 1);
  return text;
}

std::string ms1(std::chrono::nanoseconds duration) {
  return format_fixed(static_cast<double>(duration.count()) / 1e6, 1) + " ms";
}

}  // namespace

std::string shards_text(const statistics::Sharding& sharding) {
  const auto of =
      " of " + std::to_string(sharding.count) + " (run " + printable(sharding.run) + ")";
  // One shard's own run is no merge with the others missing: it says which it is.
  std::string text = sharding.shards.size() == 1
                         ? "shard " + std::to_string(sharding.shards.front().index + 1) + of
                         : std::to_string(sharding.shards.size()) + of;
  if (const auto missing = sharding.missing(); !missing.empty() && sharding.shards.size() > 1) {
    text += "; MISSING " + index_list(missing);
  }
  std::vector<unsigned> interrupted;
  bool told = false;
  for (const auto& shard : sharding.shards) {
    if (shard.stop_reason == statistics::StopReason::interrupted)
      interrupted.push_back(shard.index);
    told = told || shard.start_at.has_value();
  }
  if (!interrupted.empty()) text += "; INTERRUPTED " + index_list(interrupted);
  if (sharding.shards.size() > 1) text += "; starts " + ms1(sharding.start_spread()) + " apart";
  if (told) text += "; the latest " + ms1(sharding.worst_skew()) + " after --start-at";
  if (const auto offsets = sharding.clock_offsets()) {
    text += offsets->first == offsets->second
                ? "; clock offset " + ms1(offsets->first)
                : "; clock offsets " + ms1(offsets->first) + " to " + ms1(offsets->second);
    text += " (with the time to tell)";
  }
  return text;
}

}  // namespace stampede::report
