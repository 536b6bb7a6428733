// One HAR entry as stampede reads it: the request, what kind of resource it fetched, its times.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/request.hpp"

namespace stampede::curl {

/// A recorded request body.
struct HarBody {
  std::string text;
  std::string type;  ///< postData.mimeType
};

/// The parts of a HAR 1.2 entry a replay needs, read from Chrome's, Firefox's or Safari's shape.
struct HarEntry {
  std::size_t number = 0;  ///< from 1, in the file's order
  std::string method;
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  ///< as recorded, in order
  std::optional<HarBody> body;
  bool body_missing = false;  ///< a body the HAR does not keep (a multipart upload's files)
  model::HttpVersion http_version = model::HttpVersion::any;
  std::optional<double> start_ms;        ///< startedDateTime, in ms since 1970
  double time_ms = 0;                    ///< the whole exchange, as the browser timed it
  std::vector<std::string> cookies_set;  ///< the names of the cookies its response set
  /// What static asset it fetched: "image", "font", "stylesheet", "script", "media file";
  /// empty for anything else (a page, an API call).
  std::string static_kind;

  /// True for http:// and https:// (not data:, blob:, ws: or an extension's URL).
  [[nodiscard]] bool http() const;
  /// When its exchange ended, in ms since 1970, if its start is known.
  [[nodiscard]] std::optional<double> end_ms() const;
  /// "FILE: entry N (METHOD URL)", for messages.
  [[nodiscard]] std::string where(const std::string& file) const;
};

/// The entries of the HAR `text` (named `name` in messages), in order. Throws HarError when it
/// is not JSON, has no `log.entries`, or an entry has no request method or URL.
std::vector<HarEntry> read_entries(std::string_view text, const std::string& name);

/// True for the kinds HarEntry::static_kind names.
bool is_static_kind(std::string_view kind);

/// Milliseconds since 1970 of an ISO 8601 date and time as HAR writes them
/// (`2026-12-02T13:01:02.123Z`, `...+01:00`); nullopt for anything else.
std::optional<double> iso8601_ms(std::string_view text);

}  // namespace stampede::curl
