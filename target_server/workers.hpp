// Serving until a stop signal, from this process or from workers sharing one port (SO_REUSEPORT).
#pragma once

#include <csignal>
#include <cstdint>
#include <functional>

#include "target_server/server.hpp"

namespace stampede::target_server {

/// The signals serve_until_stopped() and serve_in_workers() wait for with sigwait: SIGINT and
/// SIGTERM stop serving, SIGCHLD tells the parent a worker ended. The caller blocks them in every
/// thread (pthread_sigmask, before any thread starts), or they would kill the process instead.
sigset_t serve_signals();

/// Raises this process's soft open-file limit to the hard one, as each worker does: every
/// connection is a descriptor. Returns the soft limit now in force (0 if it cannot be read).
std::uint64_t raise_open_file_limit();

/// Runs `server` on its threads until SIGINT or SIGTERM arrives, then stops it.
void serve_until_stopped(Server& server);

/// Serves `options` from `workers` processes that share its ports: each is forked from this one
/// (which must have no other thread yet), raises its open-file limit, binds the ports with
/// SO_REUSEPORT and serves on options.threads threads; the kernel spreads new connections over
/// them. The ports are bound here first, without SO_REUSEPORT and without listening: so a port
/// in use (even by another server's workers) fails here, and port 0 picks one port for all.
/// With TLS and no certificate, the self-signed one is made here, for all. Calls
/// on_listening(ports) once every worker listens. Returns once SIGINT or SIGTERM arrives
/// (0) or a worker ends (0 if it was stopped by a signal of its own, 1 if it failed), having
/// stopped every worker and waited for it; a worker whose parent dies gets SIGTERM. Throws
/// std::runtime_error if a worker cannot listen, once the others are stopped.
int serve_in_workers(ServeOptions options, unsigned workers,
                     const std::function<void(const ListeningPorts& ports)>& on_listening);

}  // namespace stampede::target_server
