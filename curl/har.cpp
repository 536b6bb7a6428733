// parse_har_file(): a HAR's entries, chosen and read as curl commands, then sent as curl would.
#include "curl/har.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <boost/algorithm/string/predicate.hpp>
#include <boost/regex.hpp>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "curl/command.hpp"
#include "curl/files.hpp"
#include "curl/har_entry.hpp"
#include "curl/to_request.hpp"

namespace stampede::curl {

namespace {

using nlohmann::json;

/// Headers a client writes itself (HTTP/2's pseudo-headers too): the browser's would be wrong
/// for stampede's connection, or twice.
bool client_sets(std::string_view name) {
  static constexpr std::array<std::string_view, 10> own{
      "host",       "content-length",   "connection",
      "keep-alive", "proxy-connection", "transfer-encoding",
      "te",         "upgrade",          "http2-settings",
      "expect"};
  return name.starts_with(':') || std::any_of(own.begin(), own.end(), [&](std::string_view h) {
           return boost::iequals(h, name);
         });
}

/// The entries' chooser: --har-include, --har-exclude, and static assets left out by default.
class Chooser {
 public:
  Chooser(const HarChoice& choice, const std::string& name)
      : include_(compile(choice.include, "--har-include", name)),
        exclude_(compile(choice.exclude, "--har-exclude", name)) {}

  /// Why `entry` is left out ("" when it is replayed), counted for the note.
  std::string_view left_out(const HarEntry& entry) {
    std::string_view why;
    if (!entry.http()) {
      why = "not HTTP";
    } else if (include_ && !boost::regex_search(entry.url, *include_)) {
      why = "not in --har-include";
    } else if (!include_ && !entry.static_kind.empty()) {
      why = entry.static_kind;
    } else if (exclude_ && boost::regex_search(entry.url, *exclude_)) {
      why = "by --har-exclude";
    }
    if (!why.empty()) ++counts_[std::string(why)];
    return why;
  }

  /// "replaying 3 of 9 entries (left out: 2 images, 1 script, 3 not HTTP)".
  [[nodiscard]] std::string note(std::size_t replayed, std::size_t total) const {
    std::string text = "replaying " + std::to_string(replayed) + " of " + std::to_string(total) +
                       (total == 1 ? " entry" : " entries");
    if (counts_.empty()) return text;
    std::string out;
    bool assets = false;
    for (const auto& [why, count] : counts_) {
      const bool asset = is_static_kind(why);
      out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + why +
             (asset && count != 1 ? "s" : "");
      assets = assets || asset;
    }
    text += " (left out: " + out + ")";
    if (assets)
      text += "; --har-include REGEX replays the entries whose URL it matches, assets too";
    return text;
  }

 private:
  static std::optional<boost::regex> compile(const std::string& pattern, std::string_view flag,
                                             const std::string& name) {
    if (pattern.empty()) return std::nullopt;
    try {
      return boost::regex(pattern);
    } catch (const boost::regex_error& error) {
      throw HarError(name + ": bad " + std::string(flag) + " '" + pattern + "': " + error.what());
    }
  }

