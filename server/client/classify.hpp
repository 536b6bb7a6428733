// The one mapping from an Asio/Beast/OpenSSL error_code to the failure taxonomy.
#pragma once

#include <boost/system/error_code.hpp>

#include "model/error_kind.hpp"

namespace stampede::client {

/// Where in the exchange an error happened; the same code means different things in each.
enum class Phase : unsigned char { connect, handshake, write, read };

/// Maps an error to its kind: parser, decoding and HTTP/2 errors are protocol errors, the rest
/// follow the phase.
/// (Timeouts are known by the client that expired the connection, not by the error code.)
model::ErrorKind classify(Phase phase, const boost::system::error_code& error);

/// True for what Beast's WebSocket read found on the wire (a close frame, a message over the
/// limit, a frame that breaks RFC 6455): it says why, even when the deadline then ended the
/// wait for the server's TCP close.
bool websocket_outcome(const boost::system::error_code& error);

}  // namespace stampede::client
