// Loading a method from .proto files: imports, well-known types, and every error's exact text.
#include "grpc/schema.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include "tests/grpc/proto_dir.hpp"

namespace stampede::grpc {
namespace {

std::string schema_error(const ProtoSource& source, std::string_view path) {
  return error_text<SchemaError>([&] { return load_method(source, path); });
}

/// Makes `dir` the current directory for a test's lifetime: relative paths are what users type.
class InDirectory {
 public:
  explicit InDirectory(const std::string& dir) : previous_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~InDirectory() { std::filesystem::current_path(previous_); }
  InDirectory(const InDirectory&) = delete;
  InDirectory& operator=(const InDirectory&) = delete;

 private:
  std::filesystem::path previous_;
};

std::string input_name(const Method& method) {
  return method.request_prototype().GetDescriptor()->full_name();
}

std::string output_name(const Method& method) {
  return method.response_prototype().GetDescriptor()->full_name();
}

TEST(GrpcSchema, LoadsAUnaryMethod) {
  const ProtoDir dir;
  const auto method =
      load_method({{dir.write("hello.proto", greeter_proto)}, {}}, "/helloworld.Greeter/SayHello");
  EXPECT_EQ(method.path(), "/helloworld.Greeter/SayHello");
  EXPECT_EQ(method.descriptor().full_name(), "helloworld.Greeter.SayHello");
  EXPECT_EQ(input_name(method), "helloworld.HelloRequest");
  EXPECT_EQ(output_name(method), "helloworld.HelloReply");
  EXPECT_FALSE(method.server_streaming());
}

TEST(GrpcSchema, LoadsAServerStreamingMethod) {
  const ProtoDir dir;
  const auto method =
      load_method({{dir.write("hello.proto", greeter_proto)}, {}}, "/helloworld.Greeter/SayHellos");
  EXPECT_TRUE(method.server_streaming());
  EXPECT_EQ(output_name(method), "helloworld.HelloReply");
}

TEST(GrpcSchema, LoadsMethodsThatStreamRequests) {
  const ProtoDir dir;
  const ProtoSource source{{dir.write("hello.proto", greeter_proto)}, {}};
  const auto collect = load_method(source, "/helloworld.Greeter/Collect");
  EXPECT_TRUE(collect.client_streaming());
  EXPECT_FALSE(collect.server_streaming());
  const auto chat = load_method(source, "/helloworld.Greeter/Chat");
  EXPECT_TRUE(chat.client_streaming());
  EXPECT_TRUE(chat.server_streaming());
  EXPECT_FALSE(load_method(source, "/helloworld.Greeter/SayHellos").client_streaming());
}

TEST(GrpcSchema, AMissingMethodNamesThoseThereAre) {
  const ProtoDir dir;
  const auto file = dir.write("hello.proto", greeter_proto);
  const std::string has =
      " (it has: helloworld.Greeter/SayHello, helloworld.Greeter/SayHellos, "
      "helloworld.Greeter/Collect, helloworld.Greeter/Chat)";
  EXPECT_EQ(schema_error({{file}, {}}, "/helloworld.Greeter/Nope"),
            "no method helloworld.Greeter/Nope in " + file + has);
  EXPECT_EQ(schema_error({{file}, {}}, "/helloworld.Nope/SayHello"),
            "no method helloworld.Nope/SayHello in " + file + has);
  // A message's name is not a service's.
  EXPECT_EQ(schema_error({{file}, {}}, "/helloworld.HelloRequest/name"),
            "no method helloworld.HelloRequest/name in " + file + has);
  const auto empty = dir.write("empty.proto", "syntax = \"proto3\";\nmessage M {}\n");
  EXPECT_EQ(schema_error({{empty}, {}}, "/M/Get"),
            "no method M/Get in " + empty + " (it has: no services)");
}

TEST(GrpcSchema, AMalformedPathIsRefused) {
  const ProtoDir dir;
  const ProtoSource source{{dir.write("hello.proto", greeter_proto)}, {}};
  for (const std::string path : {"", "/", "helloworld.Greeter/SayHello", "/helloworld.Greeter",
                                 "/helloworld.Greeter/", "//SayHello", "/a/b/c"}) {
    EXPECT_EQ(schema_error(source, path),
              "malformed gRPC method \"" + path + "\": want /package.Service/Method");
  }
}

TEST(GrpcSchema, AnUnreadableFileIsNamed) {
  const ProtoDir dir;
  const auto missing = dir.path("missing.proto");
  EXPECT_EQ(schema_error({{missing}, {}}, "/a.B/C"),
            "cannot read " + missing + ": No such file or directory");
  EXPECT_EQ(schema_error({{}, {}}, "/a.B/C"), "no .proto file given for the gRPC method");
}

TEST(GrpcSchema, ASyntaxErrorIsProtocsOwnLine) {
  const ProtoDir dir;
  const auto file = dir.write("bad.proto",
                              "syntax = \"proto3\";\n"
                              "message M {\n"
                              "  string name = 1\n"
                              "}\n");
  EXPECT_EQ(schema_error({{file}, {}}, "/a.B/C"), file + ":4:1: Expected \";\".");
}

TEST(GrpcSchema, LaterErrorsAreCounted) {
  const ProtoDir dir;
  const auto file = dir.write("bad.proto",
                              "syntax = \"proto3\";\n"
                              "message M {\n"
                              "  Missing a = 1;\n"
                              "  Absent b = 2;\n"
                              "}\n");
  EXPECT_EQ(schema_error({{file}, {}}, "/a.B/C"),
            file + ":3:3: \"Missing\" is not defined. (and 1 more errors)");
}

TEST(GrpcSchema, AMissingImportIsNamed) {
  const ProtoDir dir;
  const auto file = dir.write("main.proto",
                              "syntax = \"proto3\";\n"
                              "import \"gone.proto\";\n"
                              "message M {}\n");
  EXPECT_EQ(schema_error({{file}, {}}, "/a.B/C"),
            "gone.proto: File not found. (and 1 more errors)");
}

TEST(GrpcSchema, ImportsFromTheImportPathsAndTheFilesOwnDirectory) {
  const ProtoDir dir;
  dir.write("shared/common/types.proto",
            "syntax = \"proto3\";\npackage common;\nmessage Id { int64 value = 1; }\n");
  dir.write("api/local.proto",
            "syntax = \"proto3\";\npackage api;\nmessage Page { int32 size = 1; }\n");
  const auto file = dir.write("api/service.proto",
                              "syntax = \"proto3\";\n"
                              "package api;\n"
                              "import \"common/types.proto\";\n"
                              "import \"local.proto\";\n"
                              "message Query { common.Id id = 1; Page page = 2; }\n"
                              "service Store { rpc Get (Query) returns (common.Id); }\n");
  const auto method = load_method({{file}, {dir.path("shared")}}, "/api.Store/Get");
  EXPECT_EQ(input_name(method), "api.Query");
  EXPECT_EQ(output_name(method), "common.Id");
  EXPECT_EQ(schema_error({{file}, {}}, "/api.Store/Get"),
            "common/types.proto: File not found. (and 3 more errors)");
}

TEST(GrpcSchema, AFileShadowedInTheImportPathsIsRefused) {
  const ProtoDir dir;
  const auto first = dir.write("a/hello.proto", greeter_proto);
  const auto second = dir.write("b/hello.proto", greeter_proto);
  EXPECT_EQ(
      schema_error({{second}, {dir.path("a")}}, "/helloworld.Greeter/SayHello"),
      second + " is hidden by " + first + ", which has the same name in an earlier import path");
}

TEST(GrpcSchema, TheServiceMayBeInAnyOfTheFiles) {
  const ProtoDir dir;
  const auto types = dir.write("types.proto", "syntax = \"proto3\";\npackage t;\nmessage A {}\n");
  const auto service = dir.write("service.proto",
                                 "syntax = \"proto3\";\npackage t;\nimport \"types.proto\";\n"
                                 "service S { rpc Do (A) returns (A); }\n");
  EXPECT_EQ(input_name(load_method({{types, service}, {}}, "/t.S/Do")), "t.A");
  EXPECT_EQ(schema_error({{types, service}, {}}, "/t.S/Undo"),
            "no method t.S/Undo in " + types + ", " + service + " (it has: t.S/Do)");
}

TEST(GrpcSchema, WellKnownTypesNeedNoImportPath) {
  const ProtoDir dir;
  const auto file =
      dir.write("clock.proto",
                "syntax = \"proto3\";\n"
                "package clock;\n"
                "import \"google/protobuf/empty.proto\";\n"
                "import \"google/protobuf/timestamp.proto\";\n"
                "service Clock {\n"
                "  rpc Now (google.protobuf.Empty) returns (google.protobuf.Timestamp);\n"
                "}\n");
  const auto method = load_method({{file}, {}}, "/clock.Clock/Now");
  EXPECT_EQ(input_name(method), "google.protobuf.Empty");
  EXPECT_EQ(output_name(method), "google.protobuf.Timestamp");
}

TEST(GrpcSchema, ABareFileNameIsFoundInTheCurrentDirectory) {
  const ProtoDir dir;
  dir.write("hello.proto", greeter_proto);
  dir.write("bad.proto", "syntax = \"proto3\";\nmessage {\n");
  const InDirectory here(dir.path(""));
  EXPECT_EQ(input_name(load_method({{"hello.proto"}, {}}, "/helloworld.Greeter/SayHello")),
            "helloworld.HelloRequest");
  EXPECT_EQ(schema_error({{"bad.proto"}, {}}, "/a.B/C"), "bad.proto:2:9: Expected message name.");
}

TEST(GrpcSchema, PathsKeepTheUsersSpelling) {
  const ProtoDir dir;
  const auto file = dir.write("d/hello.proto", greeter_proto);
  dir.write("d/bad.proto", "syntax = \"proto3\";\nmessage {\n");
  std::filesystem::create_directories(dir.path("e"));
  const InDirectory here(dir.path("e"));
  EXPECT_EQ(schema_error({{"../d/bad.proto"}, {}}, "/a.B/C"),
            "../d/bad.proto:2:9: Expected message name.");
  EXPECT_EQ(schema_error({{"../d/bad.proto"}, {"../d"}}, "/a.B/C"),
            "../d/bad.proto:2:9: Expected message name.");
  EXPECT_EQ(input_name(load_method({{"../d/hello.proto"}, {}}, "/helloworld.Greeter/SayHello")),
            "helloworld.HelloRequest");
  // The same file spelled two ways (absolute, and by a relative import path) is not shadowed.
  EXPECT_EQ(input_name(load_method({{file}, {"../d"}}, "/helloworld.Greeter/SayHello")),
            "helloworld.HelloRequest");
  EXPECT_EQ(schema_error({{"../d"}, {}}, "/a.B/C"), "cannot read ../d: Is a directory");
}

TEST(GrpcSchema, AMovedMethodKeepsItsDescriptors) {
  const ProtoDir dir;
  auto method =
      load_method({{dir.write("hello.proto", greeter_proto)}, {}}, "/helloworld.Greeter/SayHello");
  const Method moved = std::move(method);
  EXPECT_EQ(input_name(moved), "helloworld.HelloRequest");
}

}  // namespace
}  // namespace stampede::grpc
