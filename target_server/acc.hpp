// The /acc WebSocket endpoint's answers: go-stress-testing's ping shape, read without a JSON
// library.
#pragma once

#include <string>
#include <string_view>

namespace stampede::target_server {

/// Nesting deeper than this (objects and arrays) makes a message bad: the reader recurses, and
/// a message of a million '[' must not exhaust the stack.
inline constexpr int max_json_depth = 64;

/// /acc's answer to one message, as go-stress-testing's WebSocket ping expects it. For a text
/// message that is a JSON object whose "seq" and "cmd" are strings:
///   cmd "ping"     {"seq":S,"cmd":"ping","response":{"code":200,"codeMsg":"Success","data":null}}
///   another cmd C  {"seq":S,"cmd":C,"response":{"code":404,"codeMsg":"unknown cmd","data":null}}
/// with S and C copied as the request spelled them (escapes included). Anything else (a binary
/// message, text that is not one JSON object, a seq or cmd missing or not a string) gets
///   {"seq":"","cmd":"","response":{"code":400,"codeMsg":"bad request","data":null}}
/// where seq and cmd are still copied if the message is a JSON object with them as strings.
/// Other members ("data") are checked as JSON and ignored.
std::string acc_reply(std::string_view message, bool text);

}  // namespace stampede::target_server
