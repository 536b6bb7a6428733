// A gRPC method's request and response types, loaded from .proto files (--proto, --import-path).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace google::protobuf {
class Descriptor;
class Message;
class MethodDescriptor;
}  // namespace google::protobuf

namespace stampede::grpc {

/// A .proto that cannot be used, or a method it does not have: one line for the user.
class SchemaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Where a method's types are: the .proto files (--proto) and the directories imports are
/// searched in (--import-path), before each file's own directory (as protoc's -I, in order).
struct ProtoSource {
  std::vector<std::string> files;
  std::vector<std::string> import_paths;
};

class Method;

/// Loads the method `path` ("/package.Service/Method") from `source`. Imports of protobuf's
/// well-known types (google/protobuf/*.proto) resolve to the copies built into libprotobuf when
/// the import paths have none. Throws SchemaError: a file that cannot be read; protoc's own
/// "file:line:column: message" for a file that does not compile; a method not in the files
/// (naming those they have); a malformed path.
[[nodiscard]] Method load_method(const ProtoSource& source, std::string_view path);

/// One method of a service, holding alive the descriptors of its messages. Never changed once
/// loaded: threads share one, and make messages from its prototypes (New() is thread-safe).
class Method {
 public:
  Method(Method&&) noexcept;
  Method& operator=(Method&&) noexcept;
  ~Method();

  /// "/package.Service/Method", the request's :path.
  [[nodiscard]] std::string path() const;
  /// The method as protobuf describes it.
  [[nodiscard]] const google::protobuf::MethodDescriptor& descriptor() const;
  /// An empty request message, the type -data's JSON and --data-file's bytes must fit.
  [[nodiscard]] const google::protobuf::Message& request_prototype() const;
  /// An empty response message, to decode responses with.
  [[nodiscard]] const google::protobuf::Message& response_prototype() const;
  /// True when the server answers with a stream of messages rather than one.
  [[nodiscard]] bool server_streaming() const;
  /// True when the client sends a stream of messages (client streaming, bidirectional).
  [[nodiscard]] bool client_streaming() const;

 private:
  friend Method load_method(const ProtoSource& source, std::string_view path);
  struct Loaded;  ///< the source tree, the descriptor pool and the message factory
  explicit Method(std::unique_ptr<Loaded> loaded);

  std::unique_ptr<Loaded> loaded_;
};

}  // namespace stampede::grpc
