// make_client(): the one switch on protocol, and what a Client and a LongLived do by default.
#include "server/client/client_factories.hpp"

namespace stampede::client {

net::awaitable<void> LongLived::open(const PreparedRequest& /*request*/,
                                     model::Response& /*response*/) {
  co_return;
}

net::awaitable<void> LongLived::receive(std::chrono::steady_clock::time_point /*until*/,
                                        model::Response& /*response*/) {
  co_return;
}

bool LongLived::hold(std::chrono::steady_clock::time_point /*until*/,
                     std::shared_ptr<HoldOwner> /*owner*/) {
  return false;
}

net::awaitable<void> Client::finish() { co_return; }

std::unique_ptr<Client> make_client(const ClientSetup& setup, ThreadContext& thread, UserId user) {
  switch (setup.protocol) {
    case model::Protocol::websocket:
      return make_websocket_client(setup, thread, user);
    case model::Protocol::http2:
      if (setup.stream_as != StreamAs::whole) return make_stream_h2_client(setup, thread, user);
      return make_http2_client(setup, thread, user);
    case model::Protocol::http1:
      break;
  }
  if (setup.stream_as != StreamAs::whole) return make_stream_h1_client(setup, thread);
  return make_http1_client(setup, thread);
}

}  // namespace stampede::client
