// make_client(): the one switch on protocol.
#include "server/client/client_factories.hpp"

namespace stampede::client {

std::unique_ptr<Client> make_client(net::any_io_executor executor, const ClientSetup& setup,
                                    Watchdog& watchdog) {
  if (setup.http2) return make_http2_client(std::move(executor), setup, watchdog);
  return make_http1_client(std::move(executor), setup, watchdog);
}

}  // namespace stampede::client
