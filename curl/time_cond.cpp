// parse_curl_date(): curl's free-form date grammar, written from curl_getdate(3)'s description
// and checked against curl 7.88 (tests/curl/time_cond_test.cpp); no library reads these forms.
#include "curl/time_cond.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <ctime>

#include "model/calendar.hpp"

namespace stampede::curl {

namespace {

constexpr std::array<std::string_view, 12> months{"jan", "feb", "mar", "apr", "may", "jun",
                                                  "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr std::array<std::string_view, 7> days{"monday", "tuesday",  "wednesday", "thursday",
                                               "friday", "saturday", "sunday"};

/// Time zones curl knows by name, in minutes west of Greenwich.
struct Zone {
  std::string_view name;
  int west;
};
constexpr std::array<Zone, 45> zones{{
    {"gmt", 0},     {"ut", 0},      {"utc", 0},     {"wet", 0},     {"bst", -60},   {"wat", 60},
    {"ast", 240},   {"adt", 180},   {"est", 300},   {"edt", 240},   {"cst", 360},   {"cdt", 300},
    {"mst", 420},   {"mdt", 360},   {"pst", 480},   {"pdt", 420},   {"yst", 540},   {"ydt", 480},
    {"ahst", 600},  {"hst", 600},   {"hdt", 540},   {"cat", 600},   {"nt", 660},    {"idlw", 720},
    {"cet", -60},   {"met", -60},   {"mewt", -60},  {"mest", -120}, {"cest", -120}, {"mesz", -120},
    {"fwt", -60},   {"fst", -120},  {"eet", -120},  {"wast", -420}, {"wadt", -480}, {"cct", -480},
    {"jst", -540},  {"east", -600}, {"eadt", -660}, {"gst", -600},  {"nzt", -720},  {"nzst", -720},
    {"nzdt", -780}, {"idle", -720}, {"z", 0},
}};

std::string lower_word(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class DateReader {
 public:
  explicit DateReader(std::string_view text) : text_(text) {}

  std::optional<long long> run() {
    for (int part = 0; at_ < text_.size() && part < 6; ++part) {
      while (at_ < text_.size() && !std::isalnum(static_cast<unsigned char>(text_[at_]))) ++at_;
      if (at_ == text_.size()) break;
      const bool ok = std::isalpha(static_cast<unsigned char>(text_[at_])) ? word() : number();
      if (!ok) return std::nullopt;
    }
    // Years outside 1583-9999 are no date curl means (and would overflow the calendar's types).
    if (day_ < 0 || month_ < 0 || year_ < 1583 || year_ > 9999) return std::nullopt;
    const auto days = model::days_since_epoch(year_, static_cast<unsigned>(month_ + 1),
                                              static_cast<unsigned>(day_));
    return days * 86400 + std::max(seconds_, 0LL) + west_ * 60;
  }

 private:
  bool word() {
    const auto start = at_;
    while (at_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[at_]))) ++at_;
    const auto w = lower_word(text_.substr(start, at_ - start));
    if (!weekday_seen_ && w.size() >= 3) {
      for (const auto day : days) {
        if (w == day || (w.size() == 3 && day.starts_with(w))) return weekday_seen_ = true;
      }
    }
    if (month_ < 0 && w.size() == 3) {
      for (std::size_t m = 0; m < months.size(); ++m) {
        if (w == months[m]) return month_ = static_cast<int>(m), true;
      }
    }
    if (!zone_seen_) {
      for (const auto& zone : zones) {
        if (w == zone.name) return west_ = zone.west, zone_seen_ = true;
      }
    }
    return false;
  }

  bool number() {
    if (seconds_ < 0 && time_of_day()) return true;
    const auto start = at_;
    long long value = 0;
    const auto [end, error] =
        std::from_chars(text_.data() + at_, text_.data() + text_.size(), value);
    if (error != std::errc{}) return false;
    at_ = static_cast<std::size_t>(end - text_.data());
    const auto digits = at_ - start;
    const char sign = start > 0 ? text_[start - 1] : '\0';
    if (!zone_seen_ && digits == 4 && value <= 1400 && (sign == '+' || sign == '-')) {
      const auto minutes = static_cast<int>(value / 100 * 60 + value % 100);
      west_ = sign == '+' ? -minutes : minutes;
      return zone_seen_ = true;
    }
    if (digits == 8 && year_ < 0 && month_ < 0 && day_ < 0) {
      year_ = value / 10000;
      month_ = static_cast<int>(value / 100 % 100) - 1;
      day_ = static_cast<int>(value % 100);
      return true;
    }
    bool found = false;
    if (next_is_day_ && day_ < 0) {
      if (value > 0 && value < 32) day_ = static_cast<int>(value), found = true;
      next_is_day_ = false;
    }
    if (!found && !next_is_day_ && year_ < 0) {
      year_ = value < 100 ? value + (value > 70 ? 1900 : 2000) : value;
      found = true;
      if (day_ < 0) next_is_day_ = true;
    }
    return found;
  }

  /// `hh:mm:ss` or `hh:mm`.
  bool time_of_day() {
    int parts[3] = {0, 0, 0};
    std::size_t at = at_;
    int count = 0;
    for (; count < 3; ++count) {
      const auto [end, error] =
          std::from_chars(text_.data() + at, text_.data() + text_.size(), parts[count]);
      const auto digits = static_cast<std::size_t>(end - (text_.data() + at));
      if (error != std::errc{} || digits == 0 || digits > 2) break;
      at += digits;
      if (count == 2 || at == text_.size() || text_[at] != ':') {
        ++count;
        break;
      }
      ++at;
    }
    if (count < 2 || parts[0] > 23 || parts[1] > 59 || parts[2] > 60) return false;
    at_ = at;
    seconds_ = parts[0] * 3600 + parts[1] * 60 + parts[2];
    return true;
  }

  std::string_view text_;
  std::size_t at_ = 0;
  bool weekday_seen_ = false;
  bool zone_seen_ = false;
  bool next_is_day_ = true;
  int month_ = -1;
  int day_ = -1;
  long long year_ = -1;
  long long seconds_ = -1;
  long long west_ = 0;
};

std::string http_date(long long seconds) {
  const auto time = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&time, &tm);
  std::array<char, 64> out{};
  const auto length = std::strftime(out.data(), out.size(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return {out.data(), length};
}

}  // namespace

std::optional<long long> parse_curl_date(std::string_view text) { return DateReader(text).run(); }

std::optional<std::pair<std::string, std::string>> time_condition(const Argument& argument,
                                                                  const Files& files,
                                                                  std::vector<Warning>& warnings) {
  std::string_view text = argument.value;
  const char mark = text.empty() ? '\0' : text.front();
  if (mark == '+' || mark == '-' || mark == '=') text.remove_prefix(1);
  auto when = parse_curl_date(text);
  if (!when) when = files.modified(std::string(text));
  if (!when) {
    warnings.push_back({argument.where, "-z '" + argument.value +
                                            "' is neither a date curl reads nor a file: no time "
                                            "condition is sent, as curl does"});
    return std::nullopt;
  }
  if (mark == '=') return std::nullopt;  // curl's "last modified" condition adds no header
  return std::pair{std::string(mark == '-' ? "If-Unmodified-Since" : "If-Modified-Since"),
                   http_date(*when)};
}

}  // namespace stampede::curl
