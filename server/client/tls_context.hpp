// The TLS client context a run shares: system trust store, or no checks with --insecure.
#pragma once

#include <boost/asio/ssl/context.hpp>

namespace stampede::client {

/// A TLS client context verifying peers against the system's CA store unless `insecure`; with
/// `http2` it offers "h2" and "http/1.1" by ALPN (the HTTP/2 client fails if the server picks
/// http/1.1: there is no fallback yet). With `resume` the sessions servers give go to the
/// TlsSession that offered on each connection (none kept in the context), for the user's next.
boost::asio::ssl::context make_tls_context(bool insecure, bool http2 = false, bool resume = true);

}  // namespace stampede::client
