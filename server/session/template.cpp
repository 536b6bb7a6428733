// parse_template() and render(): the variables' grammar, and each one's value for a user.
#include "server/session/template.hpp"

#include <array>
#include <charconv>
#include <chrono>
#include <cstdlib>

namespace stampede::session {

namespace {

constexpr std::string_view known =
    "${seq}, ${user}, ${uuid}, ${rand:A-B}, ${now}, ${now_ms}, ${env:NAME}; $${ is a literal ${";

std::uint64_t number(std::string_view digits, std::string_view inside) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc{} || end != digits.data() + digits.size() || digits.empty()) {
    throw TemplateError("bad range in ${" + std::string(inside) +
                        "} (expected ${rand:A-B}, whole numbers with A <= B)");
  }
  return value;
}

Variable rand_variable(std::string_view range, std::string_view inside) {
  const auto dash = range.find('-');
  if (dash == std::string_view::npos) number("", inside);
  const auto low = number(range.substr(0, dash), inside);
  const auto high = number(range.substr(dash + 1), inside);
  if (high < low) number("", inside);
  return {VariableKind::rand, low, high - low + 1};
}

/// The variable `inside` names, or its value (appended to `piece`) for ${env:NAME}.
bool read_variable(std::string_view inside, Variable& variable, std::string& piece) {
  constexpr std::array<std::pair<std::string_view, VariableKind>, 5> plain{{
      {"seq", VariableKind::seq},
      {"user", VariableKind::user},
      {"uuid", VariableKind::uuid},
      {"now", VariableKind::now},
      {"now_ms", VariableKind::now_ms},
  }};
  for (const auto& [name, kind] : plain) {
    if (inside == name) return variable = {kind}, true;
  }
  if (inside.starts_with("rand:")) return variable = rand_variable(inside.substr(5), inside), true;
  if (inside.starts_with("env:")) {
    const std::string name(inside.substr(4));
    const char* value = std::getenv(name.c_str());  // NOLINT(concurrency-mt-unsafe): read only
    if (value == nullptr) {
      throw TemplateError("${env:" + name + "}: " + name + " is not set in the environment");
    }
    piece += value;
    return false;
  }
  throw TemplateError("unknown variable ${" + std::string(inside) +
                      "} (known: " + std::string(known) + ")");
}

void append_number(std::uint64_t value, std::string& out) {
  std::array<char, 24> digits{};
  const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), value).ptr;
  out.append(digits.data(), end);
}

/// A random (version 4) UUID, RFC 9562: 122 random bits, the version and the variant.
void append_uuid(model::SplitMix64& random, std::string& out) {
  constexpr std::string_view hex = "0123456789abcdef";
  const std::array<std::uint64_t, 2> bits{(random.next() & ~0xF000ULL) | 0x4000ULL,
                                          (random.next() & ~(3ULL << 62U)) | (2ULL << 62U)};
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) out += '-';
    const auto word = bits[static_cast<std::size_t>(i / 16)];
    out += hex[(word >> (60U - 4U * static_cast<unsigned>(i % 16))) & 0xFU];
  }
}

}  // namespace

bool has_template(std::string_view text) { return text.find("${") != std::string_view::npos; }

Template parse_template(std::string_view text) {
  Template parsed;
  std::size_t at = 0;
  while (at < text.size()) {
    if (text.substr(at).starts_with("$${")) {
      parsed.pieces.back() += "${";
      at += 3;
    } else if (text.substr(at).starts_with("${")) {
      const auto close = text.find('}', at + 2);
      if (close == std::string_view::npos) {
        throw TemplateError("unclosed ${ in '" + std::string(text) + "' (" + std::string(known) +
                            ")");
      }
      Variable variable;
      if (read_variable(text.substr(at + 2, close - at - 2), variable, parsed.pieces.back())) {
        parsed.variables.push_back(variable);
        parsed.pieces.emplace_back();
      }
      at = close + 1;
    } else {
      parsed.pieces.back() += text[at++];
    }
  }
  return parsed;
}

void render(const Template& text, UserValues& values, std::string& out) {
  using std::chrono::system_clock;
  out += text.pieces.front();
  for (std::size_t i = 0; i < text.variables.size(); ++i) {
    const auto& variable = text.variables[i];
    switch (variable.kind) {
      case VariableKind::seq:
        append_number(values.round, out);
        break;
      case VariableKind::user:
        append_number(values.user, out);
        break;
      case VariableKind::uuid:
        append_uuid(values.random, out);
        break;
      case VariableKind::rand:
        append_number(variable.low + values.random.below(variable.span), out);
        break;
      case VariableKind::now:
      case VariableKind::now_ms: {
        const auto since = system_clock::now().time_since_epoch();
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(since).count();
        append_number(
            static_cast<std::uint64_t>(variable.kind == VariableKind::now ? ms / 1000 : ms), out);
        break;
      }
    }
    out += text.pieces[i + 1];
  }
}

}  // namespace stampede::session
