// make_run_config(): every user-facing check of what to send lives here, before any traffic.
#include "cmd/run_config.hpp"

#include <algorithm>
#include <boost/url/parse.hpp>
#include <charconv>
#include <fstream>
#include <sstream>
#include <thread>

namespace stampede::cmd {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw UsageError("cannot read -data file '" + path + "' (check the path after @)");
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

std::pair<std::string, std::string> split_header(const std::string& header) {
  const auto colon = header.find(':');
  if (colon == std::string::npos || colon == 0) {
    throw UsageError("malformed header '" + header + "' (use -H 'Name: value')");
  }
  const auto value_start = header.find_first_not_of(" \t", colon + 1);
  return {header.substr(0, colon),
          value_start == std::string::npos ? "" : header.substr(value_start)};
}

model::Plan make_plan(const Options& options) {
  using std::chrono::milliseconds;
  model::Plan plan;
  plan.users = static_cast<std::uint64_t>(options.users);
  plan.requests_per_user = static_cast<std::uint64_t>(options.requests);
  plan.threads = options.threads > 0 ? static_cast<unsigned>(options.threads)
                                     : std::max(1U, std::thread::hardware_concurrency());
  plan.request_timeout = milliseconds(static_cast<long long>(options.request_timeout_s * 1000));
  plan.run_timeout = milliseconds(static_cast<long long>(options.run_timeout_s * 1000));
  plan.debug_exchanges = options.debug ? 5 : 0;
  return plan;
}

/// Boost.URL wraps ports above 65535 silently, so the digits are checked here.
unsigned short parse_port(std::string_view digits, std::string_view url) {
  unsigned port = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  if (error != std::errc{} || end != digits.data() + digits.size() || port < 1 || port > 65535) {
    throw UsageError("bad port in URL '" + std::string(url) + "' (use 1-65535)");
  }
  return static_cast<unsigned short>(port);
}

}  // namespace

void apply_url(std::string_view url, model::Request& request) {
  const std::string text =
      url.find("://") == std::string_view::npos ? "http://" + std::string(url) : std::string(url);
  const auto parsed = boost::urls::parse_uri(text);
  const auto hint = " (expected http://host[:port]/path or https://...)";
  if (!parsed) throw UsageError("malformed URL '" + std::string(url) + "'" + hint);
  const auto scheme = parsed->scheme();
  if (scheme != "http" && scheme != "https") {
    throw UsageError("unsupported scheme '" + std::string(scheme) + "' in '" + std::string(url) +
                     "' (stampede speaks http:// and https://)");
  }
  request.scheme = scheme == "https" ? model::Scheme::https : model::Scheme::http;
  request.host = parsed->host_address();
  if (request.host.empty()) throw UsageError("no host in URL '" + std::string(url) + "'" + hint);
  request.port = request.scheme == model::Scheme::https ? 443 : 80;
  if (parsed->has_port()) request.port = parse_port(parsed->port(), url);
  request.target = parsed->encoded_path().empty() ? "/" : std::string(parsed->encoded_path());
  if (parsed->has_query()) request.target += "?" + std::string(parsed->encoded_query());
}

RunConfig make_run_config(const Options& options) {
  if (options.url.empty()) throw UsageError("no URL given (use -u http://host:port/path)");
  RunConfig config;
  auto& request = config.request;
  apply_url(options.url, request);
  for (const auto& header : options.headers) request.headers.push_back(split_header(header));
  if (!options.data.empty() || options.has_data) {
    request.body = options.data.starts_with("@") ? read_file(options.data.substr(1)) : options.data;
  }
  request.method = !options.method.empty() ? options.method : options.has_data ? "POST" : "GET";
  request.keep_alive = options.keep_alive;
  request.follow_redirects = options.redirect;
  request.insecure = options.insecure;
  config.plan = make_plan(options);
  config.verifier = verify::make_verifier(options.verify, options.code);
  return config;
}

}  // namespace stampede::cmd
