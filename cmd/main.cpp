// stampede's entry point: pick the command, turn every escaping error into one line and a status.
#include <malloc.h>

#include <cstdio>
#include <exception>
#include <span>
#include <string_view>

#include "cmd/commands.hpp"
#include "cmd/help.hpp"
#include "cmd/options.hpp"
#include "server/client/tls_buffers.hpp"

int main(int argc, char** argv) {
  // Each thread's malloc arena grows by an mprotect() per page it lacks: opening 19,000
  // connections made 17,000 of them, each a system call and a change to the address space.
  // Growing by a megabyte at a time costs only address space: pages stay unused until touched.
  mallopt(M_TOP_PAD, 64 << 20);
  // Before anything asks OpenSSL for memory; without it (false) the run is only slower.
  (void)stampede::client::cache_tls_record_buffers();
  const std::span<const char* const> args(argv + 1, static_cast<std::size_t>(argc - 1));
  try {
    if (!args.empty() && std::string_view(args[0]) == "serve") {
      return stampede::cmd::run_serve(args.subspan(1));
    }
    if (!args.empty() && std::string_view(args[0]) == "report") {
      return stampede::cmd::run_report(args.subspan(1));
    }
    if (!args.empty() && std::string_view(args[0]) == "shards") {
      return stampede::cmd::run_shards(args.subspan(1));
    }
    if (!args.empty() && std::string_view(args[0]) == "compare") {
      return stampede::cmd::run_compare(args.subspan(1));
    }
    if (!args.empty() && std::string_view(args[0]) == "help") {
      return stampede::cmd::run_help(args.subspan(1));
    }
    return stampede::cmd::run_load(args);
  } catch (const stampede::cmd::UsageError& error) {
    std::fprintf(stderr, "stampede: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "stampede: %s\n", error.what());
    return 1;
  }
}
