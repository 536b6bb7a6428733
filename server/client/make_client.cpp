// make_client(): the one switch on protocol.
#include "server/client/client_factories.hpp"

namespace stampede::client {

std::unique_ptr<Client> make_client(const ClientSetup& setup, ThreadContext& thread) {
  switch (setup.protocol) {
    case model::Protocol::http2:
      return make_http2_client(setup, thread);
    case model::Protocol::http1:
      break;
  }
  return make_http1_client(setup, thread);
}

}  // namespace stampede::client
