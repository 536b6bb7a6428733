// log_first_failure(): one line per failure kind and run, not one per request.
#include "server/client/failure_log.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <spdlog/spdlog.h>
#include <boost/asio/ssl/error.hpp>

namespace stampede::client {

void log_first_failure(const ClientSetup& setup, model::ErrorKind kind,
                       const boost::system::error_code& error, std::string_view hint) {
  auto& flag = setup.failure_logged[static_cast<std::size_t>(kind)];
  if (flag.test_and_set(std::memory_order_relaxed)) return;
  if (kind == model::ErrorKind::timeout && hint.empty()) {
    spdlog::warn("first timeout failure: no complete response within {:g} s (-t)",
                 std::chrono::duration<double>(setup.timeout).count());
    return;
  }
  if (kind == model::ErrorKind::timeout) {  // not -t's: the hint says whose
    spdlog::warn("first timeout failure: {}", hint);
    return;
  }
  // The hint only where it helps: a certificate that did not verify (not, say, a plain-HTTP
  // server on an https:// URL).
  const bool certificate =
      kind == model::ErrorKind::tls && !setup.insecure &&
      error.category() == boost::asio::error::get_ssl_category() &&
      ERR_GET_REASON(static_cast<unsigned long>(error.value())) == SSL_R_CERTIFICATE_VERIFY_FAILED;
  if (hint.empty() && certificate) hint = "for a self-signed test server, use --insecure";
  if (!error) {  // no error code: the hint says it all (an HTTP/2 server's GOAWAY)
    spdlog::warn("first {} failure: {}", model::to_string(kind), hint);
    return;
  }
  spdlog::warn("first {} failure: {}{}{}{}", model::to_string(kind), error.message(),
               hint.empty() ? "" : " (", hint, hint.empty() ? "" : ")");
}

}  // namespace stampede::client
