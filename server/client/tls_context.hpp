// The TLS client context a run shares: system trust store, or no checks with --insecure.
#pragma once

#include <boost/asio/ssl/context.hpp>

namespace stampede::client {

/// A TLS client context verifying peers against the system's CA store unless `insecure`.
boost::asio::ssl::context make_tls_context(bool insecure);

}  // namespace stampede::client
