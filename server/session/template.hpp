// `${...}` in a request: parsed once before the run, rendered for each request a user sends.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/split_mix.hpp"

namespace stampede::session {

/// What one `${...}` stands for.
enum class VariableKind : unsigned char {
  seq,       ///< ${seq}: the user's round, from 0
  user,      ///< ${user}: the user's number, from 0 to -c - 1
  uuid,      ///< ${uuid}: a random version 4 UUID
  rand,      ///< ${rand:A-B}: a whole number from A to B
  now,       ///< ${now}: seconds since 1970
  now_ms,    ///< ${now_ms}: milliseconds since 1970
  captured,  ///< ${NAME}: what a capture of the flow last kept (empty before it first does)
  csv,       ///< ${csv:COLUMN}: the column's value in the round's row of --data-file
};

/// Where in a request a variable is: its value is made safe for that place.
enum class Place : unsigned char {
  body,    ///< as it is
  target,  ///< the URL's path or query: percent-encoded but for letters, digits and -._~
  /// a header's value: CR, LF and NUL become spaces, so no header can be added, and the
  /// request is marked unsafe (UserValues::unsafe): it is not sent
  header,
};

/// One variable of a template.
struct Variable {
  VariableKind kind = VariableKind::seq;
  std::uint64_t low = 0;   ///< ${rand:A-B}'s A
  std::uint64_t span = 0;  ///< ${rand:A-B}'s B - A + 1 (0: all 2^64 values)
  std::size_t slot = 0;    ///< a captured variable's or a column's index in TemplateNames
  Place place = Place::body;
};

/// The names a run gives besides stampede's own variables.
struct TemplateNames {
  std::span<const std::string> captured;  ///< what the flow's captures keep, in slot order
  std::span<const std::string> columns;   ///< --data-file's columns, in order
};

/// True when `name` is one of the variables stampede gives (`seq`, `uuid`...): no capture may
/// take it.
bool is_builtin(std::string_view name);

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

/// Reads `text`'s `${seq}`, `${user}`, `${uuid}`, `${rand:A-B}`, `${now}`, `${now_ms}`,
/// `${env:NAME}` (replaced at once by the variable's value), `${NAME}` for each captured name
/// and `${csv:COLUMN}` for each column of `names`; `$${` is a literal `${`. Throws
/// TemplateError naming what is wrong.
Template parse_template(std::string_view text, TemplateNames names = {});

/// Marks each variable of `text` as being in `place`; with `first_line`, those before the
/// text's first CRLF are in `first_line` instead (an HTTP/1.1 head: the request line, then the
/// headers).
void place_variables(Template& text, Place place, std::optional<Place> first_line = {});

/// True when `text` has a `${` (or `$${`) that parse_template() would read.
bool has_template(std::string_view text);

/// What a user's variables are worth for its next request.
struct UserValues {
  explicit UserValues(std::uint64_t user_number) : user(user_number), random(user_number) {}

  std::uint64_t user;
  std::uint64_t round = 0;
  model::SplitMix64 random;  ///< seeded with the user's number: a rerun draws the same values
  std::vector<std::string> captured;              ///< by slot: what the user's captures last kept
  const std::vector<std::string>* row = nullptr;  ///< the round's --data-file row, if any
  /// The last variable render() put CR, LF or NUL from into a header, if any: the caller
  /// clears it before rendering a request and refuses to send one it is set for.
  std::optional<Variable> unsafe;
};

/// Appends `text` rendered with `values` to `out`.
void render(const Template& text, UserValues& values, std::string& out);

}  // namespace stampede::session
