// Undoes a response's Content-Encoding (gzip, deflate, br, zstd) for curl's --compressed.
#pragma once

#include <boost/system/error_code.hpp>
#include <string>
#include <string_view>

namespace stampede::client {

/// Decoded bodies larger than this are refused, so that a small "zip bomb" cannot take the
/// load generator's memory.
inline constexpr std::size_t max_decoded_body = 64 * 1024 * 1024;

/// Replaces `body` with its decoded form. `content_encoding` lists the codings in the order
/// the server applied them ("gzip", "deflate, br"), so they are undone from the last; "identity"
/// changes nothing. On failure (an unknown coding, corrupt data, a body over max_decoded_body)
/// returns an error of content_decoding_category() and leaves `body` unspecified.
boost::system::error_code decode_content(std::string_view content_encoding, std::string& body);

/// The category of decode_content()'s errors; their messages say what could not be decoded.
const boost::system::error_category& content_decoding_category();

}  // namespace stampede::client
