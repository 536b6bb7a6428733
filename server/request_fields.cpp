// FieldsTemplate: each field parsed once, each made safe for its place when rendered.
#include "server/request_fields.hpp"

namespace stampede::server {

namespace {

session::Template placed(const std::string& text, session::TemplateNames names,
                         session::Place place) {
  auto parsed = session::parse_template(text, names);
  session::place_variables(parsed, place);
  return parsed;
}

}  // namespace

std::optional<FieldsTemplate> FieldsTemplate::of(const model::Request& request,
                                                 session::TemplateNames names) {
  bool varies = session::has_template(request.target) || session::has_template(request.body);
  FieldsTemplate parsed;
  parsed.target_ = placed(request.target, names, session::Place::target);
  parsed.body_ = placed(request.body, names, session::Place::body);
  for (const auto& [name, value] : request.headers) {
    parsed.headers_.push_back(placed(value, names, session::Place::header));
    varies = varies || session::has_template(value);
  }
  if (!varies) return std::nullopt;
  return parsed;
}

void FieldsTemplate::render(const model::Request& base, session::UserValues& values,
                            model::Request& out) const {
  out = base;
  out.target.clear();
  session::render(target_, values, out.target);
  out.body.clear();
  session::render(body_, values, out.body);
  for (std::size_t i = 0; i < headers_.size(); ++i) {
    out.headers[i].second.clear();
    session::render(headers_[i], values, out.headers[i].second);
  }
}

}  // namespace stampede::server
