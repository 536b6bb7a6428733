// make_tls_context(): one SSL_CTX per destination; OpenSSL lets every thread create sessions from
// it.
#include "server/client/tls_context.hpp"

#include <openssl/ssl.h>

#include <stdexcept>

#include "server/client/tls_session.hpp"

namespace stampede::client {

boost::asio::ssl::context make_tls_context(bool insecure, bool http2, bool resume) {
  namespace ssl = boost::asio::ssl;
  ssl::context context(ssl::context::tls_client);
  // The system's CA bundle takes about 240 M instructions (80 ms) to load, a context at a time:
  // only a context that verifies loads it.
  if (!insecure) context.set_default_verify_paths();
  context.set_verify_mode(insecure ? ssl::verify_none : ssl::verify_peer);
  if (http2) {
    // ALPN's wire format: each name prefixed by its length. http/1.1 is offered too, so that a
    // server without HTTP/2 completes the handshake (nginx otherwise sends a fatal
    // no_application_protocol alert) and the client can say what it selected.
    static constexpr unsigned char protocols[] = {2,   'h', '2', 8,   'h', 't',
                                                  't', 'p', '/', '1', '.', '1'};
    if (SSL_CTX_set_alpn_protos(context.native_handle(), protocols, sizeof protocols) != 0) {
      throw std::runtime_error("cannot offer HTTP/2 by TLS ALPN");
    }
  }
  if (resume) {
    // Each user resumes its own sessions, as a browser (one profile) does: no cache shared
    // between users, or threads, in the context.
    SSL_CTX_set_session_cache_mode(context.native_handle(),
                                   SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
    SSL_CTX_sess_set_new_cb(context.native_handle(), &TlsSession::keep);
  }
  return context;
}

}  // namespace stampede::client
