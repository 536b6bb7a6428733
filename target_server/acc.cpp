// The /acc WebSocket endpoint's answers: a syntax-only JSON reader and the replies it picks.
#include "target_server/acc.hpp"

#include <cstddef>

namespace stampede::target_server {
namespace {

/// Checks JSON syntax (RFC 8259) in one pass, allocating nothing, and hands out the top-level
/// object's members as written: all /acc needs, without a JSON library in the target.
class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  /// Reads the whole text as one object, calling on_member(key, value) for each of its members
  /// (both as written: a string keeps its quotes and escapes). False if the text is not one
  /// object, or nests deeper than max_json_depth.
  template <class OnMember>
  bool whole_object(OnMember on_member) {
    skip_space();
    if (!object(1, on_member)) return false;
    skip_space();
    return at_ == text_.size();
  }

 private:
  [[nodiscard]] char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
  bool eat(char c) {  // c is never '\0', which peek() gives at the end
    if (peek() != c) return false;
    ++at_;
    return true;
  }
  void skip_space() {
    while (at_ < text_.size() &&
           (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) {
      ++at_;
    }
  }
  bool digits() {
    const auto start = at_;
    while (peek() >= '0' && peek() <= '9') ++at_;
    return at_ > start;
  }
  bool literal(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  template <class OnMember>
  bool object(int depth, OnMember on_member);
  bool array(int depth);
  bool value(int depth);
  bool string();
  bool number();

  std::string_view text_;
  std::size_t at_ = 0;
};

template <class OnMember>
bool JsonReader::object(int depth, OnMember on_member) {
  if (depth > max_json_depth || !eat('{')) return false;
  skip_space();
  if (eat('}')) return true;
  do {
    skip_space();
    const auto key_start = at_;
    if (!string()) return false;
    const auto key = text_.substr(key_start, at_ - key_start);
    skip_space();
    if (!eat(':')) return false;
    skip_space();
    const auto value_start = at_;
    if (!value(depth)) return false;
    on_member(key, text_.substr(value_start, at_ - value_start));
    skip_space();
  } while (eat(','));
  return eat('}');
}

bool JsonReader::array(int depth) {
  if (depth > max_json_depth || !eat('[')) return false;
  skip_space();
  if (eat(']')) return true;
  do {
    skip_space();
    if (!value(depth)) return false;
    skip_space();
  } while (eat(','));
  return eat(']');
}

bool JsonReader::value(int depth) {
  switch (peek()) {
    case '{':
      return object(depth + 1, [](std::string_view, std::string_view) {});
    case '[':
      return array(depth + 1);
    case '"':
      return string();
    case 't':
      return literal("true");
    case 'f':
      return literal("false");
    case 'n':
      return literal("null");
    default:
      return number();
  }
}

bool JsonReader::string() {
  if (!eat('"')) return false;
  while (at_ < text_.size()) {
    const char c = text_[at_++];
    if (c == '"') return true;
    if (static_cast<unsigned char>(c) < 0x20) return false;  // control characters are escaped
    if (c != '\\') continue;
    if (at_ == text_.size()) return false;
    const char escaped = text_[at_++];
    if (escaped == 'u') {
      for (int i = 0; i < 4; ++i, ++at_) {
        const char h = peek();
        const bool hex = (h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F');
        if (!hex) return false;
      }
    } else if (std::string_view(R"("\/bfnrt)").find(escaped) == std::string_view::npos) {
      return false;
    }
  }
  return false;  // unterminated
}

bool JsonReader::number() {
  eat('-');
  if (!eat('0') && !digits()) return false;
  if (eat('.') && !digits()) return false;
  if (peek() == 'e' || peek() == 'E') {
    ++at_;
    if (!eat('+')) eat('-');
    if (!digits()) return false;
  }
  return true;
}

/// What /acc reads of a request: its seq and cmd as written, if they are strings.
struct AccRequest {
  bool json_object = false;
  std::string_view seq;  ///< with its quotes; empty if absent or not a string
  std::string_view cmd;
};

AccRequest read_request(std::string_view message) {
  AccRequest request;
  JsonReader reader(message);
  request.json_object =
      reader.whole_object([&request](std::string_view key, std::string_view value) {
        // Keys are compared as written: "s\u0065q" is not seq.
        if (!value.starts_with('"')) return;
        if (key == R"("seq")") request.seq = value;
        if (key == R"("cmd")") request.cmd = value;
      });
  if (!request.json_object) request = {};
  return request;
}

std::string reply(std::string_view seq, std::string_view cmd, int code, std::string_view message) {
  std::string text;
  text.reserve(seq.size() + cmd.size() + 96);
  text.append(R"({"seq":)").append(seq.empty() ? R"("")" : seq);
  text.append(R"(,"cmd":)").append(cmd.empty() ? R"("")" : cmd);
  text.append(R"(,"response":{"code":)").append(std::to_string(code));
  text.append(R"(,"codeMsg":")").append(message).append(R"(","data":null}})");
  return text;
}

}  // namespace

std::string acc_reply(std::string_view message, bool text) {
  const auto request = text ? read_request(message) : AccRequest{};
  if (request.seq.empty() || request.cmd.empty()) {
    return reply(request.seq, request.cmd, 400, "bad request");
  }
  if (request.cmd == R"("ping")") return reply(request.seq, request.cmd, 200, "Success");
  return reply(request.seq, request.cmd, 404, "unknown cmd");
}

}  // namespace stampede::target_server
