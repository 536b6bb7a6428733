// The nghttp2 client session's helpers (H2Streams): the session's ownership, its opening
// SETTINGS, moving bytes, header fields and request bodies, and -d's log of an exchange.
#pragma once

#include <nghttp2/nghttp2.h>

#include <boost/system/error_code.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "model/response.hpp"
#include "server/client/prepared_request.hpp"

namespace stampede::client::h2 {

struct SessionDeleter {
  void operator()(nghttp2_session* session) const { nghttp2_session_del(session); }
};
/// An nghttp2 session, deleted with it.
using Session = std::unique_ptr<nghttp2_session, SessionDeleter>;

/// `n` bytes nghttp2 handed over, as text.
inline std::string_view view(const std::uint8_t* data, std::size_t n) {
  return {reinterpret_cast<const char*>(data), n};
}

/// A request's header field as nghttp2 takes it, without copies: the request (its Http2Wire)
/// outlives the stream, so nghttp2 may keep the pointers.
nghttp2_nv field(const H2Field& name_value);

/// Our SETTINGS (no push; a stream window of `window` bytes) and a connection window as large.
void open_windows(nghttp2_session* session, std::int32_t window);

/// The payload of the SETTINGS open_windows() sends (RFC 9113 6.5.1), for an h2c upgrade: the
/// request carries it base64url-encoded in HTTP2-Settings, and once the server switches nghttp2
/// takes it as the SETTINGS we sent (RFC 7540 3.2.1).
std::string settings_payload(std::int32_t window);

/// The connection window as large as the stream's, as open_windows() opens it, for a session
/// whose SETTINGS went in the upgrade request.
void open_connection_window(nghttp2_session* session, std::int32_t window);

/// A response header the report, a redirect or --compressed reads.
void note_header(model::Response& response, std::string_view name, std::string_view value);

/// nghttp2's DATA source: the next part of `body` after `sent` bytes, into `buffer`.
std::size_t copy_body(const std::string& body, std::size_t& sent, std::uint8_t* buffer,
                      std::size_t length, std::uint32_t* flags);

/// What the session has to write, gathered into `out` (empty when nothing, or on an error,
/// which goes to `error`).
std::string_view drain_output(nghttp2_session* session, std::string& out,
                              boost::system::error_code& error);

/// Feeds bytes read to the session; false on a connection error (in `error`).
bool feed_input(nghttp2_session* session, const char* data, std::size_t n,
                boost::system::error_code& error);

/// -d: the header list sent and what came back (HTTP/2's frames are binary: no raw dump), with
/// the stream's or the connection's error if any.
void log_exchange(const Http2Wire& request, const model::Response& response,
                  const boost::system::error_code& error);

}  // namespace stampede::client::h2
