// `${...}` in a request's own fields (target, header values, body), for a step whose exchange may
// send more requests than its first: a redirect's hops and --digest's answer are built from the
// request as the user sent it, so they carry the same values.
#pragma once

#include <optional>
#include <vector>

#include "model/request.hpp"
#include "server/session/template.hpp"

namespace stampede::server {

/// The templates of a request's target, header values and body, rendered into a copy of the
/// request that is then prepared (RequestTemplate renders the prepared bytes instead, which no
/// later request could be built from).
class FieldsTemplate {
 public:
  /// The templates of `request`, or nullopt when none of its fields has a variable; `names` are
  /// the run's captured variables and --data-file's columns. Throws session::TemplateError.
  static std::optional<FieldsTemplate> of(const model::Request& request,
                                          session::TemplateNames names);

  /// Writes `base` with `values` rendered into `out` (its buffers reused).
  void render(const model::Request& base, session::UserValues& values, model::Request& out) const;

 private:
  session::Template target_;
  std::vector<session::Template> headers_;  ///< the header values, in order
  session::Template body_;
};

}  // namespace stampede::server
