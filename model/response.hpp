// What came back: one response as a client saw it, reused across a user's requests.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/exchange_record.hpp"

namespace stampede::model {

/// One exchange's outcome: what was measured, and the parts of the response a verifier, a
/// redirect or the report reads. A worker owns one and hands it to its client each time, so the
/// strings keep their capacity and a steady-state request allocates nothing.
struct Response : ExchangeRecord {
  std::string body;              ///< kept only when the verifier needs it
  std::string server;            ///< the Server header, for the report
  std::string location;          ///< the Location header (followed with -redirect)
  std::string content_encoding;  ///< the Content-Encoding header (decoded with --compressed)
  /// gRPC: grpc-status and grpc-message as they came (trailers, or a Trailers-Only response's
  /// headers); empty when absent. The client turns them into `grpc_status`.
  std::string grpc_status_field;
  std::string grpc_message;
  /// WebSocket: the seq of go-stress-testing's ping this exchange sent, which the reply must
  /// echo for `-v json`; empty for other messages and protocols.
  std::string sent_seq;
  bool websocket = false;  ///< a WebSocket message's reply: no HTTP status, the body is the message
  /// The stopping run closed the connection while the reply was awaited: the exchange is
  /// abandoned, neither a success nor a failure.
  bool cut_short = false;
  /// An event stream's reader (SSE) opened a stream in this exchange: the server answered 200
  /// with text/event-stream.
  bool stream_opened = false;
  /// The server ended the stream this exchange read before it opened the next.
  bool stream_ended = false;
  /// --expect-header: the names (lower case) of the headers the verifier reads, set once for a
  /// user's Response and kept across its exchanges; empty: no header is kept.
  std::vector<std::string> wanted_headers;
  /// The wanted headers this response had: lower-case name and value, in the order they came.
  std::vector<std::pair<std::string, std::string>> headers;

  /// The wanted name that `name` is (compared without case), or null: a parser asks before it
  /// reads the value, so an unwanted field costs a length compare per wanted name.
  [[nodiscard]] const std::string* wanted_header(std::string_view name) const {
    for (const auto& wanted : wanted_headers) {
      if (wanted.size() == name.size() &&
          std::equal(wanted.begin(), wanted.end(), name.begin(), [](char a, char b) {
            return a == ((b >= 'A' && b <= 'Z') ? static_cast<char>(b - 'A' + 'a') : b);
          })) {
        return &wanted;
      }
    }
    return nullptr;
  }

  /// Keeps the header `name: value` if it is wanted.
  void keep_header(std::string_view name, std::string_view value) {
    if (const auto* wanted = wanted_header(name)) headers.emplace_back(*wanted, value);
  }

  /// Forget the previous exchange but keep the buffers' capacity.
  void clear() {
    static_cast<ExchangeRecord&>(*this) = {};
    body.clear();
    server.clear();
    location.clear();
    content_encoding.clear();
    grpc_status_field.clear();
    grpc_message.clear();
    sent_seq.clear();
    headers.clear();
    websocket = false;
    cut_short = false;
    stream_opened = false;
    stream_ended = false;
  }
};

}  // namespace stampede::model
