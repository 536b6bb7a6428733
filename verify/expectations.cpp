// The --expect-* checks and the verifier that runs them in order.
#include "verify/expectations.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <stdexcept>
#include <utility>

namespace stampede::verify {

namespace {

using Json = nlohmann::json;

class StatusIn final : public Check {
 public:
  StatusIn(std::string name, std::vector<std::pair<int, int>> ranges)
      : Check(std::move(name)), ranges_(std::move(ranges)) {}
  [[nodiscard]] bool holds(const model::Response& response) const override {
    if (response.websocket) return true;
    for (const auto& [low, high] : ranges_) {
      if (response.status >= low && response.status <= high) return true;
    }
    return false;
  }
  [[nodiscard]] std::string why_not(const model::Response& response) const override {
    return "status " + std::to_string(response.status) + ", not " + name();
  }
  [[nodiscard]] bool needs_body() const override { return false; }

 private:
  std::vector<std::pair<int, int>> ranges_;
};

/// What a JSON pointer check asks of the value it points at.
enum class JsonTest : unsigned char { exists, equals, matches };

class JsonAt final : public Check {
 public:
  JsonAt(std::string name, Json::json_pointer pointer, JsonTest test, std::string operand)
      : Check(std::move(name)),
        pointer_(std::move(pointer)),
        test_(test),
        operand_(std::move(operand)),
        expected_(Json::parse(operand_, nullptr, false)),
        regex_(test == JsonTest::matches ? std::regex(operand_) : std::regex()) {}

  [[nodiscard]] bool holds(const model::Response& response) const override {
    const auto body = Json::parse(response.body, nullptr, false);
    if (body.is_discarded() || !body.contains(pointer_)) return false;
    const auto& value = body.at(pointer_);
    const auto text = value.is_string() ? value.get<std::string>() : value.dump();
    switch (test_) {
      case JsonTest::exists:
        return true;
      case JsonTest::equals:
        return (!expected_.is_discarded() && value == expected_) ||
               (value.is_string() && text == operand_);
      case JsonTest::matches:
        return std::regex_search(text, regex_);
    }
    return false;
  }
  [[nodiscard]] std::string why_not(const model::Response& response) const override {
    const auto body = Json::parse(response.body, nullptr, false);
    if (body.is_discarded()) return "the body is not JSON (" + name() + ")";
    if (!body.contains(pointer_))
      return pointer_.to_string() + " is not in the body (" + name() + ")";
    return pointer_.to_string() + " is " + body.at(pointer_).dump() + " (" + name() + ")";
  }
  [[nodiscard]] bool needs_body() const override { return true; }

 private:
  Json::json_pointer pointer_;
  JsonTest test_;
  std::string operand_;
  Json expected_;  ///< the operand as JSON; discarded when it is not JSON (compared as text)
  std::regex regex_;
};

class BodyMatches final : public Check {
 public:
  BodyMatches(std::string name, const std::string& regex) : Check(std::move(name)), regex_(regex) {}
  [[nodiscard]] bool holds(const model::Response& response) const override {
    return std::regex_search(response.body, regex_);
  }
  [[nodiscard]] std::string why_not(const model::Response& response) const override {
    return "the body (" + std::to_string(response.body.size()) + " bytes) does not match (" +
           name() + ")";
  }
  [[nodiscard]] bool needs_body() const override { return true; }

 private:
  std::regex regex_;
};

class BodySize final : public Check {
 public:
  BodySize(std::string name, std::uint64_t size) : Check(std::move(name)), size_(size) {}
  [[nodiscard]] bool holds(const model::Response& response) const override {
    return response.body.size() == size_;
  }
  [[nodiscard]] std::string why_not(const model::Response& response) const override {
    return "the body is " + std::to_string(response.body.size()) + " bytes (" + name() + ")";
  }
  [[nodiscard]] bool needs_body() const override { return true; }

 private:
  std::uint64_t size_;
};

class HeaderMatches final : public Check {
 public:
  HeaderMatches(std::string name, std::string header, std::optional<std::regex> regex)
      : Check(std::move(name)), header_(std::move(header)), regex_(std::move(regex)) {}
  [[nodiscard]] bool holds(const model::Response& response) const override {
    return std::any_of(response.headers.begin(), response.headers.end(), [this](const auto& h) {
      return h.first == header_ && (!regex_ || std::regex_search(h.second, *regex_));
    });
  }
  [[nodiscard]] std::string why_not(const model::Response& response) const override {
    for (const auto& [name, value] : response.headers) {
      if (name == header_) return header_ + " is '" + value + "' (" + this->name() + ")";
    }
    return "no " + header_ + " header (" + name() + ")";
  }
  [[nodiscard]] bool needs_body() const override { return false; }
  [[nodiscard]] std::string header() const override { return header_; }

 private:
  std::string header_;
  std::optional<std::regex> regex_;
};

/// The -v verifier as the first check.
class BaseCheck final : public Check {
 public:
  BaseCheck(std::string name, std::unique_ptr<Verifier> base)
      : Check(std::move(name)), base_(std::move(base)) {}
  [[nodiscard]] bool holds(const model::Response& response) const override {
    return base_->accept(response);
  }
  [[nodiscard]] std::string why_not(const model::Response& response) const override {
    return base_->why_rejected(response);
  }
  [[nodiscard]] bool needs_body() const override { return base_->needs_body(); }

