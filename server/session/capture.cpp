// CompiledCapture: a JSON Pointer into the body (nlohmann::json), a header, a regular expression.
#include "server/session/capture.hpp"

#include <nlohmann/json.hpp>

namespace stampede::session {

CompiledCapture::CompiledCapture(model::Capture capture, std::size_t slot)
    : capture_(std::move(capture)), slot_(slot) {
  if (!capture_.pattern.empty()) pattern_.emplace(capture_.pattern);
}

bool CompiledCapture::matched(std::string_view text, std::string& value) const {
  if (!pattern_) {
    value = text;
    return true;
  }
  boost::match_results<std::string_view::const_iterator> match;
  try {
    if (!boost::regex_search(text.begin(), text.end(), match, *pattern_)) return false;
  } catch (const std::runtime_error&) {  // too complex to match: nothing found
    return false;
  }
  const auto& kept = match.size() > 1 ? match[1] : match[0];
  if (!kept.matched) return false;
  value.assign(kept.first, kept.second);
  return true;
}

bool CompiledCapture::extract(const model::Response& response, std::string& value) const {
  switch (capture_.source) {
    case model::CaptureSource::json:
      try {
        const auto body = nlohmann::json::parse(response.body, nullptr, false);
        const nlohmann::json::json_pointer pointer(capture_.path);
        if (body.is_discarded() || !body.contains(pointer) || body.at(pointer).is_null()) {
          return false;
        }
        const auto& found = body.at(pointer);
        value = found.is_string() ? found.get<std::string>() : found.dump();
        return true;
      } catch (const nlohmann::json::exception&) {  // a pointer through a scalar, say
        return false;
      }
    case model::CaptureSource::header:
      for (const auto& [name, header_value] : response.headers) {
        if (name == capture_.path) return matched(header_value, value);
      }
      return false;
    case model::CaptureSource::body:
      return matched(response.body, value);
  }
  return false;
}

}  // namespace stampede::session
