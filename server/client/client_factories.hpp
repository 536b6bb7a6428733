// The protocol clients make_client() chooses from; each lives in its own file.
#pragma once

#include <memory>
#include <string_view>

#include "server/client/client.hpp"

namespace stampede::client {

/// HTTP/1.1 over plain TCP, or over TLS when `setup.tls` is set.
std::unique_ptr<Client> make_http1_client(const ClientSetup& setup, ThreadContext& thread);

/// A reader of responses as streams (`setup.stream_as`) over HTTP/1.1, plain TCP or TLS.
std::unique_ptr<Client> make_stream_h1_client(const ClientSetup& setup, ThreadContext& thread);

/// A reader of responses as streams over HTTP/2 (h2c by prior knowledge, or h2 by ALPN when
/// `setup.tls`) for user `user`: on a connection of its own, or with -m on a shared one.
std::unique_ptr<Client> make_stream_h2_client(const ClientSetup& setup, ThreadContext& thread,
                                              UserId user);

/// HTTP/2 over plain TCP (h2c), or over TLS (ALPN "h2") when `setup.tls`, for user `user`: on a
/// connection of its own, or with -m on one its thread's users share
/// (`thread.shared_connections` of them to each destination).
std::unique_ptr<Client> make_http2_client(const ClientSetup& setup, ThreadContext& thread,
                                          UserId user);

/// Says once per destination that its server selected HTTP/1.1 by ALPN, so HTTP/2 was not used.
void warn_http1_fallback(const ClientSetup& setup);

/// The hint for a gRPC call whose server selected HTTP/1.1 by ALPN.
inline constexpr std::string_view grpc_needs_h2 =
    "the server did not select h2 by ALPN, and gRPC goes over HTTP/2 only";

/// WebSocket (ws://, or wss:// when `setup.tls`) for user `user`.
std::unique_ptr<Client> make_websocket_client(const ClientSetup& setup, ThreadContext& thread,
                                              UserId user);

}  // namespace stampede::client
