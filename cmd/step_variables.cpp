// check_step_variables() and apply_captures(): a template or capture error is a usage error,
// found before a request is sent.
#include "cmd/step_variables.hpp"

#include <algorithm>
#include <string>

#include "cmd/options.hpp"
#include "curl/capture_spec.hpp"
#include "model/protocol.hpp"
#include "server/flow.hpp"
#include "server/session/template.hpp"

namespace stampede::cmd {

namespace {

std::string step_name(std::size_t step, std::size_t count) {
  return count > 1 ? "step " + std::to_string(step + 1) + "'s " : std::string();
}

/// `text` is `where` of step `step` of `count` (for the message). ${env:NAME} is put in as the
/// environment has it, so its value must not hold what `refused` lists (a line break in a
/// header would add a header line, a space in the URL would split the request line).
void check(std::string_view text, session::TemplateNames names, const std::string& where,
           std::size_t step, std::size_t count, std::string_view refused = {}) {
  if (!session::has_template(text)) return;
  session::Template parsed;
  try {
    parsed = session::parse_template(text, names);
  } catch (const session::TemplateError& error) {
    throw UsageError(step_name(step, count) + where + ": " + error.what());
  }
  for (const auto& piece : parsed.pieces) {
    if (piece.find_first_of(refused) == std::string::npos) continue;
    const bool spaces = refused.find(' ') != std::string_view::npos;
    throw UsageError(step_name(step, count) + where + ": a ${env:...} value holds a line break" +
                     (spaces ? ", a NUL or a space" : " or a NUL") +
                     ", which would add a line to the request or split one");
  }
}

void check_capture_names(const model::Request& step, std::size_t i, std::size_t count) {
  for (const auto& capture : step.captures) {
    if (session::is_builtin(capture.name)) {
      throw UsageError(step_name(i, count) + "capture: ${" + capture.name +
                       "} is a variable stampede gives; name the capture otherwise");
    }
  }
}

/// What a WebSocket or gRPC step cannot take: a WebSocket reply has no headers to capture; a
/// gRPC call's answer is protobuf, and its message is sent as written (a value put in would
/// break its framing).
void check_protocol(const model::Request& step, std::size_t i, std::size_t count) {
  const bool header_capture = std::any_of(
      step.captures.begin(), step.captures.end(),
      [](const model::Capture& capture) { return capture.source == model::CaptureSource::header; });
  if (model::protocol_of(step) == model::Protocol::websocket && header_capture) {
    throw UsageError(step_name(i, count) +
                     "capture: a WebSocket reply is a message, without headers (capture "
                     "from it with json or body)");
  }
  if (model::is_grpc(step.origin.scheme) && !step.captures.empty()) {
    throw UsageError("a gRPC call captures nothing yet (its answer is protobuf)");
  }
}

/// Step `i` of `count`: its variables, `names` naming what its flow captures.
void check_step(const model::Request& step, session::TemplateNames names, std::size_t i,
                std::size_t count) {
  check_capture_names(step, i, count);
  check_protocol(step, i, count);
  constexpr std::string_view line_breaks("\r\n\0", 3);
  constexpr std::string_view line_breaks_and_spaces("\r\n\0 \t", 5);
  check(step.target, names, "URL", i, count, line_breaks_and_spaces);
  for (const auto& [name, value] : step.headers) check(value, names, name, i, count, line_breaks);
  if (!model::is_grpc(step.origin.scheme)) check(step.body, names, "body", i, count);
}

}  // namespace

void apply_captures(const std::vector<std::string>& specs, std::vector<model::Request>& steps) {
  if (specs.empty()) return;
  if (steps.size() > 1) {
    throw UsageError(
        "--capture applies to a run of one request; in a flow, write '# stampede: capture "
        "NAME = ...' in the curl file, before the command whose response it reads");
  }
  for (const auto& spec : specs) {
    try {
      steps.front().captures.push_back(curl::parse_capture(spec));
    } catch (const curl::CaptureError& error) {
      throw UsageError(std::string("--capture: ") + error.what());
    }
  }
}

void check_step_variables(const std::vector<model::Request>& steps, const model::Plan& plan) {
  // A mix's flows capture for themselves: a round sends one flow, so another's values never
  // reach it.
  auto flows = plan.mix;
  if (flows.empty()) flows.push_back({"", 0, steps.size(), 1});
  const auto count = steps.size();
  for (const auto& flow : flows) {
    const auto first = steps.begin() + static_cast<std::ptrdiff_t>(flow.first);
    const auto captured =
        server::capture_names({first, first + static_cast<std::ptrdiff_t>(flow.count)});
    const session::TemplateNames names{
        captured, plan.data ? plan.data->columns : std::span<const std::string>()};
    for (std::size_t i = flow.first; i < flow.first + flow.count; ++i) {
      check_step(steps[i], names, i, count);
    }
  }
}

}  // namespace stampede::cmd
