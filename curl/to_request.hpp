// A read curl command -> the requests curl would send: method, target, headers and body.
#pragma once

#include <vector>

#include "curl/command.hpp"
#include "curl/files.hpp"
#include "model/request.hpp"

namespace stampede::curl {

/// One request per URL of `command` (curl sends them in order), with curl's default method,
/// its headers (`-H 'Name:'` lands in omit_headers) and its body. Relative files are found through
/// `files`. Throws ParseError (no file name); appends to `warnings` what is not applied.
std::vector<model::Request> to_requests(const CurlCommand& command, const Files& files,
                                        std::vector<Warning>& warnings);

}  // namespace stampede::curl
