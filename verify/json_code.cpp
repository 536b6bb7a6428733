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

bool JsonCode::accept(const model::Response& response) const {
  const auto document = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (!document.is_object()) return false;
  const auto code = document.find("code");
  return code != document.end() && code_matches(*code, code_);
}

}  // namespace stampede::verify
