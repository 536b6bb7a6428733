// HTTP/2 failures as error_codes, so that classify() and the first-failure log treat them alike.
#pragma once

#include <boost/system/error_code.hpp>
#include <cstdint>

namespace stampede::client {

/// nghttp2's category: negative values are nghttp2 library errors (nghttp2_strerror);
/// non-negative ones are HTTP/2 error codes from the server's RST_STREAM or GOAWAY, or, from
/// h2_local_base on, from ours.
const boost::system::error_category& h2_category();

/// An nghttp2 library error (a negative nghttp2_error).
inline boost::system::error_code h2_library_error(int code) { return {code, h2_category()}; }

/// An HTTP/2 error code the peer sent (RST_STREAM, GOAWAY).
inline boost::system::error_code h2_peer_error(std::uint32_t code) {
  return {static_cast<int>(code), h2_category()};
}

/// The peer's REFUSED_STREAM (0x7), which nghttp2 also reports for the streams a GOAWAY leaves
/// out: the server did not process the request.
inline boost::system::error_code h2_refused() { return h2_peer_error(0x7); }

/// Where h2_category() keeps the HTTP/2 error codes of our own GOAWAY, above the peer's.
inline constexpr int h2_local_base = 0x10000;

/// An HTTP/2 error code we sent in GOAWAY, ending a connection on which the server broke the
/// protocol.
inline boost::system::error_code h2_local_error(std::uint32_t code) {
  return {h2_local_base + static_cast<int>(code), h2_category()};
}

}  // namespace stampede::client
