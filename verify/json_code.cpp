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

}  // namespace

std::string JsonCode::why_rejected(const model::Response& response) const {
  const auto document = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  const auto expected = std::to_string(code_);
  if (!document.is_object()) {
    return "the body (status " + std::to_string(response.status) +
           ") is not a JSON object, so it has no \"code\" " + expected;
  }
  const auto code = document.find("code");
  if (code == document.end())
    return "the body's JSON object has no \"code\" (-code " + expected + ")";
  return "the body's \"code\" is " +
         code->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + ", not -code " +
         expected;
}

bool JsonCode::accept(const model::Response& response) const {
  const auto document = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (!document.is_object()) return false;
  const auto code = document.find("code");
  return code != document.end() && code_matches(*code, code_);
}

}  // namespace stampede::verify
