// The TLS client context of one destination, shared by its users on every thread: the system's
// trust store, or no checks with --insecure.
#pragma once

#include <boost/asio/ssl/context.hpp>

namespace stampede::client {

/// A TLS client context verifying peers against the system's CA store unless `insecure`; with
/// `http2` it offers "h2" and "http/1.1" by ALPN (a server that picks http/1.1 gets the HTTP/2
/// clients' HTTP/1.1 fallback; a gRPC call has none). With `resume` (Request::tls_resume; off with
/// --no-tls-resume or curl's --no-sessionid) the sessions servers give go to the TlsSession that
/// offered on each connection (none kept in the context), for the user's next.
boost::asio::ssl::context make_tls_context(bool insecure, bool http2 = false, bool resume = true);

}  // namespace stampede::client
