// The target server's TLS context: one SSL_CTX for every thread, ALPN choosing h2 first.
#include "target_server/tls_context.hpp"

#include <stdexcept>
#include <string_view>

#include <boost/asio/buffer.hpp>
#include <boost/system/system_error.hpp>

namespace stampede::target_server {
namespace {

namespace ssl = boost::asio::ssl;

/// ALPN's wire form, in our order of preference: h2, then http/1.1.
constexpr unsigned char protocols[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

/// The first of our protocols the client offers. None in common: no ALPN in the answer (not a
/// fatal alert), so that a client offering only others still gets HTTP/1.1, as from nginx.
int select_protocol(SSL* /*ssl*/, const unsigned char** out, unsigned char* out_size,
                    const unsigned char* offered, unsigned offered_size, void* /*arg*/) {
  unsigned char* selected = nullptr;
  unsigned char selected_size = 0;
  const auto found = SSL_select_next_proto(&selected, &selected_size, protocols, sizeof protocols,
                                           offered, offered_size);
  if (found != OPENSSL_NPN_NEGOTIATED) return SSL_TLSEXT_ERR_NOACK;
  *out = selected;
  *out_size = selected_size;
  return SSL_TLSEXT_ERR_OK;
}

}  // namespace

ssl::context make_tls_context(const Certificate& certificate) {
  ssl::context context(ssl::context::tls_server);
  SSL_CTX_set_min_proto_version(context.native_handle(), TLS1_2_VERSION);
  try {
    context.use_certificate_chain(boost::asio::buffer(certificate.chain_pem));
    context.use_private_key(boost::asio::buffer(certificate.key_pem), ssl::context::pem);
  } catch (const boost::system::system_error& error) {
    throw std::runtime_error(std::string("cannot use the TLS certificate: ") + error.what());
  }
  SSL_CTX_set_alpn_select_cb(context.native_handle(), select_protocol, nullptr);
  return context;
}

bool selected_h2(const SSL* ssl) {
  const unsigned char* name = nullptr;
  unsigned size = 0;
  SSL_get0_alpn_selected(ssl, &name, &size);
  return std::string_view(reinterpret_cast<const char*>(name), size) == "h2";
}

}  // namespace stampede::target_server
