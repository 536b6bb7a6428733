// What a response read as a stream is made of, unit by unit: an event stream's events, a gRPC
// call's answer messages, a body's chunks; and the makers of each.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "model/response.hpp"
#include "server/client/client.hpp"

namespace stampede::client {

/// One user's stream read unit by unit; sans I/O: the client's transport (HTTP/1.1 or an
/// HTTP/2 stream) hands it the stream's head and body bytes as they come. Each unit it gives is
/// one exchange of the run (StreamClientBase).
class StreamUnits {
 public:
  virtual ~StreamUnits() = default;

  /// The header the stream's request carries when it is opened again (SSE's Last-Event-ID):
  /// name and value, or an empty name for none.
  [[nodiscard]] virtual std::pair<std::string_view, std::string_view> resume_header() const {
    return {};
  }
  /// The stream's head came (`head`: its status and kept headers): true when it opens a stream
  /// of these units; else `response` has failed (its status kept) and the reason is logged.
  virtual bool open(const model::Response& head, const PreparedRequest& request,
                    model::Response& response) = 0;
  /// Takes the next unit out of `body` (erasing what it used) into `response`: true when there
  /// was one, or a fault that fails the exchange (response.error set).
  virtual bool next(std::string& body, model::Response& response) = 0;
  /// The server ended the stream (`head` has its trailers too, if any): true when that is the
  /// stream's end; false when it fails the exchange (`response` set as such).
  virtual bool end(const model::Response& /*head*/, model::Response& /*response*/) { return true; }
  /// The next stream is a new one, not the last one's resumption (--rate starts streams on its
  /// schedule): what the last one said of its resumption (SSE's id and `retry:`) is forgotten.
  virtual void start_over() {}
  /// How long to wait before the stream is opened again (SSE's `retry:`); none: at once.
  [[nodiscard]] virtual std::optional<std::chrono::milliseconds> retry() const {
    return std::nullopt;
  }
};

/// The head's Content-Type is `type` (parameters after it allowed), in `head.headers`.
bool has_content_type(const model::Response& head, std::string_view type);

/// An event stream's events (Server-Sent Events).
std::unique_ptr<StreamUnits> make_sse_units(const ClientSetup& setup);
/// A gRPC call's answer messages, each framed as the call's body would be.
std::unique_ptr<StreamUnits> make_grpc_units(const ClientSetup& setup);
/// A body's bytes as each read (or HTTP/2 DATA frame) brings them, of any content type.
std::unique_ptr<StreamUnits> make_chunk_units(const ClientSetup& setup);

}  // namespace stampede::client
