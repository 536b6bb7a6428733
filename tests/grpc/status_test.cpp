// gRPC status codes by name and number, grpc-status parsing, the HTTP mapping, grpc-message.
#include "grpc/status.hpp"

#include <gtest/gtest.h>

namespace stampede::grpc {
namespace {

TEST(GrpcStatus, EveryCodeHasItsName) {
  const std::vector<std::string_view> names{"OK",
                                            "CANCELLED",
                                            "UNKNOWN",
                                            "INVALID_ARGUMENT",
                                            "DEADLINE_EXCEEDED",
                                            "NOT_FOUND",
                                            "ALREADY_EXISTS",
                                            "PERMISSION_DENIED",
                                            "RESOURCE_EXHAUSTED",
                                            "FAILED_PRECONDITION",
                                            "ABORTED",
                                            "OUT_OF_RANGE",
                                            "UNIMPLEMENTED",
                                            "INTERNAL",
                                            "UNAVAILABLE",
                                            "DATA_LOSS",
                                            "UNAUTHENTICATED"};
  ASSERT_EQ(names.size(), static_cast<std::size_t>(code_count));
  for (int number = 0; number < code_count; ++number) {
    const auto code = code_from_number(number);
    ASSERT_TRUE(code.has_value());
    EXPECT_EQ(static_cast<int>(*code), number);
    EXPECT_EQ(code_name(*code), names[static_cast<std::size_t>(number)]);
    EXPECT_EQ(parse_code(names[static_cast<std::size_t>(number)]), code);
    EXPECT_EQ(parse_code(std::to_string(number)), code);
  }
  EXPECT_EQ(code_name(Code::unauthenticated), "UNAUTHENTICATED");
  EXPECT_EQ(code_from_number(-1), std::nullopt);
  EXPECT_EQ(code_from_number(17), std::nullopt);
}

TEST(GrpcStatus, ParsingACodeAcceptsAnyCaseAndNothingElse) {
  EXPECT_EQ(parse_code("not_found"), Code::not_found);
  EXPECT_EQ(parse_code("Deadline_Exceeded"), Code::deadline_exceeded);
  for (const std::string_view bad :
       {"", "17", "-1", "+1", " 1", "NOTFOUND", "OK ", "99999999999999999999"}) {
    EXPECT_EQ(parse_code(bad), std::nullopt) << bad;
  }
}

TEST(GrpcStatus, AGrpcStatusValueIsACodeUnknownOrMalformed) {
  EXPECT_EQ(code_from_grpc_status("0"), Code::ok);
  EXPECT_EQ(code_from_grpc_status("14"), Code::unavailable);
  EXPECT_EQ(code_from_grpc_status("17"), Code::unknown);
  EXPECT_EQ(code_from_grpc_status("99999999999999999999"), Code::unknown);
  EXPECT_EQ(code_from_grpc_status(""), Code::internal);
  EXPECT_EQ(code_from_grpc_status("OK"), Code::internal);
  EXPECT_EQ(code_from_grpc_status(" 0"), Code::internal);
  EXPECT_EQ(code_from_grpc_status("-1"), Code::internal);
}

TEST(GrpcStatus, HttpStatusesMapByGrpcsTable) {
  EXPECT_EQ(code_from_http_status(400), Code::internal);
  EXPECT_EQ(code_from_http_status(401), Code::unauthenticated);
  EXPECT_EQ(code_from_http_status(403), Code::permission_denied);
  EXPECT_EQ(code_from_http_status(404), Code::unimplemented);
  EXPECT_EQ(code_from_http_status(429), Code::unavailable);
  EXPECT_EQ(code_from_http_status(431), Code::internal);
  EXPECT_EQ(code_from_http_status(502), Code::unavailable);
  EXPECT_EQ(code_from_http_status(503), Code::unavailable);
  EXPECT_EQ(code_from_http_status(504), Code::unavailable);
  EXPECT_EQ(code_from_http_status(200), Code::unknown);
  EXPECT_EQ(code_from_http_status(500), Code::unknown);
  EXPECT_EQ(code_from_http_status(415), Code::unknown);
}

TEST(GrpcStatus, GrpcMessageIsPercentDecoded) {
  EXPECT_EQ(percent_decode("plain text"), "plain text");
  EXPECT_EQ(percent_decode("50%25 done%0Anext"), "50% done\nnext");
  EXPECT_EQ(percent_decode("caf%C3%A9 %c3%a9"), "café é");
  // Broken sequences stay as they are (the message is never thrown away).
  EXPECT_EQ(percent_decode("100% sure"), "100% sure");
  EXPECT_EQ(percent_decode("end %4"), "end %4");
  EXPECT_EQ(percent_decode("%"), "%");
  EXPECT_EQ(percent_decode("%zz%41"), "%zzA");
}

TEST(GrpcStatus, ACallsStatusComesFromGrpcStatusWhenThere) {
  EXPECT_EQ(call_status(200, "0", std::nullopt), (Status{Code::ok, ""}));
  EXPECT_EQ(call_status(200, "5", "no%20such%20user"), (Status{Code::not_found, "no such user"}));
  // grpc-status wins over the HTTP status: the mapping is for responses without one.
  EXPECT_EQ(call_status(503, "8", "slow down"), (Status{Code::resource_exhausted, "slow down"}));
  EXPECT_EQ(call_status(200, "42", "from the future"), (Status{Code::unknown, "from the future"}));
  EXPECT_EQ(call_status(200, "abc", "x"),
            (Status{Code::internal, "malformed grpc-status \"abc\""}));
}

TEST(GrpcStatus, WithoutGrpcStatusTheHttpStatusDecides) {
  EXPECT_EQ(call_status(200, std::nullopt, std::nullopt),
            (Status{Code::unknown, "no grpc-status in the response"}));
  EXPECT_EQ(call_status(503, std::nullopt, "ignored"),
            (Status{Code::unavailable, "HTTP status 503 without grpc-status"}));
  EXPECT_EQ(call_status(404, std::nullopt, std::nullopt),
            (Status{Code::unimplemented, "HTTP status 404 without grpc-status"}));
  EXPECT_EQ(call_status(500, std::nullopt, std::nullopt),
            (Status{Code::unknown, "HTTP status 500 without grpc-status"}));
}

}  // namespace
}  // namespace stampede::grpc
