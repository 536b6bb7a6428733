// Options -> what the engine needs: the Request, the Plan and the Verifier.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cmd/file_clash.hpp"
#include "cmd/grpc_call.hpp"
#include "cmd/options.hpp"
#include "cmd/shard_flags.hpp"
#include "model/plan.hpp"
#include "model/request.hpp"
#include "verify/verifier.hpp"

namespace stampede::cmd {

/// A validated load run, ready for the engine.
struct RunConfig {
  /// What each user sends, in order: the steps of a curl file (-p), or the one request of -u.
  std::vector<model::Request> steps;
  std::vector<std::string> warnings;  ///< what a curl file asks that stampede does not apply
  std::vector<std::string> notes;     ///< what the user should know first (a HAR's choice)
  model::Plan plan;
  std::shared_ptr<const verify::Verifier> verifier;
  /// Some step goes over a long-lived connection (ws://, wss://; HTTP/2 with --hold): the
  /// live table shows the connection columns.
  bool long_lived = false;
  /// A gRPC run (grpc://, grpcs://): the method called, when --proto named it.
  GrpcMethod grpc_method;
  /// --shard: which shard of which run this is (`plan` is then its slice); empty: not sharded.
  std::optional<ShardPosition> shard;
  /// Every file the run reads (-p's and theirs, -data @file, --data-file, --proto): none may
  /// be one of its outputs.
  std::vector<NamedFile> inputs;
};

/// Interprets `options`: parses the URL (or the curl file of -p), reads `-data @file`, splits
/// headers, takes --shard's slice of the plan. Throws UsageError naming what is wrong: among others
/// --hold without a step over WebSocket or HTTP/2 (whose steps --hold then keeps alive, as -k),
/// --ping without one over WebSocket or a held HTTP/2 one, --listen without one over WebSocket.
RunConfig make_run_config(const Options& options);

/// --print-request: the exact bytes of each step (the header list of an HTTP/2 one, as HPACK is
/// binary) on stdout; with several steps, a line names each one.
void print_requests(const RunConfig& config);

/// Fills scheme, host, port and target of `request` from `url` and returns its `user:password`
/// (empty without one); UsageError when the URL is bad.
std::string apply_url(std::string_view url, model::Request& request);

/// The -data body: the text, or the file's content for `@file` (UsageError if unreadable).
std::string body_of(const Options& options);

/// The message flags onto `request`: --binary, --max-message (WebSocket's and gRPC's, with
/// their defaults); -http2 on a ws(s):// URL is a UsageError (WebSocket goes by HTTP/1.1's
/// upgrade: stampede has no RFC 8441).
void apply_message_flags(const Options& options, model::Request& request);

}  // namespace stampede::cmd
