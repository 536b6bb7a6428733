// Request and response messages through protobuf's dynamic messages and its JSON mapping.
#include "grpc/message.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/util/json_util.h>

#include <memory>

namespace stampede::grpc {

namespace pb = google::protobuf;

namespace {

const std::string& type_name(const pb::Message& message) {
  return message.GetDescriptor()->full_name();
}

/// Parses `bytes` into `message`: empty when they are one, else why not.
std::string parse(pb::Message& message, std::string_view bytes) {
  if (!message.ParsePartialFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return "not a " + type_name(message) + " in protobuf's wire format";
  }
  if (!message.IsInitialized()) {
    return "a " + type_name(message) +
           " missing required fields: " + message.InitializationErrorString();
  }
  return {};
}

/// protobuf's reason on one line: its "path: " prefix dropped when the path is empty (the root),
/// and the excerpt with a caret under the error that follows a syntax error's first line.
std::string one_line(std::string reason) {
  if (reason.starts_with(": ")) reason.erase(0, 2);
  return reason.substr(0, reason.find('\n'));
}

}  // namespace

std::string json_to_wire(const pb::Message& prototype, std::string_view json) {
  const std::unique_ptr<pb::Message> message(prototype.New());
  // The parser checks proto2's required fields too ("missing field id").
  const auto status = pb::util::JsonStringToMessage({json.data(), json.size()}, message.get());
  if (!status.ok()) {
    throw MessageError("the JSON does not fit " + type_name(prototype) + ": " +
                       one_line(status.message().ToString()));
  }
  return message->SerializeAsString();
}

std::string checked_wire(const pb::Message& prototype, std::string bytes) {
  const std::unique_ptr<pb::Message> message(prototype.New());
  if (auto error = parse(*message, bytes); !error.empty())
    throw MessageError("the bytes are " + error);
  return bytes;
}

Decoded wire_to_json(const pb::Message& prototype, std::string_view bytes, JsonLayout layout) {
  const std::unique_ptr<pb::Message> message(prototype.New());
  Decoded decoded;
  decoded.error = parse(*message, bytes);
  if (!decoded.error.empty()) return decoded;
  pb::util::JsonPrintOptions options;
  options.add_whitespace = layout == JsonLayout::indented;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  const auto status = pb::util::MessageToJsonString(*message, &decoded.json, options);
  if (!status.ok()) decoded.error = status.message().ToString();
  return decoded;
}

}  // namespace stampede::grpc
