// JSON to wire bytes and back through a method's types; raw bytes checked; every error's text.
#include "grpc/message.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "grpc/schema.hpp"
#include "tests/grpc/proto_dir.hpp"

namespace stampede::grpc {
namespace {

/// A message with a field of each kind, well-known types among them.
constexpr std::string_view kinds_proto = R"(syntax = "proto3";
package kinds;
import "google/protobuf/duration.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";

enum Color { COLOR_UNSPECIFIED = 0; RED = 1; GREEN = 2; }

message Inner { string label = 1; repeated int32 values = 2; }

message Everything {
  string text = 1;
  int64 big = 2;
  double ratio = 3;
  bool flag = 4;
  bytes blob = 5;
  Color color = 6;
  Inner inner = 7;
  repeated Inner inners = 8;
  map<string, int32> counts = 9;
  oneof choice { string word = 10; int32 number = 11; }
  google.protobuf.Timestamp at = 12;
  google.protobuf.Duration took = 13;
  google.protobuf.Struct extra = 14;
  google.protobuf.StringValue maybe = 15;
  int32 user_id = 16;
}

service Kinds { rpc Echo (Everything) returns (Everything); }
)";

constexpr std::string_view legacy_proto = R"(syntax = "proto2";
package legacy;
message Old { required string id = 1; optional int32 n = 2; }
service Legacy { rpc Get (Old) returns (Old); }
)";

class GrpcMessage : public ::testing::Test {
 protected:
  ProtoDir dir_;
  Method greeter_ =
      load_method({{dir_.write("hello.proto", greeter_proto)}, {}}, "/helloworld.Greeter/SayHello");
  Method kinds_ = load_method({{dir_.write("kinds.proto", kinds_proto)}, {}}, "/kinds.Kinds/Echo");
  Method legacy_ =
      load_method({{dir_.write("legacy.proto", legacy_proto)}, {}}, "/legacy.Legacy/Get");

  std::string json_error(const Method& method, std::string_view json) {
    return error_text<MessageError>([&] { return json_to_wire(method.request_prototype(), json); });
  }
};

TEST_F(GrpcMessage, JsonBecomesTheWireBytes) {
  EXPECT_EQ(json_to_wire(greeter_.request_prototype(), R"({"name":"x","count":3})"),
            std::string("\x0a\x01x\x10\x03", 5));
  EXPECT_EQ(json_to_wire(greeter_.request_prototype(), "{}"), "");
}

TEST_F(GrpcMessage, EveryKindOfFieldRoundTrips) {
  const std::string json =
      R"({"text":"hé","big":"9007199254740993","ratio":0.5,"flag":true,"blob":"AAEC",)"
      R"("color":"GREEN","inner":{"label":"a","values":[1,2]},"inners":[{"label":"b","values":[]}],)"
      R"("counts":{"k":7},"number":4,"at":"2024-01-02T03:04:05Z","took":"1.500s",)"
      R"("extra":{"list":[1,"two",null],"ok":false},"maybe":"perhaps","user_id":9})";
  const auto wire = json_to_wire(kinds_.request_prototype(), json);
  const auto back = wire_to_json(kinds_.response_prototype(), wire);
  EXPECT_EQ(back.error, "");
  // protobuf's printer has a field order of its own: compare JSON values, not text.
  EXPECT_EQ(nlohmann::json::parse(back.json), nlohmann::json::parse(json)) << back.json;
}

TEST_F(GrpcMessage, JsonMayUseCamelCaseNamesAndEnumNumbers) {
  const auto wire = json_to_wire(kinds_.request_prototype(), R"({"userId":9,"color":1})");
  EXPECT_NE(wire_to_json(kinds_.request_prototype(), wire).json.find(R"("color":"RED")"),
            std::string::npos);
  EXPECT_EQ(wire, json_to_wire(kinds_.request_prototype(), R"({"user_id":9,"color":"RED"})"));
}

