// log_first_failure(): one line per failure kind and run, not one per request.
#include "server/client/failure_log.hpp"

#include <spdlog/spdlog.h>

namespace stampede::client {

void log_first_failure(const ClientSetup& setup, model::ErrorKind kind,
                       const boost::system::error_code& error) {
  auto& flag = setup.failure_logged[static_cast<std::size_t>(kind)];
  if (flag.test_and_set(std::memory_order_relaxed)) return;
  if (kind == model::ErrorKind::timeout) {
    spdlog::warn("first timeout failure: no complete response within {:g} s (-t)",
                 std::chrono::duration<double>(setup.timeout).count());
    return;
  }
  const bool certificate = kind == model::ErrorKind::tls && !setup.insecure;
  spdlog::warn("first {} failure: {}{}", model::to_string(kind), error.message(),
               certificate ? " (for a self-signed test server, use --insecure)" : "");
}

}  // namespace stampede::client
