// classify(): protocol and TLS errors are recognised by category, the rest by phase.
#include "server/client/classify.hpp"

#include <boost/asio/ssl/error.hpp>
#include <boost/beast/http/error.hpp>

#include "server/client/content_decoding.hpp"
#include "server/client/h2_error.hpp"

namespace stampede::client {

model::ErrorKind classify(Phase phase, const boost::system::error_code& error) {
  using model::ErrorKind;
  if (error.category() == make_error_code(boost::beast::http::error::need_more).category() ||
      error.category() == content_decoding_category() || error.category() == h2_category()) {
    return ErrorKind::protocol;
  }
  const bool tls_category = error.category() == boost::asio::error::get_ssl_category();
  switch (phase) {
    case Phase::connect:
      return ErrorKind::connect;
    case Phase::handshake:
      return ErrorKind::tls;
    case Phase::write:
      return ErrorKind::write;
    case Phase::read:
      return tls_category && error != boost::asio::ssl::error::stream_truncated ? ErrorKind::tls
                                                                                : ErrorKind::read;
  }
  return ErrorKind::read;
}

}  // namespace stampede::client
