// -b / --cookie: `name=value` strings and Netscape cookie files, matched as curl matches them.
#pragma once

#include <string>
#include <vector>

#include "curl/command.hpp"
#include "curl/files.hpp"
#include "model/request.hpp"

namespace stampede::curl {

/// The Cookie header curl would send with `request` (empty: none). An argument with `=` is a
/// cookie string; any other names a cookie file, read through `files`, whose cookies for this host,
/// path and scheme come first. An unreadable file sends nothing, as in curl, with a warning.
std::string cookie_header(const std::vector<Argument>& cookies, const model::Request& request,
                          const Files& files, std::vector<Warning>& warnings);

}  // namespace stampede::curl
