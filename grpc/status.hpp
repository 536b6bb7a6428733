// gRPC status codes, and the status a client reports for a response (grpc-status, HTTP status).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stampede::grpc {

/// gRPC's status codes (doc/statuscodes.md), numbered as on the wire.
enum class Code : std::uint8_t {
  ok = 0,
  cancelled = 1,
  unknown = 2,
  invalid_argument = 3,
  deadline_exceeded = 4,
  not_found = 5,
  already_exists = 6,
  permission_denied = 7,
  resource_exhausted = 8,
  failed_precondition = 9,
  aborted = 10,
  out_of_range = 11,
  unimplemented = 12,
  internal = 13,
  unavailable = 14,
  data_loss = 15,
  unauthenticated = 16,
};

/// How many codes there are (0..16), for tables indexed by code.
inline constexpr int code_count = 17;

/// A call's outcome as a gRPC client sees it: a code and grpc-message's text, decoded.
struct Status {
  Code code = Code::ok;
  std::string message;
  bool operator==(const Status&) const = default;
};

/// The code's name as gRPC spells it: "OK", "INVALID_ARGUMENT", ...
[[nodiscard]] std::string_view code_name(Code code);

/// The code numbered `number`, or nothing outside 0..16.
[[nodiscard]] std::optional<Code> code_from_number(long long number);

/// A code as a user writes it (-code): its number or its name, in any case ("5", "NOT_FOUND",
/// "not_found"); nothing for anything else.
[[nodiscard]] std::optional<Code> parse_code(std::string_view text);

/// The code a grpc-status value stands for. Digits name a code; a number past 16 is UNKNOWN (as
/// grpc-java's Status.fromCodeValue and grpc core do); anything else is not a status, INTERNAL
/// (grpc-go's "malformed grpc-status").
[[nodiscard]] Code code_from_grpc_status(std::string_view value);

/// The code for a response without grpc-status, from its HTTP status, by gRPC's table
/// (doc/http-grpc-status-mapping.md): 200 is UNKNOWN there, since a true OK carries grpc-status.
[[nodiscard]] Code code_from_http_status(int http_status);

/// grpc-message's text: "%XX" sequences decoded; a broken one is kept as it is, as
/// PROTOCOL-HTTP2.md allows ("implementations MUST NOT error or throw away the message").
[[nodiscard]] std::string percent_decode(std::string_view text);

/// The status of a finished call. `grpc_status` and `grpc_message` are the values found in the
/// trailers, or in the headers of a Trailers-Only response; a caller passes nothing for one that
/// was in neither. With grpc-status present it is used whatever the HTTP status (the mapping's
/// rule); without it the HTTP status decides and the message says what was missing.
[[nodiscard]] Status call_status(int http_status, std::optional<std::string_view> grpc_status,
                                 std::optional<std::string_view> grpc_message);

}  // namespace stampede::grpc
