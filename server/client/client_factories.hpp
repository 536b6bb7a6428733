// The protocol clients make_client() chooses from; each lives in its own file.
#pragma once

#include <memory>

#include "server/client/client.hpp"

namespace stampede::client {

/// HTTP/1.1 over plain TCP, or over TLS when `setup.tls` is set.
std::unique_ptr<Client> make_http1_client(const ClientSetup& setup, ThreadContext& thread);

/// HTTP/2 over plain TCP (h2c with prior knowledge), or over TLS (ALPN "h2") when `setup.tls`.
std::unique_ptr<Client> make_http2_client(const ClientSetup& setup, ThreadContext& thread);

/// WebSocket (ws://, or wss:// when `setup.tls`) for user `user`.
std::unique_ptr<Client> make_websocket_client(const ClientSetup& setup, ThreadContext& thread,
                                              UserId user);

}  // namespace stampede::client
