// -b / --cookie: `name=value` strings, and Netscape cookie files loaded as curl's cookie engine
// loads them.
#pragma once

#include <string>
#include <vector>

#include "curl/command.hpp"
#include "curl/files.hpp"
#include "model/request.hpp"

namespace stampede::curl {

/// What `-b` gives a request: the Cookie header of its `name=value` strings (joined by `;`, as
/// curl joins them; empty: none), and the cookies of its files, for the user's jar.
struct Cookies {
  std::string header;
  std::vector<model::JarCookie> jar;
};

/// `cookies` read: an argument with `=` is a cookie string; any other names a cookie file, read
/// through `files`, whose cookies all go to the jar (which sends each where it matches, as curl's
/// engine does). An unreadable file gives none, as in curl, with a warning.
Cookies read_cookies(const std::vector<Argument>& cookies, const Files& files,
                     std::vector<Warning>& warnings);

}  // namespace stampede::curl
