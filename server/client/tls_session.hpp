// TlsSession: the TLS session a user resumes on its next connection to a server, as a browser does.
#pragma once

#include <openssl/ssl.h>

namespace stampede::client {

/// The last session a server gave one user's connections (a TLS 1.3 ticket, or a TLS 1.2
/// session), offered on the user's next connection so that its handshake is an abbreviated one.
/// The context must keep sessions (make_tls_context's `resume`), which hands each new one to the
/// TlsSession that offered on that connection, through the SSL object's ex_data.
///
/// Not thread-safe: one user's, on its thread. It must outlive every SSL object it was offered
/// on (a ticket may come at any read); a client holds it next to its connection.
class TlsSession {
 public:
  TlsSession() = default;
  ~TlsSession();
  TlsSession(const TlsSession&) = delete;
  TlsSession& operator=(const TlsSession&) = delete;

  /// Before `ssl`'s handshake: offers the session kept (if any) and asks for the next.
  void offer(SSL* ssl);

  /// The context's new-session callback (SSL_CTX_sess_set_new_cb): keeps `session` for the
  /// TlsSession that offered on `ssl` (a copy of it); 0: OpenSSL keeps its reference.
  static int keep(SSL* ssl, SSL_SESSION* session);

 private:
  SSL_SESSION* session_ = nullptr;
};

}  // namespace stampede::client