 private:
  std::unique_ptr<Verifier> base_;
};

class Expectations final : public Verifier {
 public:
  explicit Expectations(std::vector<std::unique_ptr<Check>> checks) : checks_(std::move(checks)) {}
  [[nodiscard]] bool accept(const model::Response& response) const override {
    return failed_check(response) == 0;
  }
  [[nodiscard]] std::string why_rejected(const model::Response& response) const override {
    const auto failed = failed_check(response);
    return failed == 0 ? std::string() : checks_[failed - 1]->why_not(response);
  }
  [[nodiscard]] bool needs_body() const override {
    for (const auto& check : checks_) {
      if (check->needs_body()) return true;
    }
    return false;
  }
  [[nodiscard]] std::vector<std::string> headers_read() const override {
    std::vector<std::string> headers;
    for (const auto& check : checks_) {
      auto header = check->header();
      if (!header.empty() && std::find(headers.begin(), headers.end(), header) == headers.end()) {
        headers.push_back(std::move(header));
      }
    }
    return headers;
  }
  [[nodiscard]] std::vector<std::string> checks() const override {
    std::vector<std::string> names;
    for (const auto& check : checks_) names.push_back(check->name());
    return names;
  }
  [[nodiscard]] std::uint8_t failed_check(const model::Response& response) const override {
    for (std::size_t i = 0; i < checks_.size(); ++i) {
      if (!checks_[i]->holds(response)) return static_cast<std::uint8_t>(i + 1);
    }
    return 0;
  }

 private:
  std::vector<std::unique_ptr<Check>> checks_;
};

int status_of(std::string_view text, std::string_view list) {
  int code = 0;
  const auto* end = text.data() + text.size();
  const auto [rest, error] = std::from_chars(text.data(), end, code);
  if (text.empty() || error != std::errc() || rest != end || code < 100 || code > 599) {
    throw std::invalid_argument("--expect-status '" + std::string(list) + "': '" +
                                std::string(text) +
                                "' is not a status from 100 to 599 (as in 200,204,300-399)");
  }
  return code;
}

std::regex regex_of(const std::string& text, std::string_view flag) {
  try {
    return std::regex(text);
  } catch (const std::regex_error& error) {
    throw std::invalid_argument(std::string(flag) + " '" + text + "': not a regex (" +
                                error.what() + ")");
  }
}

}  // namespace

std::unique_ptr<Check> expect_header(std::string_view text) {
  const auto colon = text.find(':');
  std::string header(text.substr(0, colon));
  const bool token = !header.empty() && std::all_of(header.begin(), header.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
  if (colon == std::string_view::npos || !token) {
    throw std::invalid_argument("--expect-header '" + std::string(text) +
                                "': give 'Name: REGEX' (as 'Content-Type: json'), or 'Name:'");
  }
  std::transform(header.begin(), header.end(), header.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  auto pattern = std::string(text.substr(colon + 1));
  pattern.erase(0, pattern.find_first_not_of(" \t"));
  std::optional<std::regex> regex;
  if (!pattern.empty()) regex = regex_of(pattern, "--expect-header");
  return std::make_unique<HeaderMatches>("--expect-header " + std::string(text), std::move(header),
                                         std::move(regex));
}

std::unique_ptr<Check> expect_status(std::string_view list) {
  std::vector<std::pair<int, int>> ranges;
  for (std::size_t from = 0; from <= list.size();) {
    auto comma = list.find(',', from);
    if (comma == std::string_view::npos) comma = list.size();
    const auto piece = list.substr(from, comma - from);
    const auto dash = piece.find('-');
    const int low = status_of(piece.substr(0, dash), list);
    const int high = dash == std::string_view::npos ? low : status_of(piece.substr(dash + 1), list);
    if (high < low) {
      throw std::invalid_argument("--expect-status '" + std::string(list) + "': '" +
                                  std::string(piece) + "' is a range from high to low");
    }
    ranges.emplace_back(low, high);
    from = comma + 1;
  }
  return std::make_unique<StatusIn>("--expect-status " + std::string(list), std::move(ranges));
}

std::unique_ptr<Check> expect_json(std::string_view text) {
  const auto at = text.find_first_of("=~");
  const auto pointer_text = std::string(text.substr(0, at));
  const auto test = at == std::string_view::npos ? JsonTest::exists
                    : text[at] == '='            ? JsonTest::equals
                                                 : JsonTest::matches;
  const auto operand =
      at == std::string_view::npos ? std::string() : std::string(text.substr(at + 1));
  Json::json_pointer pointer;
  try {
    pointer = Json::json_pointer(pointer_text);
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument("--expect-json '" + std::string(text) +
                                "': not a JSON pointer before = or ~ (as in /data/id=42, "
                                "/data/id, /msg~^ok)");
  }
  if (test == JsonTest::matches) (void)regex_of(operand, "--expect-json");
  return std::make_unique<JsonAt>("--expect-json " + std::string(text), std::move(pointer), test,
                                  operand);
}

std::unique_ptr<Check> expect_body(std::string_view regex) {
  const std::string text(regex);
  (void)regex_of(text, "--expect-body");
  return std::make_unique<BodyMatches>("--expect-body " + text, text);
}

std::unique_ptr<Check> expect_size(std::uint64_t size) {
  return std::make_unique<BodySize>("--expect-size " + std::to_string(size), size);
}

std::unique_ptr<Verifier> expectations(std::unique_ptr<Verifier> base, std::string base_name,
                                       std::vector<std::unique_ptr<Check>> checks) {
  std::vector<std::unique_ptr<Check>> all;
  if (base) all.push_back(std::make_unique<BaseCheck>(std::move(base_name), std::move(base)));
  for (auto& check : checks) all.push_back(std::move(check));
  return std::make_unique<Expectations>(std::move(all));
}

}  // namespace stampede::verify
