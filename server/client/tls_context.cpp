// make_tls_context(): one SSL_CTX per run; OpenSSL lets every thread create sessions from it.
#include "server/client/tls_context.hpp"

namespace stampede::client {

boost::asio::ssl::context make_tls_context(bool insecure) {
  namespace ssl = boost::asio::ssl;
  ssl::context context(ssl::context::tls_client);
  context.set_default_verify_paths();
  context.set_verify_mode(insecure ? ssl::verify_none : ssl::verify_peer);
  return context;
}

}  // namespace stampede::client
