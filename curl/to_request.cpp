// to_requests(): curl's rules for the method, the body and the headers it adds on its own.
#include "curl/to_request.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "curl/body.hpp"
#include "curl/cookies.hpp"
#include "curl/files.hpp"
#include "curl/headers.hpp"
#include "curl/multipart.hpp"
#include "curl/route.hpp"
#include "curl/time_cond.hpp"
#include "curl/url.hpp"
#include "model/http_syntax.hpp"

namespace stampede::curl {

namespace {

/// What curl 7.88.1 (zlib, brotli, zstd) puts in Accept-Encoding for --compressed.
constexpr const char* accept_encoding = "deflate, gzip, br, zstd";

/// --max-time and --connect-timeout: seconds, at most a year (`inf`, `nan` and 1e300 are not).
std::chrono::milliseconds seconds(const Argument& argument, std::string_view option) {
  constexpr double year = 365.0 * 24 * 3600;
  double value = -1;
  const auto& text = argument.value;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || !(value >= 0 && value <= year)) {
    throw ParseError(argument.where, "bad " + std::string(option) + " '" + text +
                                         "' (expected a number of seconds, at most a year)");
  }
  return std::chrono::milliseconds(static_cast<long long>(value * 1000));
}

/// -X: one HTTP token. curl sends any text, but `GET / HTTP/1.1\r\n...` is not a method.
std::string method(const Argument& argument) {
  const auto& text = argument.value;
  if (!model::is_token(text)) {
    throw ParseError(argument.where, "bad method '" + text + "' (-X takes one word)");
  }
  return text;
}

/// An option whose value goes into a header or the request line as typed (-A, -e, -b, -r,
/// --oauth2-bearer, -u for digest, --request-target, --url-query +...). curl sends a CR, LF or
/// NUL as it is, which adds a header line or splits the request: refused, as in -H.
const std::string& field_safe(const Argument& argument, std::string_view option) {
  const auto& text = argument.value;
  if (const auto bad = model::unsafe_in_field_value(text); bad != std::string::npos) {
    throw ParseError(argument.where, std::string(option) + " '" + text.substr(0, bad) +
                                         "...' contains " +
                                         (text[bad] == '\0' ? "a NUL byte" : "a line break") +
                                         " (it would add a header line or split the request)");
  }
  return text;
}

/// --request-target and --url-query +...: a space would split the request line too.
const std::string& target_safe(const Argument& argument, std::string_view option) {
  const auto& text = field_safe(argument, option);
  if (const auto space = text.find_first_of(" \t"); space != std::string::npos) {
    throw ParseError(argument.where, std::string(option) + " '" + text +
                                         "' contains a space (it would split the request line; "
                                         "write it %20)");
  }
  return text;
}

/// curl refuses these mixes ("You can only select one HTTP request method!"), and so do we.
void check_methods(const CurlCommand& c) {
  const bool post_data = !c.data.empty() && !c.get;
  const int bodies = (post_data ? 1 : 0) + (c.form.empty() ? 0 : 1) + (c.upload_file ? 1 : 0);
  if (bodies > 1 || (bodies == 1 && c.head)) {
    throw ParseError(c.where,
                     "curl refuses this command: it mixes -d, -F, -T or -I (one method "
                     "per request)");
  }
  if (c.urls.empty()) throw ParseError(c.where, "no URL in this curl command");
}

class Builder {
 public:
  Builder(const CurlCommand& command, const Files& files, std::vector<Warning>& warnings)
      : c_(command), files_(files), warnings_(warnings) {}

  model::Request build(const Argument& url) {
    model::Request r;
    std::string userinfo;
    try {
      const UrlReading how{c_.default_protocol ? std::string_view(c_.default_protocol->value)
                                               : std::string_view("http"),
                           c_.path_as_is};
      userinfo = apply_url(url.value, r, how);
    } catch (const UrlError& error) {
      throw ParseError(url.where, error.what());
    }
    for (const auto& query : c_.url_queries) append_query(url_query(query), r);
    Headers headers(c_.headers, files_, warnings_);
    set_body(r, headers);
    set_identity(r, headers, userinfo);
    set_conditions(headers);
    if (c_.compressed) headers.add_default("Accept-Encoding", accept_encoding);
    r.headers = headers.in_order();
    r.defaults_at = headers.defaults_at();
    r.body_headers_at = headers.body_headers_at();
    for (const auto& [name, value] : r.headers) {  // -A, -e, -b... make headers of their own
      if (const auto why = model::too_long_field(name, value); !why.empty()) {
        throw ParseError(c_.where, why);
      }
    }
    r.omit_headers = headers.omitted();
    r.compressed = c_.compressed;
    r.insecure = c_.insecure;
    r.tls_resume = !c_.no_sessionid;
    r.follow_redirects = c_.location;
    r.http_version = c_.http_version;
    if (c_.max_time) r.max_time = seconds(*c_.max_time, "--max-time");
    if (c_.connect_timeout) r.connect_timeout = seconds(*c_.connect_timeout, "--connect-timeout");
    if (c_.method) r.method = method(*c_.method);
    r.route = route_of(c_, r.origin, warnings_);
    if (c_.request_target) r.target = target_safe(*c_.request_target, "--request-target");
    return r;
  }

 private:
  /// --url-query: `+` sends the rest as written; anything else is encoded as curl 7.88 does.
  [[nodiscard]] std::string url_query(const Argument& query) const {
    if (query.value.starts_with('+')) return target_safe(query, "--url-query").substr(1);
    return url_encoded_piece(query, files_, Hex::lower);
  }

