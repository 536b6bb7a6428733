// with_expectations(): --expect-* read into checks, the -v verifier kept as the first of them.
#pragma once

#include <memory>

#include "cmd/options.hpp"
#include "verify/verifier.hpp"

namespace stampede::cmd {

/// `base` (the -v verifier) alone without --expect-*; otherwise a verifier of checks: `base`
/// first (named "-v NAME -code N"), unless --expect-status replaces it (`base_is_status`: it
/// checks the HTTP status alone, as the default -v statusCode of an HTTP run does), then each
/// --expect-status, --expect-json, --expect-body and --expect-size in that order. Throws
/// UsageError for a check it cannot read.
std::unique_ptr<verify::Verifier> with_expectations(const Options& options,
                                                    std::unique_ptr<verify::Verifier> base,
                                                    bool base_is_status);

}  // namespace stampede::cmd
