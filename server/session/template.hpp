// `${...}` in a request: parsed once before the run, rendered for each request a user sends.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/split_mix.hpp"

namespace stampede::session {

/// What one `${...}` stands for.
enum class VariableKind : unsigned char {
  seq,     ///< ${seq}: the user's round, from 0
  user,    ///< ${user}: the user's number, from 0 to -c - 1
  uuid,    ///< ${uuid}: a random version 4 UUID
  rand,    ///< ${rand:A-B}: a whole number from A to B
  now,     ///< ${now}: seconds since 1970
  now_ms,  ///< ${now_ms}: milliseconds since 1970
};

/// One variable of a template.
struct Variable {
  VariableKind kind = VariableKind::seq;
  std::uint64_t low = 0;   ///< ${rand:A-B}'s A
  std::uint64_t span = 0;  ///< ${rand:A-B}'s B - A + 1 (0: all 2^64 values)
};

/// Text with variables in it: `pieces` of literal text around `variables`, one more piece than
/// variables.
struct Template {
  std::vector<std::string> pieces{std::string()};
  std::vector<Variable> variables;

  /// True when there is nothing to render: the text is its one piece.
  [[nodiscard]] bool constant() const { return variables.empty(); }
};

/// A template stampede cannot render: an unknown variable, a bad range, an unclosed `${`.
class TemplateError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Reads `text`'s `${seq}`, `${user}`, `${uuid}`, `${rand:A-B}`, `${now}`, `${now_ms}` and
/// `${env:NAME}` (replaced at once by the variable's value); `$${` is a literal `${`. Throws
/// TemplateError naming what is wrong.
Template parse_template(std::string_view text);

/// True when `text` has a `${` (or `$${`) that parse_template() would read.
bool has_template(std::string_view text);

/// What a user's variables are worth for its next request.
struct UserValues {
  explicit UserValues(std::uint64_t user_number) : user(user_number), random(user_number) {}

  std::uint64_t user;
  std::uint64_t round = 0;
  model::SplitMix64 random;  ///< seeded with the user's number: a rerun draws the same values
};

/// Appends `text` rendered with `values` to `out`.
void render(const Template& text, UserValues& values, std::string& out);

}  // namespace stampede::session
