// A gRPC call's answer read as a stream (--stream on a server-streaming method): each message a
// unit, the trailers' status the stream's end or its failure.
#include <string>

#include "grpc/framing.hpp"
#include "grpc/status.hpp"
#include "server/client/failure_log.hpp"
#include "server/client/grpc_outcome.hpp"
#include "server/client/stream_units.hpp"

namespace stampede::client {

namespace {

/// A 200 with application/grpc opens the stream (anything else is the call's failure, its
/// status by gRPC's rules: settle_grpc_call() reads what is copied into the response). Each
/// message is one unit, framed in the response's body as a whole call's would be, so that
/// settle_grpc_call() and the verifiers read it as one; an OK status in the trailers ends the
/// stream, any other fails the exchange that waited for it.
class GrpcUnits final : public StreamUnits {
 public:
  explicit GrpcUnits(const ClientSetup& setup) : setup_(setup) {}

  bool open(const model::Response& head, const PreparedRequest& request,
            model::Response& response) override {
    if (head.status == 200 && has_content_type(head, "application/grpc")) {
      reader_ = grpc::MessageReader({}, request.max_message);
      return true;
    }
    take_status(head, response);
    return false;
  }

  bool next(std::string& body, model::Response& response) override {
    if (!body.empty()) {
      reader_.feed(body);
      body.clear();
    }
    if (auto message = reader_.next()) {
      response.status = 200;
      response.grpc_status_field = "0";
      response.body_bytes = message->size();
      response.body = grpc::frame(*message);
      return true;
    }
    const auto& error = reader_.error();
    if (!error) return false;
    fail(*error, response);
    return true;
  }

  bool end(const model::Response& head, model::Response& response) override {
    if (const auto broken = reader_.finish()) {  // it ended inside a message
      fail(*broken, response);
      return false;
    }
    if (call_status_of(head).code == grpc::Code::ok) return true;
    take_status(head, response);
    return false;
  }

 private:
  /// The call's end as the response's, for settle_grpc_call() and the verifier.
  static void take_status(const model::Response& head, model::Response& response) {
    response.status = head.status;
    response.grpc_status_field = head.grpc_status_field;
    response.grpc_message = head.grpc_message;
    response.body.clear();
  }

  /// A message over --max-message fails as too_big; any other broken framing as protocol.
  void fail(const grpc::Status& why, model::Response& response) const {
    const bool too_big = why.code == grpc::Code::resource_exhausted;
    response.error = too_big ? model::ErrorKind::too_big : model::ErrorKind::protocol;
    log_first_failure(setup_, response.error, {}, "a gRPC answer's " + why.message);
  }

  const ClientSetup& setup_;
  grpc::MessageReader reader_;
};

}  // namespace

std::unique_ptr<StreamUnits> make_grpc_units(const ClientSetup& setup) {
  return std::make_unique<GrpcUnits>(setup);
}

}  // namespace stampede::client
