// The first failure of each kind in a run, logged once with its message for the user.
#pragma once

#include <boost/system/error_code.hpp>
#include <string_view>

#include "model/error_kind.hpp"
#include "server/client/client.hpp"

namespace stampede::client {

/// Logs `error` at warn level if it is the first failure of `kind` among `setup`'s users,
/// with a hint where one helps: `hint` if given, else --insecure for certificate failures. A
/// timeout is -t's unless `hint` says what else ran out; without `error`, `hint` is the message.
void log_first_failure(const ClientSetup& setup, model::ErrorKind kind,
                       const boost::system::error_code& error, std::string_view hint = {});

}  // namespace stampede::client