  std::optional<boost::regex> include_;
  std::optional<boost::regex> exclude_;
  std::map<std::string, std::size_t> counts_;
};

/// The recorded Cookie header, less the cookies an earlier replayed response set: the user's
/// jar sends those, with the values this run's server gives.
std::string recorded_cookies(const std::vector<std::string>& headers,
                             const std::set<std::string>& from_responses) {
  std::string kept;
  for (const auto& header : headers) {
    std::string_view rest = header;
    while (!rest.empty()) {
      const auto end = std::min(rest.find(';'), rest.size());
      auto pair = rest.substr(0, end);
      rest.remove_prefix(std::min(end + 1, rest.size()));
      while (pair.starts_with(' ')) pair.remove_prefix(1);
      if (pair.empty()) continue;
      const auto name = pair.substr(0, pair.find('='));
      if (from_responses.contains(std::string(name))) continue;
      kept += (kept.empty() ? "" : "; ") + std::string(pair);
    }
  }
  return kept;
}

/// The curl command that sends what `entry` recorded.
CurlCommand command_of(const HarEntry& entry, const std::set<std::string>& set_by_responses) {
  CurlCommand command;
  command.urls.push_back({entry.url, {}});
  const auto& method = entry.method;
  if (method == "HEAD") {
    command.head = true;
  } else {
    command.method = Argument{method, {}};
  }
  std::vector<std::string> cookies;
  for (const auto& [name, value] : entry.headers) {
    if (client_sets(name)) continue;
    if (boost::iequals(name, "accept-encoding")) {
      command.compressed = true;  // as Chrome's "Copy as cURL" turns it into --compressed
    } else if (boost::iequals(name, "cookie")) {
      cookies.push_back(value);
    } else {
      // `Name;` is curl's header with an empty value (`Name:` would remove it).
      auto line = name;
      line.append(value.empty() ? ";" : ": ").append(value);
      command.headers.push_back({std::move(line), {}});
    }
  }
  if (const auto kept = recorded_cookies(cookies, set_by_responses); !kept.empty()) {
    command.headers.push_back({"Cookie: " + kept, {}});
  }
  if (const auto& body = entry.body) {
    command.data.push_back({DataKind::raw, {body->text, {}}});
    const bool typed = std::any_of(entry.headers.begin(), entry.headers.end(), [](const auto& h) {
      return boost::iequals(h.first, "content-type");
    });
    if (!typed && !body->type.empty()) {
      command.headers.push_back({"Content-Type: " + body->type, {}});
    }
  }
  command.http_version = entry.http_version;
  return command;
}

/// Sets each step's pause: from the end of the replayed entry before it to its own start.
void set_pauses(const std::vector<const HarEntry*>& entries, std::vector<model::Request>& steps) {
  for (std::size_t i = 1; i < steps.size(); ++i) {
    const auto before = entries[i - 1]->end_ms();
    const auto start = entries[i]->start_ms;
    if (!before || !start || *start <= *before) continue;
    steps[i].pause = std::chrono::milliseconds(std::llround(*start - *before));
  }
}

}  // namespace

bool is_har(std::string_view path) { return boost::iends_with(path, ".har"); }

Parsed parse_har_text(std::string_view text, const std::string& name, const HarChoice& choice) {
  const auto entries = read_entries(text, name);
  Chooser chooser(choice, name);
  std::set<std::string> set_by_responses;
  std::vector<const HarEntry*> replayed;
  Parsed parsed;
  std::vector<Warning> warnings;
  const Files files(std::filesystem::path{});  // a HAR names no files
  for (const auto& entry : entries) {
    if (!chooser.left_out(entry).empty()) continue;
    try {
      auto requests = to_requests(command_of(entry, set_by_responses), files, warnings);
      parsed.steps.push_back(std::move(requests.front()));
    } catch (const ParseError& error) {
      throw HarError(entry.where(name) + ": " + error.message());
    }
    for (const auto& cookie : entry.cookies_set) set_by_responses.insert(cookie);
    if (entry.body_missing) {
      parsed.warnings.push_back(entry.where(name) +
                                ": the HAR keeps no text of its body (a file upload?): sent "
                                "without one");
    }
    replayed.push_back(&entry);
  }
  const auto note = chooser.note(replayed.size(), entries.size());
  if (replayed.empty()) {
    throw HarError(name + ": nothing to replay: " + note);
  }
  for (const auto& warning : warnings) parsed.warnings.push_back(name + ": " + warning.text);
  parsed.notes.push_back(name + ": " + note);
  set_pauses(replayed, parsed.steps);
  return parsed;
}

Parsed parse_har_file(const std::string& path, const HarChoice& choice) {
  std::ifstream file(path, std::ios::binary);
  std::error_code error;
  if (std::filesystem::is_directory(path, error) || !file) {
    throw HarError(path + ": cannot read this HAR file (check the path after -p)");
  }
  std::ostringstream text;
  text << file.rdbuf();
  return parse_har_text(text.str(), path, choice);
}

}  // namespace stampede::curl
