// TlsSession: a user's last TLS session, handed over by OpenSSL's new-session callback.
#include "server/client/tls_session.hpp"

namespace stampede::client {
namespace {

/// The ex_data slot where an SSL object names the TlsSession that offered on it.
int session_index() {
  static const int index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
  return index;
}

}  // namespace

TlsSession::~TlsSession() { SSL_SESSION_free(session_); }

void TlsSession::offer(SSL* ssl) {
  // A copy again, which the connection may spoil (see keep()); the one kept stays good for the
  // next connection, as a server may take a session again (a TLS 1.2 one it resumed, issuing
  // none newer, or a TLS 1.3 ticket). One it no longer takes costs a full handshake.
  if (session_ != nullptr) {
    SSL_SESSION* copy = SSL_SESSION_dup(session_);
    if (copy != nullptr) SSL_set_session(ssl, copy);
    SSL_SESSION_free(copy);  // the connection holds its own reference
    // A server that chose TLS 1.2 over the TLS 1.3 we offered does not speak 1.3: offering it
    // again would make a key for a key share it never takes, 20% of the client's CPU for a new
    // connection (docs/benchmarks.md). The server's work is the same either way.
    const int version = SSL_SESSION_get_protocol_version(session_);
    if (version < TLS1_3_VERSION) SSL_set_max_proto_version(ssl, version);
  }
  SSL_set_ex_data(ssl, session_index(), this);
}

int TlsSession::keep(SSL* ssl, SSL_SESSION* session) {
  auto* owner = static_cast<TlsSession*>(SSL_get_ex_data(ssl, session_index()));
  if (owner == nullptr) return 0;
  // A copy: OpenSSL marks the connection's own session not resumable when the connection is
  // freed without a close_notify sent (ssl_clear_bad_session), as ours are when a server closes
  // them first, and the next handshake would then be a full one.
  SSL_SESSION* copy = SSL_SESSION_dup(session);
  if (copy == nullptr) return 0;
  SSL_SESSION_free(owner->session_);
  owner->session_ = copy;
  return 0;  // the connection's reference stays OpenSSL's
}

}  // namespace stampede::client
