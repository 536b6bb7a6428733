// Request serialization with Beast's message type, done once per run rather than per request.
#include "server/client/prepared_request.hpp"

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <sstream>

#include "model/version.hpp"

namespace stampede::client {

namespace http = boost::beast::http;

namespace {

/// Host header value: the port only when it is not the scheme's default, IPv6 in brackets.
std::string host_header(const model::Request& request) {
  const bool ipv6 = request.host.find(':') != std::string::npos;
  std::string host = ipv6 ? "[" + request.host + "]" : request.host;
  const unsigned short default_port = request.scheme == model::Scheme::https ? 443 : 80;
  if (request.port != default_port) host += ":" + std::to_string(request.port);
  return host;
}

bool has_header(const model::Request& request, http::field name) {
  for (const auto& [key, value] : request.headers) {
    if (http::string_to_field(key) == name) return true;
  }
  return false;
}

}  // namespace

PreparedRequest prepare(const model::Request& request) {
  http::request<http::string_body> message;
  message.method_string(request.method);
  message.target(request.target);
  message.version(11);
  message.set(http::field::host, host_header(request));
  message.set(http::field::user_agent, model::user_agent);
  message.set(http::field::accept, "*/*");
  if (!request.body.empty() && !has_header(request, http::field::content_type)) {
    message.set(http::field::content_type, "application/x-www-form-urlencoded");
  }
  for (const auto& [name, value] : request.headers) {
    if (const auto field = http::string_to_field(name); field == http::field::host ||
                                                        field == http::field::user_agent ||
                                                        field == http::field::accept) {
      message.set(field, value);
    } else {
      message.insert(name, value);
    }
  }
  if (!request.keep_alive) message.set(http::field::connection, "close");
  message.body() = request.body;
  const bool needs_length = !request.body.empty() || request.method == "POST" ||
                            request.method == "PUT" || request.method == "PATCH";
  if (needs_length) message.prepare_payload();
  // curl's `-H 'Accept:'`: the user asked for a default header not to be sent.
  for (const auto& name : request.omit_headers) message.erase(name);
  std::ostringstream out;
  out << message;
  const auto& method = request.method;
  const bool idempotent = method == "GET" || method == "HEAD" || method == "PUT" ||
                          method == "DELETE" || method == "OPTIONS" || method == "TRACE";
  return {out.str(),        method == "HEAD",       idempotent, nullptr, request.compressed,
          request.max_time, request.connect_timeout};
}

}  // namespace stampede::client