  /// -r and -z.
  void set_conditions(Headers& headers) {
    if (c_.range) {
      // curl completes a single number to an open range ("100" -> "100-").
      const auto& text = field_safe(*c_.range, "-r");
      const bool number = !text.empty() && std::isdigit(static_cast<unsigned char>(text[0])) &&
                          text.find('-') == std::string::npos;
      headers.add_default("Range", "bytes=" + text + (number ? "-" : ""));
    }
    if (c_.time_condition) {
      if (auto header = time_condition(*c_.time_condition, files_, warnings_)) {
        headers.add_default(header->first, std::move(header->second));
      }
    }
  }

  void set_body(model::Request& r, Headers& headers) {
    const auto data = c_.data.empty() ? std::string() : join_data(c_.data, files_);
    if (c_.get || c_.head) r.method = c_.head ? "HEAD" : "GET";
    if (c_.get) {
      if (!c_.data.empty()) append_query(data, r);
    } else if (!c_.data.empty()) {
      r.method = "POST";
      r.body = data;
      const bool json = std::any_of(c_.data.begin(), c_.data.end(),
                                    [](const DataArgument& d) { return d.kind == DataKind::json; });
      if (json) {  // curl's --json adds its two headers as -H lines
        headers.add_as_user("Content-Type", "application/json");
        headers.add_as_user("Accept", "application/json");
      } else {
        headers.add_default("Content-Type", "application/x-www-form-urlencoded");
      }
    } else if (!c_.form.empty()) {
      set_form(r, headers);
    } else if (c_.upload_file) {
      set_upload(r, headers);
    }
  }

  void set_form(model::Request& r, Headers& headers) {
    r.method = "POST";
    const auto type = headers.value("Content-Type").value_or("multipart/form-data");
    const bool form_data = type.starts_with("multipart/form-data");
    const auto multipart = make_multipart(c_.form, files_, form_data ? "form-data" : "attachment");
    r.body = multipart.body;
    headers.set_body_header("Content-Type", type + "; boundary=" + multipart.boundary);
  }

  /// -T: a PUT of the file; a URL ending in `/` gets the file's name; no Content-Type, and
  /// curl asks `Expect: 100-continue` for every upload.
  void set_upload(model::Request& r, Headers& headers) {
    const auto& file = *c_.upload_file;
    r.method = "PUT";
    r.body = files_.read(file.value, file.where);
    const auto query = r.target.find('?');
    if (r.target.substr(0, query).ends_with('/')) {
      r.target.insert(std::min(query, r.target.size()),
                      std::filesystem::path(file.value).filename().string());
    }
    headers.add_default("Expect", "100-continue");
    headers.omit_default("Content-Type");
  }

  void set_identity(model::Request& r, Headers& headers, const std::string& userinfo) {
    // With --digest curl answers the server's challenge only: no bearer goes first.
    const bool digest = c_.digest && (c_.user || !userinfo.empty());
    if (c_.bearer && !digest) {
      headers.add_default("Authorization", "Bearer " + field_safe(*c_.bearer, "--oauth2-bearer"));
    } else if (c_.user || !userinfo.empty()) {
      auto credentials = c_.user ? field_safe(*c_.user, "-u") : userinfo;
      if (credentials.find(':') == std::string::npos) {
        warnings_.push_back({c_.user ? c_.user->where : c_.where,
                             "-u has no password; curl would ask for one, "
                             "stampede sends an empty password"});
        credentials += ':';
      }
      if (c_.digest) {  // nothing until the server's challenge asks for it
        const auto colon = credentials.find(':');
        r.digest = model::Credentials{credentials.substr(0, colon), credentials.substr(colon + 1),
                                      c_.basic.value_or(false)};
      } else {  // Basic, also after --no-basic: curl then sets no method, and Basic is libcurl's
        headers.add_default("Authorization", "Basic " + base64(credentials));
      }
    }
    if (c_.user_agent && c_.user_agent->value.empty()) headers.omit_default("User-Agent");
    if (c_.user_agent && !c_.user_agent->value.empty()) {
      headers.add_default("User-Agent", field_safe(*c_.user_agent, "-A"));
    }
    if (c_.referer && !c_.referer->value.empty()) {  // curl sends no Referer for -e ''
      const auto& referer = field_safe(*c_.referer, "-e");
      // `;auto` only tells curl to update the referer while following redirects.
      headers.add_default(
          "Referer", referer.ends_with(";auto") ? referer.substr(0, referer.size() - 5) : referer);
    }
    for (const auto& cookie : c_.cookies) (void)field_safe(cookie, "-b");
    auto cookies = read_cookies(c_.cookies, files_, warnings_);
    if (!cookies.header.empty()) headers.add_default("Cookie", cookies.header);
    r.jar_cookies = std::move(cookies.jar);
  }

  const CurlCommand& c_;
  const Files& files_;
  std::vector<Warning>& warnings_;
};

}  // namespace

std::vector<model::Request> to_requests(const CurlCommand& command, const Files& files,
                                        std::vector<Warning>& warnings) {
  check_methods(command);
  std::vector<model::Request> requests;
  Builder builder(command, files, warnings);
  for (const auto& url : command.urls) requests.push_back(builder.build(url));
  return requests;
}

}  // namespace stampede::curl
