// -H headers as gRPC metadata: lower-cased names, -bin values, the headers a user may not set.
#include "grpc/metadata.hpp"

#include <gtest/gtest.h>

#include "tests/grpc/proto_dir.hpp"

namespace stampede::grpc {
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

std::string metadata_error(const Headers& headers) {
  return error_text<MetadataError>([&] { return call_headers(headers); });
}

TEST(GrpcMetadata, HeadersBecomeLowerCaseMetadataInOrder) {
  const auto call = call_headers({{"X-Request-Id", "42"},
                                  {"authorization", "Bearer t"},
                                  {"x-request-id", "43"},
                                  {"a.b_c", ""}});
  EXPECT_EQ(call.metadata, (Headers{{"x-request-id", "42"},
                                    {"authorization", "Bearer t"},
                                    {"x-request-id", "43"},
                                    {"a.b_c", ""}}));
  EXPECT_EQ(call.authority, "");
  EXPECT_EQ(call.user_agent, "");
}

TEST(GrpcMetadata, HostAndUserAgentAreTheCallsOwn) {
  const auto call = call_headers({{"Host", "api.example"}, {"User-Agent", "mine/1"}});
  EXPECT_TRUE(call.metadata.empty());
  EXPECT_EQ(call.authority, "api.example");
  EXPECT_EQ(call.user_agent, "mine/1");
}

TEST(GrpcMetadata, BinaryValuesAreBase64SentUnpadded) {
  const auto call = call_headers({{"x-token-bin", "AAEC"},
                                  {"x-one-bin", "AQ=="},
                                  {"x-two-bin", "AQI="},
                                  {"x-bare-bin", "AQI"},
                                  {"x-empty-bin", ""},
                                  {"grpc-trace-bin", "AA"}});
  EXPECT_EQ(call.metadata, (Headers{{"x-token-bin", "AAEC"},
                                    {"x-one-bin", "AQ"},
                                    {"x-two-bin", "AQI"},
                                    {"x-bare-bin", "AQI"},
                                    {"x-empty-bin", ""},
                                    {"grpc-trace-bin", "AA"}}));
  for (const std::string bad : {"not base64!", "A", "AQ=", "AQ===", "A=AA", "====", "AQ-_"}) {
    EXPECT_EQ(metadata_error({{"X-Data-Bin", bad}}),
              "-H X-Data-Bin: a -bin header's value must be base64")
        << bad;
  }
}

TEST(GrpcMetadata, ValuesArePrintableAscii) {
  EXPECT_EQ(metadata_error({{"x-name", "caf\xc3\xa9"}}),
            "-H x-name: the value must be printable ASCII (binary data goes in a -bin header, as "
            "base64)");
  EXPECT_EQ(metadata_error({{"x-tab", "a\tb"}}),
            "-H x-tab: the value must be printable ASCII (binary data goes in a -bin header, as "
            "base64)");
}

TEST(GrpcMetadata, NamesAreGrpcHeaderNames) {
  for (const std::string bad : {"x:y", "x y", ":path", "x/y", "", "caf\xc3\xa9"}) {
    EXPECT_EQ(metadata_error({{bad, "v"}}),
              "-H " + bad + ": not a gRPC metadata name (letters, digits, _ - . only)");
  }
}

TEST(GrpcMetadata, ReservedNamesAreRefusedWithTheReason) {
  EXPECT_EQ(metadata_error({{"Content-Type", "application/json"}}),
            "-H Content-Type: gRPC sets it (application/grpc)");
  EXPECT_EQ(metadata_error({{"TE", "trailers"}}), "-H TE: gRPC sets it (trailers)");
  EXPECT_EQ(metadata_error({{"grpc-timeout", "1S"}}), "-H grpc-timeout: -t sets it");
  for (const std::string name :
       {"connection", "Keep-Alive", "proxy-connection", "transfer-encoding", "upgrade"}) {
    EXPECT_EQ(metadata_error({{name, "x"}}),
              "-H " + name + ": HTTP/2 forbids connection-specific headers");
  }
  for (const std::string name :
       {"grpc-status", "grpc-message", "grpc-encoding", "grpc-accept-encoding", "Grpc-Custom"}) {
    EXPECT_EQ(metadata_error({{name, "x"}}),
              "-H " + name + ": names starting with grpc- are reserved for gRPC itself");
  }
}

}  // namespace
}  // namespace stampede::grpc
