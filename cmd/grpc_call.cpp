// make_grpc_call() and the gRPC verifier: what grpc/ knows of .proto files, messages, metadata
// and timeouts, applied to a run's request.
#include "cmd/grpc_call.hpp"

#include <chrono>
#include <fstream>
#include <iterator>
#include <optional>
#include <utility>

#include "cmd/expect_flags.hpp"
#include "cmd/run_config.hpp"
#include "grpc/framing.hpp"
#include "grpc/message.hpp"
#include "grpc/metadata.hpp"
#include "grpc/schema.hpp"
#include "grpc/timeout.hpp"
#include "server/session/template.hpp"
#include "verify/grpc_status.hpp"

namespace stampede::cmd {

namespace {

/// --proto's method, or null without --proto.
GrpcMethod load(const Options& options, const std::string& path) {
  if (options.proto_files.empty()) return nullptr;
  try {
    return std::make_shared<const grpc::Method>(
        grpc::load_method({options.proto_files, options.import_paths}, path));
  } catch (const grpc::SchemaError& error) {
    throw UsageError(error.what());
  }
}

std::string read_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw UsageError("cannot read --data-file '" + path + "'");
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

/// The call's message in protobuf's wire format.
std::string message_of(const Options& options, const GrpcMethod& method) {
  try {
    if (!options.data_file.empty()) {
      auto bytes = read_bytes(options.data_file);
      return method ? grpc::checked_wire(method->request_prototype(), std::move(bytes)) : bytes;
    }
    if (!method) {
      throw UsageError(
          "a gRPC call needs --proto FILE (to encode -data's JSON) or --data-file FILE (the "
          "message's protobuf bytes)");
    }
    const auto json = body_of(options);
    // Encoded once, before the run: a ${...} in it would go as its letters, not its values.
    if (session::has_template(json)) {
      throw UsageError(
          "-data's ${...} values are not filled in a gRPC message, which is encoded once before "
          "the run: give the message as it is to be sent (-H metadata takes ${...} values)");
    }
    return grpc::json_to_wire(method->request_prototype(), json.empty() ? "{}" : json);
  } catch (const grpc::MessageError& error) {
    throw UsageError(error.what());
  }
}

/// The call's headers: gRPC's own, then the user's as metadata.
void set_headers(const Options& options, model::Request& request) {
  grpc::CallHeaders given;
  try {
    given = grpc::call_headers(request.headers);
  } catch (const grpc::MetadataError& error) {
    throw UsageError(error.what());
  }
  const auto timeout = std::chrono::duration<double>(options.request_timeout_s);
  request.headers = {{"Content-Type", "application/grpc"}, {"TE", "trailers"}};
  // -t bounds a call, or with --stream the wait for each answer message: the server must not
  // end a stream read for longer.
  if (!options.stream) {
    request.headers.emplace_back(
        "grpc-timeout",
        grpc::grpc_timeout(std::chrono::duration_cast<std::chrono::nanoseconds>(timeout)));
  }
  if (!given.authority.empty()) request.headers.emplace_back("Host", given.authority);
  if (!given.user_agent.empty()) request.headers.emplace_back("User-Agent", given.user_agent);
  for (auto& field : given.metadata) request.headers.push_back(std::move(field));
  request.omit_headers = {"Accept"};
}

/// -v json for gRPC: the answer's first message, decoded through the method, checked as JSON.
/// Judges a call with its answer decoded through the method into JSON, so -v json and the
/// --expect-* checks read it as they read an HTTP body; a call without a whole answer is judged
/// with an empty body (its status check, first, rejects it as such).
class DecodedAnswer final : public verify::Verifier {
 public:
  DecodedAnswer(GrpcMethod method, std::unique_ptr<verify::Verifier> inner)
      : method_(std::move(method)), inner_(std::move(inner)) {}

  [[nodiscard]] bool accept(const model::Response& response) const override {
    return inner_->accept(decode(response));
  }
  [[nodiscard]] std::string why_rejected(const model::Response& response) const override {
    const auto decoded = decode(response);
    const auto why = inner_->why_rejected(decoded);
    if (!decoded.body.empty()) return why;
    return "gRPC status " + model::grpc_code_name(response.grpc_status) +
           ", no answer to decode: " + why;
  }
  [[nodiscard]] bool needs_body() const override { return true; }
  [[nodiscard]] std::vector<std::string> headers_read() const override {
    return inner_->headers_read();
  }
  [[nodiscard]] std::vector<std::string> checks() const override { return inner_->checks(); }
  [[nodiscard]] std::uint8_t failed_check(const model::Response& response) const override {
    return inner_->failed_check(decode(response));
  }

 private:
  /// The response with its body as the answer's JSON, or empty without a whole answer.
  [[nodiscard]] model::Response decode(const model::Response& response) const {
    model::Response decoded = response;
    decoded.body.clear();
    // The client held the call to --max-message already (a longer message fails as too_big).
    const auto body = grpc::read_messages(response.body, {}, SIZE_MAX);
    if (body.messages.empty()) return decoded;
    auto json = grpc::wire_to_json(method_->response_prototype(), body.messages.front());
    if (json.error.empty()) decoded.body = std::move(json.json);
    return decoded;
  }

  GrpcMethod method_;
  std::unique_ptr<verify::Verifier> inner_;
};

}  // namespace

GrpcMethod make_grpc_call(const Options& options, model::Request& request) {
  auto method = load(options, request.target);
  request.body = grpc::frame(message_of(options, method));
  request.method = "POST";
  request.keep_alive = true;  // calls share their connection, as gRPC's channels do
  request.grpc_server_streaming = method && method->server_streaming();
  request.grpc_client_streaming = method && method->client_streaming();
  if (request.grpc_client_streaming && !options.stream) {
    throw UsageError(method->path().substr(1) +
                     (request.grpc_server_streaming
                          ? " is bidirectional: give --stream (each exchange sends a message on "
                            "the call and reads an answer)"
                          : " is client-streaming: give --stream (each exchange sends a message "
                            "on the call, the -n-th also reads its answer)"));
  }
  set_headers(options, request);
  return method;
}

std::unique_ptr<verify::Verifier> make_grpc_verifier(const Options& options, GrpcMethod method) {
  const bool json = options.verify == "json";
  if (json && !method)
    throw UsageError("-v json on a gRPC call needs --proto (to decode its answer)");
  // -v json: the answer's "code" as an HTTP body's, 200 unless -code says otherwise.
  auto base = json ? verify::make_verifier("json", static_cast<int>(options.code))
                   : std::make_unique<verify::GrpcStatus>(
                         options.has_code ? static_cast<int>(options.code) : 0);
  auto verifier = with_expectations(options, std::move(base), false);
  if (!method || !verifier->needs_body()) return verifier;
  return std::make_unique<DecodedAnswer>(std::move(method), std::move(verifier));
}

std::string printable_grpc_message(const GrpcMethod& method, std::string_view framed_body) {
  const auto body = grpc::read_messages(framed_body, {}, SIZE_MAX);  // our own message
  if (!method || body.messages.empty()) {
    return "(" + std::to_string(framed_body.size()) + " bytes: a framed protobuf message)\n";
  }
  auto json = grpc::wire_to_json(method->request_prototype(), body.messages.front(),
                                 grpc::JsonLayout::indented);
  return json.json + "\n";
}

}  // namespace stampede::cmd
