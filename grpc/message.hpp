// A method's messages converted: JSON to protobuf's wire bytes and back, raw bytes checked.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace google::protobuf {
class Message;
}  // namespace google::protobuf

namespace stampede::grpc {

/// A request that does not fit its message type: one line for the user, naming the type.
class MessageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// `json` (-data) as a message of `prototype`'s type, in protobuf's wire format. The JSON is read
/// by protobuf's JSON mapping (field names as in the .proto or lowerCamelCase, enums by name or
/// number, well-known types in their JSON forms); a field the type does not have is an error, not
/// skipped, since it is a misspelling more often than not. Throws MessageError with protobuf's
/// reason.
[[nodiscard]] std::string json_to_wire(const google::protobuf::Message& prototype,
                                       std::string_view json);

/// `bytes` (--data-file), checked to be a message of `prototype`'s type and returned as they are,
/// byte for byte. Checked, because a file of the wrong kind (JSON, text format, a framed message)
/// would otherwise be found out only as failed calls, by the server; not re-encoded, so that
/// what is sent is what the file holds (unknown fields included). Throws MessageError.
[[nodiscard]] std::string checked_wire(const google::protobuf::Message& prototype,
                                       std::string bytes);

/// How decoded JSON is laid out.
enum class JsonLayout : unsigned char {
  compact,  ///< one line, for -v json
  indented  ///< two spaces a level, for --print-request
};

/// What decoding a message gives: its JSON text, or why the bytes are not such a message.
struct Decoded {
  std::string json;   ///< the message, when error is empty
  std::string error;  ///< empty on success
};

/// Wire `bytes` of `prototype`'s type as JSON (a response, for -v json; a request, for
/// --print-request). Fields holding their default value are written too, so that -v json finds
/// `"code": 0` rather than no code; names are spelled as in the .proto (protobuf's JSON mapping
/// would write lowerCamelCase), the names a user reads there and writes in -data.
/// Never throws for bad bytes: a response that is not its type is a failed call, not a crash.
[[nodiscard]] Decoded wire_to_json(const google::protobuf::Message& prototype,
                                   std::string_view bytes, JsonLayout layout = JsonLayout::compact);

}  // namespace stampede::grpc
