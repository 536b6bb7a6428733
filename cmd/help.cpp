// The --help text, grouped as a user looks for things: what to hit, how hard, what counts.
#include <algorithm>
#include <string>

#include "cmd/options.hpp"
#include "report/formats.hpp"

namespace stampede::cmd {
namespace {

// Where the help's descriptions start, and where a format's own description starts under it.
constexpr std::size_t description_column = 27;
constexpr std::size_t format_column = description_column + 2;
constexpr std::size_t format_description_column = format_column + 6;

/// `text` padded with blanks to `column` (one blank at least).
std::string padded(std::string text, std::size_t column) {
  text.resize(std::max(text.size() + 1, column), ' ');
  return text;
}

/// The --output lines, from the table of formats: the flag, then one line per format.
std::string output_help() {
  std::string text = padded("  --output " + report::format_names("|"), description_column);
  text += "the final report (default " + std::string(report::formats().front().name) + "):\n";
  for (const report::Format& format : report::formats()) {
    const std::string name = std::string(format_column, ' ') + std::string(format.name);
    text += padded(name, format_description_column) + std::string(format.description) + "\n";
  }
  return text;
}

}  // namespace

std::string help_text() {
  return R"(stampede: HTTP load generator (go-stress-testing's flags, ab's report)

Usage:
  stampede -c USERS -n REQUESTS -u URL [flags]
  stampede serve [--port 8080] [--bind 127.0.0.1] [--threads N]

Examples:
  stampede -c 100 -n 1000 -k -u http://127.0.0.1:8080/api
  stampede -c 50 -n 200 -u https://localhost:8443/ -H 'Authorization: Bearer x' -data '{"a":1}' -v json
  stampede -c 10 -n 0 -timeout 30 -k -u http://127.0.0.1:8080/   (as many as fit in 30 s)
  stampede serve --port 8080                                      (the built-in target)
  stampede -c 10 -n 100 -k -p request.curl.txt                    (replay a "Copy as cURL" file)

What to send:
  -u, --url URL            http:// or https:// URL (a bare host means http://); or give it last
  -p, --curl FILE          send what a "Copy as cURL" file sends (bash or cmd); several
                           commands are a flow each user sends in order, -n rounds of it;
                           -u, -H, -data and -X given here override the file's
  --print-request          print the exact bytes of each request and exit, sending nothing
  -H, --header 'K: V'      add a header; repeatable
  -data, --data BODY       request body (makes it a POST); @file reads the body from a file
  -X, --method METHOD      HTTP method (default GET, or POST with -data)
  -k, --keepalive          reuse each user's connection (default: a new one per request)
  -http2, --http2          HTTP/2: https:// offers h2 by ALPN (HTTP/1.1 if the server
                           declines, as curl and Go do); http:// sends h2c directly
  -redirect                follow redirects on the same host (up to 10)
  --insecure               do not verify TLS certificates (self-signed test servers)

How hard:
  -c, --concurrency N      concurrent users (default 1)
  -n, --requests N         requests per user (default 1; c x n in all; 0 = until -timeout)
  -t, --request-timeout S  seconds for one request, connect included (default 30)
  -timeout S               stop the whole run after S seconds (default: no limit)
  -cpuNumber N             threads (default: every core)

What counts as success:
  -v, --verify statusCode|json   statusCode: status == -code; json: body's "code" == -code
  -code N                  expected code (default 200)

Output:
)" + output_help() +
         R"(  -d, --debug              log the first few requests and responses in full (stderr)
  -h, --help               this text
  --version                print the version

Exit status: 0 the run completed (whatever the server answered), 1 it could not run,
2 a usage error (nothing was sent). Ctrl-C stops the run and prints the report.
)";
}

}  // namespace stampede::cmd
