// parse_template() and render(): the variables' grammar, and each one's value for a user.
#include "server/session/template.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>

namespace stampede::session {

namespace {

constexpr std::string_view known =
    "${seq}, ${user}, ${uuid}, ${rand:A-B}, ${now}, ${now_ms}, ${env:NAME}, ${csv:COLUMN}; $${ "
    "is a literal ${";

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

constexpr std::array<std::pair<std::string_view, VariableKind>, 5> plain{{
    {"seq", VariableKind::seq},
    {"user", VariableKind::user},
    {"uuid", VariableKind::uuid},
    {"now", VariableKind::now},
    {"now_ms", VariableKind::now_ms},
}};

std::string known_list(TemplateNames names) {
  std::string text(known);
  if (!names.captured.empty()) text += "; captured:";
  for (const auto& name : names.captured) text += " ${" + name + "}";
  return text;
}

Variable csv_variable(std::string_view column, TemplateNames names) {
  if (names.columns.empty()) {
    throw TemplateError("${csv:" + std::string(column) +
                        "} needs --data-file FILE.csv, whose header names the columns");
  }
  const auto found = std::find(names.columns.begin(), names.columns.end(), column);
  if (found == names.columns.end()) {
    std::string columns;
    for (const auto& name : names.columns) columns += (columns.empty() ? "" : ", ") + name;
    throw TemplateError("${csv:" + std::string(column) + "}: --data-file has no column '" +
                        std::string(column) + "' (its columns: " + columns + ")");
  }
  return {VariableKind::csv, 0, 0, static_cast<std::size_t>(found - names.columns.begin())};
}

/// The variable `inside` names, or its value (appended to `piece`) for ${env:NAME}.
bool read_variable(std::string_view inside, TemplateNames names, Variable& variable,
                   std::string& piece) {
  for (const auto& [name, kind] : plain) {
    if (inside == name) return variable = {kind}, true;
  }
  const auto& captured = names.captured;
  for (std::size_t slot = 0; slot < captured.size(); ++slot) {
    if (inside == captured[slot]) return variable = {VariableKind::captured, 0, 0, slot}, true;
  }
  if (inside.starts_with("csv:")) return variable = csv_variable(inside.substr(4), names), true;
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
                      "} (known: " + known_list(names) + ")");
}

/// Appends `value` made safe for `place`; false when it had CR, LF or NUL for a header.
bool append_value(std::string_view value, Place place, std::string& out) {
  bool safe = true;
  constexpr std::string_view hex = "0123456789ABCDEF";
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if (place == Place::target && std::isalnum(byte) == 0 && c != '-' && c != '.' && c != '_' &&
        c != '~') {
      out += '%';
      out += hex[byte >> 4U];
      out += hex[byte & 0xFU];
    } else if (place == Place::header && (c == '\r' || c == '\n' || c == '\0')) {
      out += ' ';
      safe = false;
    } else {
      out += c;
    }
  }
  return safe;
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

bool is_builtin(std::string_view name) {
  return std::any_of(plain.begin(), plain.end(),
                     [&](const auto& entry) { return entry.first == name; }) ||
         name == "rand" || name == "env" || name == "csv";
}

void place_variables(Template& text, Place place, std::optional<Place> first_line) {
  bool in_first_line = first_line.has_value();
  for (std::size_t i = 0; i < text.variables.size(); ++i) {
    in_first_line = in_first_line && text.pieces[i].find("\r\n") == std::string::npos;
    text.variables[i].place = in_first_line ? *first_line : place;
  }
}

Template parse_template(std::string_view text, TemplateNames names) {
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
      if (read_variable(text.substr(at + 2, close - at - 2), names, variable,
                        parsed.pieces.back())) {
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
      case VariableKind::captured:
        if (!append_value(values.captured[variable.slot], variable.place, out)) {
          values.unsafe = variable;
        }
        break;
      case VariableKind::csv:
        if (!append_value((*values.row)[variable.slot], variable.place, out)) {
          values.unsafe = variable;
        }
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
