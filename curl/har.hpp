// A HAR file (a browser's "Save all as HAR") -> the steps of model::Request it replays.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "curl/parse.hpp"

namespace stampede::curl {

/// A HAR file stampede cannot replay: not JSON, not HAR, a bad regex, an entry it cannot send,
/// or nothing left to replay. what() is one line naming the file (and the entry).
class HarError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Which entries are replayed. Without `include`, all but static assets (images, fonts, CSS,
/// scripts, media), which a load test of a service rarely wants and a CDN would serve.
struct HarChoice {
  std::string include;  ///< --har-include: only entries whose URL this regex finds a match in
  std::string exclude;  ///< --har-exclude: then leaves out those whose URL it finds a match in
};

/// True for a file to be read as HAR: its name ends in `.har`, in any case.
bool is_har(std::string_view path);

/// The chosen entries of the HAR at `path`, in the file's order, each as curl would send it:
/// method, URL, the headers a client does not set itself, the body, and the cookies no earlier
/// replayed response set (those come from the user's cookie jar). Each step's `pause` is the
/// time the browser's user waited before it (--think har). `notes` says which entries were
/// chosen. Throws HarError.
Parsed parse_har_file(const std::string& path, const HarChoice& choice);

/// The same for `text` already in memory, named `name` in messages.
Parsed parse_har_text(std::string_view text, const std::string& name, const HarChoice& choice);

}  // namespace stampede::curl
