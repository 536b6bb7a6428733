// check_step_variables(): a template error is a usage error, found before a request is sent.
#include "cmd/step_variables.hpp"

#include <string>

#include "cmd/options.hpp"
#include "model/protocol.hpp"
#include "server/session/template.hpp"

namespace stampede::cmd {

namespace {

/// `text` is `where` of step `step` of `count` (for the message).
bool check(std::string_view text, const std::string& where, std::size_t step, std::size_t count) {
  if (!session::has_template(text)) return false;
  try {
    (void)session::parse_template(text);
  } catch (const session::TemplateError& error) {
    const auto step_name = count > 1 ? "step " + std::to_string(step + 1) + "'s " : std::string();
    throw UsageError(step_name + where + ": " + error.what());
  }
  return true;
}

}  // namespace

void check_step_variables(const std::vector<model::Request>& steps) {
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& step = steps[i];
    bool any = check(step.target, "URL", i, steps.size());
    for (const auto& [name, value] : step.headers) any = check(value, name, i, steps.size()) || any;
    any = check(step.body, "body", i, steps.size()) || any;
    const auto protocol = model::protocol_of(step);
    if (any && (protocol == model::Protocol::websocket || model::is_grpc(step.origin.scheme))) {
      throw UsageError(
          "variables (${...}) are rendered in HTTP requests only, not yet in WebSocket messages "
          "or gRPC calls (write $${ for a literal ${)");
    }
  }
}

}  // namespace stampede::cmd
