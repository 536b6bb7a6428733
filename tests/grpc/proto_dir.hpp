// Test helper: .proto files written into a temporary directory that is removed after the test.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "grpc/schema.hpp"

namespace stampede::grpc {

/// The Greeter of gRPC's examples, with a server-streaming method, and one of each kind that
/// stampede refuses.
inline constexpr std::string_view greeter_proto = R"(syntax = "proto3";
package helloworld;

service Greeter {
  rpc SayHello (HelloRequest) returns (HelloReply);
  rpc SayHellos (HelloRequest) returns (stream HelloReply);
  rpc Collect (stream HelloRequest) returns (HelloReply);
  rpc Chat (stream HelloRequest) returns (stream HelloReply);
}

message HelloRequest {
  string name = 1;
  int32 count = 2;
}

message HelloReply {
  string message = 1;
  int32 code = 2;
}
)";

/// A temporary directory (unique: tests may run in parallel processes) of files tests write.
class ProtoDir {
 public:
  ProtoDir() {
    std::string name = (std::filesystem::temp_directory_path() / "stampede-grpc-XXXXXX").string();
    root_ = ::mkdtemp(name.data());
  }
  ~ProtoDir() { std::filesystem::remove_all(root_); }
  ProtoDir(const ProtoDir&) = delete;
  ProtoDir& operator=(const ProtoDir&) = delete;

  /// The path of `name` in the directory.
  [[nodiscard]] std::string path(std::string_view name) const { return (root_ / name).string(); }

  /// Writes `text` to `name` (making its folders) and returns its path.
  std::string write(std::string_view name, std::string_view text) const {
    const auto file = root_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }

 private:
  std::filesystem::path root_;
};

/// What `call` throws as an exception of type `Error`, or "no error".
template <typename Error, typename Call>
std::string error_text(Call call) {
  try {
    static_cast<void>(call());
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace stampede::grpc
