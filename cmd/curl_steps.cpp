// curl_steps(): curl::parse_file (or parse_har_file) plus go-stress-testing's command-line
// overrides, one -p file at a time, and a mix of them.
#include "cmd/curl_steps.hpp"

#include <algorithm>
#include <boost/algorithm/string/predicate.hpp>

#include "cmd/curl_source.hpp"
#include "cmd/header_flag.hpp"
#include "cmd/run_config.hpp"
#include "curl/har.hpp"
#include "curl/parse.hpp"
#include "curl/url.hpp"

namespace stampede::cmd {

namespace {

/// `-u` on a flow of several steps moves every step to its server (scheme, host, port) and
/// keeps each step's own path; on a single request it replaces the whole URL. Returns the
/// URL's `user:password`.
std::string override_url(const std::string& url, bool flow, model::Request& step) {
  if (!flow) return apply_url(url, step);
  model::Request server;
  auto credentials = apply_url(url, server);
  step.origin = server.origin;
  return credentials;
}

void override_step(const Options& options, bool flow, model::Request& step) {
  const auto credentials = options.url.empty() ? "" : override_url(options.url, flow, step);
  // -H on the command line wins over the file's header of the same name.
  for (const auto& header : options.headers) {
    apply_header(parse_header_flag(header), /*replace=*/true, step);
  }
  add_basic_auth(credentials, step);
  if (options.has_data) {
    step.body = body_of(options);
    if (options.method.empty()) step.method = "POST";
  }
  if (!options.method.empty()) step.method = options.method;
  step.keep_alive = options.keep_alive;
  step.follow_redirects = step.follow_redirects || options.redirect;
  step.insecure = step.insecure || options.insecure;
  step.tls_resume = step.tls_resume && !options.no_tls_resume;
  if (options.http2) step.http_version = model::HttpVersion::http2_prior_knowledge;
  apply_message_flags(options, step);
}

/// The file's steps, as curl (or a browser, for a HAR) sent them.
curl::Parsed parse(const std::string& path, const Options& options) {
  try {
    if (!curl::is_har(path)) return curl::parse_file(path);
    auto parsed = curl::parse_har_file(path, {options.har_include, options.har_exclude});
    if (options.think != Options::think_har) {
      for (auto& step : parsed.steps) step.pause = {};
    }
    return parsed;
  } catch (const curl::ParseError& error) {
    throw UsageError(std::string(error.what()));
  } catch (const curl::HarError& error) {
    throw UsageError(std::string(error.what()));
  }
}

/// A HAR's Origin and Referer name the recorded servers; once -u moved the steps, they name
/// the new one, as the browser would have sent them there (a server checking them against
/// cross-site requests would refuse the recorded ones).
void move_page_headers(const std::vector<std::string>& recorded, model::Request& step) {
  const auto moved = step.origin.url();
  for (auto& [name, value] : step.headers) {
    if (!boost::iequals(name, "origin") && !boost::iequals(name, "referer")) continue;
    for (const auto& from : recorded) {
      const bool names_it =
          value.starts_with(from) && (value.size() == from.size() || value[from.size()] == '/');
      if (!names_it) continue;
      value.replace(0, from.size(), moved);
      break;
    }
  }
}

/// One -p file's steps, appended to `read`, with the command line's overrides. `mix`: one of
/// several files, each a flow that -u moves to its server.
void add_file(const CurlSource& source, const Options& options, bool mix, FileSteps& read) {
  auto parsed = parse(source.path, options);
  for (auto& warning : parsed.warnings) read.warnings.push_back(std::move(warning));
  for (auto& note : parsed.notes) read.notes.push_back(std::move(note));
  read.inputs.push_back({"-p's file", source.path});
  for (auto& file : parsed.files) {
    read.inputs.push_back({"a file that " + source.path + " reads", std::move(file)});
  }
  // A HAR's entries are a session: -u moves them to its server even when there is one.
  const bool har = curl::is_har(source.path);
  const bool flow = parsed.steps.size() > 1 || har || mix;
  std::vector<std::string> recorded;
  for (const auto& step : parsed.steps) recorded.push_back(step.origin.url());
  for (auto& step : parsed.steps) {
    override_step(options, flow, step);
    if (har && !options.url.empty()) move_page_headers(recorded, step);
  }
  if (mix) {
    read.mix.push_back({source.path, read.steps.size(), parsed.steps.size(), source.weight});
  }
  for (auto& step : parsed.steps) read.steps.push_back(std::move(step));
}

}  // namespace

FileSteps curl_steps(const Options& options) {
  FileSteps read;
  const bool mix = options.curl_files.size() > 1;
  for (const auto& file : options.curl_files) add_file(curl_source(file), options, mix, read);
  return read;
}

}  // namespace stampede::cmd