TEST_F(GrpcMessage, JsonThatDoesNotFitNamesTheTypeAndTheReason) {
  EXPECT_EQ(json_error(greeter_, R"({"nam":"x"})"),
            "the JSON does not fit helloworld.HelloRequest: nam: Cannot find field.");
  EXPECT_EQ(json_error(greeter_, R"({"count":"many"})"),
            "the JSON does not fit helloworld.HelloRequest: (count): invalid value \"many\" for "
            "type TYPE_INT32");
  EXPECT_EQ(json_error(greeter_, R"({"name":)"),
            "the JSON does not fit helloworld.HelloRequest: Unexpected end of string. Expected a "
            "value.");
  EXPECT_EQ(json_error(greeter_, R"({"name": "x",, "count": 1})"),
            "the JSON does not fit helloworld.HelloRequest: Expected an object key or }.");
  EXPECT_EQ(json_error(greeter_, R"([1])"),
            "the JSON does not fit helloworld.HelloRequest: Root element must be a message.");
  EXPECT_EQ(json_error(kinds_, R"({"color":"BLUE"})"),
            "the JSON does not fit kinds.Everything: (color): invalid value \"BLUE\" for type "
            "type.googleapis.com/kinds.Color");
  EXPECT_EQ(json_error(kinds_, R"({"at":"yesterday"})"),
            "the JSON does not fit kinds.Everything: (at): invalid value Field 'at', Invalid time "
            "format: yesterday for type type.googleapis.com/google.protobuf.Timestamp");
  EXPECT_EQ(json_error(kinds_, R"({"inner":{"labl":"x"}})"),
            "the JSON does not fit kinds.Everything: (inner) labl: Cannot find field.");
  EXPECT_EQ(json_error(legacy_, R"({"n":1})"),
            "the JSON does not fit legacy.Old: missing field id");
}

TEST_F(GrpcMessage, RawBytesAreCheckedAndKeptAsTheyAre) {
  // Field 7 is not HelloRequest's: an unknown field, kept, not re-encoded away.
  const std::string bytes("\x0a\x01x\x38\x05", 5);
  EXPECT_EQ(checked_wire(greeter_.request_prototype(), bytes), bytes);
  EXPECT_EQ(checked_wire(greeter_.request_prototype(), ""), "");
  const auto raw_error = [&](const Method& method, std::string bytes) {
    return error_text<MessageError>(
        [&] { return checked_wire(method.request_prototype(), std::move(bytes)); });
  };
  EXPECT_EQ(raw_error(greeter_, R"({"name":"x"})"),
            "the bytes are not a helloworld.HelloRequest in protobuf's wire format");
  EXPECT_EQ(raw_error(greeter_, std::string("\x0a\x05x", 3)),
            "the bytes are not a helloworld.HelloRequest in protobuf's wire format");
  EXPECT_EQ(raw_error(legacy_, std::string("\x10\x01", 2)),
            "the bytes are a legacy.Old missing required fields: id");
}

TEST_F(GrpcMessage, DecodingWritesDefaultsAndCanIndent) {
  EXPECT_EQ(wire_to_json(greeter_.response_prototype(), "").json, R"({"message":"","code":0})");
  EXPECT_EQ(
      wire_to_json(greeter_.response_prototype(), std::string("\x10\x07", 2), JsonLayout::indented)
          .json,
      "{\n \"message\": \"\",\n \"code\": 7\n}\n");
}

TEST_F(GrpcMessage, BytesThatAreNotTheTypeDecodeToAnErrorNotAThrow) {
  const auto decoded = wire_to_json(greeter_.response_prototype(), "\xff\xff\xff");
  EXPECT_EQ(decoded.json, "");
  EXPECT_EQ(decoded.error, "not a helloworld.HelloReply in protobuf's wire format");
}

TEST_F(GrpcMessage, ThreadsShareOneMethod) {
  // Every thread of a run decodes responses with the same Method: its prototypes are read only.
  const auto wire = json_to_wire(kinds_.request_prototype(), R"({"text":"t","counts":{"a":1}})");
  const auto expected = wire_to_json(kinds_.response_prototype(), wire).json;
  std::vector<std::string> seen(4);
  std::vector<std::thread> threads;
  for (auto& last : seen) {
    threads.emplace_back([&, wire] {
      for (int i = 0; i < 200; ++i) last = wire_to_json(kinds_.response_prototype(), wire).json;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(seen, std::vector<std::string>(4, expected));
}

}  // namespace
}  // namespace stampede::grpc
