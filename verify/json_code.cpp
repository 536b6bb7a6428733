// JsonCode: parse the body without exceptions and compare its top-level "code".
#include "verify/json_code.hpp"

#include <charconv>
#include <nlohmann/json.hpp>

namespace stampede::verify {

namespace {

/// go-stress-testing's servers answer "code": 200 or "code": "200"; accept both.
bool code_matches(const nlohmann::json& code, int expected) {
  if (code.is_number_integer()) return code.get<long long>() == expected;
  if (!code.is_string()) return false;
  const auto& text = code.get_ref<const std::string&>();
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc{} && end == text.data() + text.size() && value == expected;
}

/// The top-level "code", or, in a WebSocket reply without one, that of go-stress-testing's
/// shape {"seq":..,"cmd":..,"response":{"code":..}}; null when there is none.
const nlohmann::json* code_of(const nlohmann::json& document, const model::Response& response) {
  if (const auto code = document.find("code"); code != document.end()) return &*code;
  if (!response.websocket) return nullptr;
  const auto inner = document.find("response");
  if (inner == document.end() || !inner->is_object()) return nullptr;
  const auto code = inner->find("code");
  return code != inner->end() ? &*code : nullptr;
}

/// A reply to go-stress-testing's ping must echo its "seq", as go-stress-testing checks.
bool seq_matches(const nlohmann::json& document, const model::Response& response) {
  if (response.sent_seq.empty()) return true;
  const auto seq = document.find("seq");
  return seq != document.end() && seq->is_string() &&
         seq->get_ref<const std::string&>() == response.sent_seq;
}

std::string dump(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string JsonCode::why_rejected(const model::Response& response) const {
  const auto document = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  const auto expected = std::to_string(code_);
  if (!document.is_object()) {
    return "the body (status " + std::to_string(response.status) +
           ") is not a JSON object, so it has no \"code\" " + expected;
  }
  if (!seq_matches(document, response)) {
    return "the reply's \"seq\" is " + dump(document.value("seq", nlohmann::json())) +
           ", not the ping's \"" + response.sent_seq + "\"";
  }
  const auto* code = code_of(document, response);
  if (code == nullptr) return "the body's JSON object has no \"code\" (-code " + expected + ")";
  return "the body's \"code\" is " + dump(*code) + ", not -code " + expected;
}

bool JsonCode::accept(const model::Response& response) const {
  const auto document = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (!document.is_object() || !seq_matches(document, response)) return false;
  const auto* code = code_of(document, response);
  return code != nullptr && code_matches(*code, code_);
}

}  // namespace stampede::verify
