// make_run_config(): every user-facing check of what to send lives here, before any traffic.
#include "cmd/run_config.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include "cmd/curl_steps.hpp"
#include "curl/url.hpp"

namespace stampede::cmd {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw UsageError("cannot read -data file '" + path + "' (check the path after @)");
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

model::Plan make_plan(const Options& options) {
  using std::chrono::milliseconds;
  model::Plan plan;
  plan.users = static_cast<std::uint64_t>(options.users);
  plan.rounds_per_user = static_cast<std::uint64_t>(options.requests);
  plan.threads = options.threads > 0 ? static_cast<unsigned>(options.threads)
                                     : std::max(1U, std::thread::hardware_concurrency());
  plan.request_timeout = milliseconds(static_cast<long long>(options.request_timeout_s * 1000));
  plan.run_timeout = milliseconds(static_cast<long long>(options.run_timeout_s * 1000));
  plan.debug_exchanges = options.debug ? 5 : 0;
  return plan;
}

/// The request of a run without -p: everything comes from the flags.
model::Request request_from_flags(const Options& options) {
  if (options.url.empty())
    throw UsageError("no URL given (use -u http://host:port/path, or -p FILE)");
  model::Request request;
  apply_url(options.url, request);
  for (const auto& header : options.headers) request.headers.push_back(split_header(header));
  if (!options.data.empty() || options.has_data) request.body = body_of(options);
  request.method = !options.method.empty() ? options.method : options.has_data ? "POST" : "GET";
  request.keep_alive = options.keep_alive;
  request.follow_redirects = options.redirect;
  request.insecure = options.insecure;
  if (options.http2) request.http_version = model::HttpVersion::http2_prior_knowledge;
  return request;
}

}  // namespace

void apply_url(std::string_view url, model::Request& request) {
  try {
    (void)curl::apply_url(url, request);
  } catch (const curl::UrlError& error) {
    throw UsageError(error.what());
  }
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

std::string body_of(const Options& options) {
  return options.data.starts_with("@") ? read_file(options.data.substr(1)) : options.data;
}

RunConfig make_run_config(const Options& options) {
  RunConfig config;
  if (options.curl_file.empty()) {
    config.steps.push_back(request_from_flags(options));
  } else {
    config.steps = curl_steps(options, config.warnings);
  }
  config.plan = make_plan(options);
  // A step's --max-time bounds its exchanges, unless -t on the command line says otherwise.
  if (options.has_request_timeout) {
    for (auto& step : config.steps) step.max_time = {};
  }
  config.verifier = verify::make_verifier(options.verify, options.code);
  return config;
}

}  // namespace stampede::cmd
