// curl_steps(): curl::parse_file plus go-stress-testing's command-line overrides and the notes
// on what this engine does not do yet (flows, HTTP/2, a separate connect timeout, decoding).
#include "cmd/curl_steps.hpp"

#include <strings.h>
#include <algorithm>

#include "cmd/run_config.hpp"
#include "curl/parse.hpp"
#include "curl/url.hpp"

namespace stampede::cmd {

namespace {

bool same_name(const std::string& a, const std::string& b) {
  return strcasecmp(a.c_str(), b.c_str()) == 0;
}

/// `-H` on stampede's command line wins over the file's header of the same name.
void override_header(model::Request& step, const std::pair<std::string, std::string>& header) {
  std::erase_if(step.omit_headers,
                [&](const std::string& n) { return same_name(n, header.first); });
  const auto found = std::find_if(step.headers.begin(), step.headers.end(),
                                  [&](const auto& h) { return same_name(h.first, header.first); });
  if (found != step.headers.end()) {
    found->second = header.second;
  } else {
    step.headers.push_back(header);
  }
}

void override_step(const Options& options, model::Request& step) {
  if (!options.url.empty()) apply_url(options.url, step);
  for (const auto& header : options.headers) override_header(step, split_header(header));
  if (options.has_data) {
    step.body = body_of(options);
    if (options.method.empty()) step.method = "POST";
  }
  if (!options.method.empty()) step.method = options.method;
  step.keep_alive = options.keep_alive;
  step.follow_redirects = step.follow_redirects || options.redirect;
  step.insecure = step.insecure || options.insecure;
}

void note_unsupported(const std::vector<model::Request>& steps,
                      std::vector<std::string>& warnings) {
  const auto any = [&](auto predicate) {
    return std::any_of(steps.begin(), steps.end(), predicate);
  };
  if (steps.size() > 1) {
    warnings.emplace_back("the curl file has " + std::to_string(steps.size()) +
                          " requests (a flow); this version runs only the first");
  }
  if (any([](const auto& s) { return s.http_version == model::HttpVersion::http2; })) {
    warnings.emplace_back("--http2 in the curl file: stampede sends HTTP/1.1 for now");
  }
  if (any([](const auto& s) { return s.connect_timeout.count() > 0; })) {
    warnings.emplace_back(
        "--connect-timeout in the curl file is not applied on its own; -t bounds "
        "the whole exchange, connect included");
  }
  if (any([](const auto& s) { return s.compressed; })) {
    warnings.emplace_back(
        "--compressed in the curl file: Accept-Encoding is sent, but responses "
        "are not decoded (body sizes are the encoded ones)");
  }
}

}  // namespace

std::vector<model::Request> curl_steps(const Options& options, std::vector<std::string>& warnings) {
  curl::Parsed parsed;
  try {
    parsed = curl::parse_file(options.curl_file);
  } catch (const curl::ParseError& error) {
    throw UsageError(std::string(error.what()));
  }
  warnings = std::move(parsed.warnings);
  for (auto& step : parsed.steps) override_step(options, step);
  note_unsupported(parsed.steps, warnings);
  return std::move(parsed.steps);
}

}  // namespace stampede::cmd
