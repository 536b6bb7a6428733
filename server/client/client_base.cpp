// ClientBase: registration with the watchdog and failure recording.
#include "server/client/client_base.hpp"

#include "server/client/failure_log.hpp"

namespace stampede::client {

ClientBase::ClientBase(net::any_io_executor executor, const ClientSetup& setup, Watchdog& watchdog)
    : executor_(std::move(executor)), setup_(setup), watchdog_(watchdog) {
  watchdog_.watch(this);
}

ClientBase::~ClientBase() { watchdog_.forget(this); }

void ClientBase::record_failure(model::Response& response, Phase phase,
                                const boost::system::error_code& error, std::string_view hint) {
  response.error = timed_out_ ? model::ErrorKind::timeout : classify(phase, error);
  log_first_failure(setup_, response.error, error, hint);
}

}  // namespace stampede::client
