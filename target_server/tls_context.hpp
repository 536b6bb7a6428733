// The target server's TLS context: its certificate, and ALPN choosing h2 or http/1.1.
#pragma once

#include <openssl/ssl.h>

#include <boost/asio/ssl/context.hpp>

#include "target_server/certificate.hpp"

namespace stampede::target_server {

/// A TLS server context (TLS 1.2 or later) serving `certificate`, whose ALPN selects h2 when
/// the client offers it, else http/1.1, else nothing (the connection is then HTTP/1.1 too).
/// OpenSSL lets every thread make connections from it. Throws std::runtime_error if OpenSSL
/// refuses the certificate or the key.
boost::asio::ssl::context make_tls_context(const Certificate& certificate);

/// True if the handshake of `ssl` selected h2 by ALPN.
bool selected_h2(const SSL* ssl);

}  // namespace stampede::target_server
