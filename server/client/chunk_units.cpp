// A body read as a stream (--stream on an HTTP URL): the bytes each read (or HTTP/2 DATA frame)
// brings are one unit, whatever the content type.
#include <string>

#include "server/client/stream_units.hpp"

namespace stampede::client {

namespace {

/// Any final status opens the stream (each chunk carries it, for the verifier to judge); the
/// body's bytes as they arrive, once decoded from HTTP/1.1's chunked framing, make each unit.
class ChunkUnits final : public StreamUnits {
 public:
  explicit ChunkUnits(const ClientSetup& setup) : setup_(setup) {}

  bool open(const model::Response& head, const PreparedRequest& /*request*/,
            model::Response& response) override {
    status_ = response.status = head.status;
    return true;
  }

  bool next(std::string& body, model::Response& response) override {
    if (body.empty()) return false;
    response.status = status_;
    response.body_bytes = body.size();
    if (setup_.keep_body) {
      response.body.swap(body);
    }
    body.clear();
    return true;
  }

 private:
  const ClientSetup& setup_;
  int status_ = 0;
};

}  // namespace

std::unique_ptr<StreamUnits> make_chunk_units(const ClientSetup& setup) {
  return std::make_unique<ChunkUnits>(setup);
}

}  // namespace stampede::client
