// A step's captures run on its response: the value a later request sends as ${NAME}.
#pragma once

#include <boost/regex.hpp>
#include <cstddef>
#include <optional>
#include <string>

#include "model/capture.hpp"
#include "model/response.hpp"

namespace stampede::session {

/// One capture ready for the run: its regular expression compiled once, its slot in the
/// users' captured values. Boost.Regex, not std::regex: libstdc++'s matcher recurses once a
/// character and overflowed the stack on a 5 MB body; Boost's does not, and it gives up (an
/// exception) on a pattern that backtracks without end rather than hang the user.
class CompiledCapture {
 public:
  /// `capture` as parsed (curl::parse_capture checked it); `slot`: its name's index.
  CompiledCapture(model::Capture capture, std::size_t slot);

  /// Writes what `response` holds for the capture into `value`: a JSON string as it is, other
  /// JSON as compact JSON, a header's value, or the regular expression's group (or match).
  /// False when it holds nothing: no body of JSON, no such member or header, no match, null.
  bool extract(const model::Response& response, std::string& value) const;

  [[nodiscard]] const model::Capture& capture() const { return capture_; }
  [[nodiscard]] std::size_t slot() const { return slot_; }

 private:
  bool matched(std::string_view text, std::string& value) const;

  model::Capture capture_;
  std::size_t slot_;
  std::optional<boost::regex> pattern_;
};

}  // namespace stampede::session
