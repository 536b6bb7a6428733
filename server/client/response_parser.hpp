// HTTP/1.1 response parser: the status, the few fields a report needs, and the body's framing.
#pragma once

#include <boost/system/error_code.hpp>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model/response.hpp"

namespace stampede::client {

/// Parses one response at a time, from bytes as they arrive, straight into a reused
/// model::Response (status, Server, Location, body bytes); it allocates nothing.
///
/// Why not Beast's parser, which stampede used first: it validates and classifies every field
/// into its own enum, about 4,900 instructions per response, 57% of stampede's instructions per
/// request in a callgrind profile. wrk's parser (nodejs/http-parser) is no longer maintained, and
/// picohttpparser and llhttp are not in Debian. This one finds each line with memchr and reads
/// only what frames the body (RFC 9112 6.3) or goes in the report; other fields are checked for
/// form (a token, a colon), not content. Errors are Beast's http::error codes, so they are
/// classified and described as before.
class ResponseParser {
 public:
  /// Largest response head (status line and fields) accepted.
  static constexpr std::size_t head_limit = 64 * 1024;

  /// Starts on a new response, written into `response`. `keep_body`: append the body to
  /// response.body. `head_request`: the answer to a HEAD, which has no body.
  void start(model::Response& response, bool keep_body, bool head_request);

  /// Parses what it can of `data`; returns the bytes used. When fewer than `data.size()` are
  /// used and the response is not done, more bytes are needed. `error` is set when the
  /// response is malformed.
  std::size_t put(std::string_view data, boost::system::error_code& error);

  /// The server closed the connection: completes a body that runs to the end of the
  /// connection. False when the response was cut short.
  bool put_eof();

  [[nodiscard]] bool done() const { return state_ == State::done; }
  /// The head (status line and fields) is still being read.
  [[nodiscard]] bool in_head() const { return state_ == State::head; }
  /// Some byte of this response has arrived.
  [[nodiscard]] bool got_some() const { return got_some_; }
  /// The connection may carry another request after this response.
  [[nodiscard]] bool keep_alive() const;

 private:
  enum class State : unsigned char {
    head,            // status line and fields, until the empty line
    length_body,     // Content-Length bytes
    eof_body,        // until the server closes
    chunk_size,      // "1a;ext\r\n"
    chunk_data,      // the chunk's bytes
    chunk_data_end,  // the CRLF after them
    trailers,        // fields after the last chunk, until the empty line
    done,
  };

  std::size_t parse_head(std::string_view data, boost::system::error_code& error);
  std::size_t incomplete_head(std::string_view data, boost::system::error_code& error);
  void parse_status_line(std::string_view line, boost::system::error_code& error);
  void parse_field(const char* line, const char* cr, const char* end,
                   boost::system::error_code& error);
  void read_field(std::string_view name, std::string_view value, boost::system::error_code& error);
  void read_content_length(std::string_view value, boost::system::error_code& error);
  void read_connection(std::string_view value);
  void frame_body();
  std::size_t take_body(std::string_view data, std::size_t n);
  std::size_t parse_chunk_size(std::string_view data, boost::system::error_code& error);
  std::size_t parse_chunk_end(std::string_view data, boost::system::error_code& error);
  std::size_t skip_trailer(std::string_view data, boost::system::error_code& error);

  /// What the head says about the body's framing and the connection's reuse.
  struct HeadFields {
    std::uint64_t content_length = 0;
    bool has_length = false;
    bool http10 = false;
    bool chunked = false;
    bool encoded = false;           ///< Transfer-Encoding without chunked last: body to the end
    bool close = false;             ///< Connection: close, or a framing that forbids reuse
    bool keep_alive_token = false;  ///< Connection: keep-alive (HTTP/1.0)
  };

  model::Response* response_ = nullptr;
  HeadFields head_;
  std::uint64_t remaining_ = 0;  ///< bytes left of the Content-Length body or the chunk
  std::size_t scanned_ = 0;      ///< bytes of an incomplete head already searched
  State state_ = State::done;
  bool keep_body_ = false;
  bool head_request_ = false;
  bool got_some_ = false;
};

}  // namespace stampede::client
