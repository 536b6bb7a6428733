// ResponseParser: RFC 9112 response heads, Content-Length, chunked and close-delimited bodies.
#include "server/client/response_parser.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <boost/beast/http/error.hpp>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "server/client/field_text.hpp"

namespace stampede::client {

namespace {

using Error = boost::beast::http::error;

/// RFC 9110 5.6.2 tchar: the characters of a field name.
constexpr std::array<bool, 256> token_chars = [] {
  std::array<bool, 256> table{};
  for (int c = '0'; c <= '9'; ++c) table[c] = true;
  for (int c = 'a'; c <= 'z'; ++c) table[c] = table[c - 'a' + 'A'] = true;
  for (const char c : std::string_view("!#$%&'*+-.^_`|~")) {
    table[static_cast<unsigned char>(c)] = true;
  }
  return table;
}();

#if defined(__SSE2__)
/// Lanes of all ones where `bytes` holds a letter, a digit or '-': the bytes of nearly every
/// field name. A byte is in [low, high] when its distance from `low`, unsigned, is under the
/// range's width; SSE2 compares bytes as signed only, so both sides are moved by 128.
__m128i common_name_bytes(__m128i bytes) {
  const auto in_range = [](__m128i x, int low, int high) {
    return _mm_cmplt_epi8(_mm_sub_epi8(x, _mm_set1_epi8(static_cast<char>(low + 128))),
                          _mm_set1_epi8(static_cast<char>(high - low + 1 - 128)));
  };
  const __m128i lower = _mm_or_si128(bytes, _mm_set1_epi8(0x20));  // 'A'-'Z' to 'a'-'z'
  return _mm_or_si128(_mm_or_si128(in_range(lower, 'a', 'z'), in_range(bytes, '0', '9')),
                      _mm_cmpeq_epi8(bytes, _mm_set1_epi8('-')));
}
#endif

/// The end of the field name that starts at `line`: its first byte that is not a tchar. The CR
/// that ends the line, which no name holds, ends the scan at the latest; `end`, the end of the
/// bytes at hand, bounds the reads ahead of it. Sixteen bytes are looked at at once while they
/// are letters, digits or '-' (a byte a time was 420 instructions of a 9-line head's 1,938:
/// docs/benchmarks.md, session three); the table then checks from the first other byte on.
const char* name_end(const char* line, const char* end) {
#if defined(__SSE2__)
  while (end - line >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(line));
    const auto common = static_cast<unsigned>(_mm_movemask_epi8(common_name_bytes(bytes)));
    if (common != 0xFFFFU) {
      line += std::countr_one(common);
      break;
    }
    line += 16;
  }
#endif
  while (token_chars[static_cast<unsigned char>(*line)]) ++line;
  return line;
}

/// Field lines longer than this in a chunked body (size line, trailer) are refused.
constexpr std::size_t line_limit = 8 * 1024;

/// The length of the line at the start of `data` without its CRLF, or npos when no LF has
/// arrived. Sets `error` when the LF is not preceded by CR.
std::size_t line_end(std::string_view data, boost::system::error_code& error) {
  const void* lf = std::memchr(data.data(), '\n', data.size());
  if (lf == nullptr) return std::string_view::npos;
  const auto end = static_cast<std::size_t>(static_cast<const char*>(lf) - data.data());
  if (end == 0 || data[end - 1] != '\r') {
    error = Error::bad_line_ending;
    return 0;
  }
  return end - 1;
}

/// True when "\r\n\r\n" ends somewhere in `data` after its first `from` bytes.
bool has_empty_line(std::string_view data, std::size_t from) {
  for (std::size_t i = from < 3 ? 3 : from; i < data.size(); ++i) {
    const void* lf = std::memchr(data.data() + i, '\n', data.size() - i);
    if (lf == nullptr) return false;
    i = static_cast<std::size_t>(static_cast<const char*>(lf) - data.data());
    if (data.substr(i - 3, 4) == "\r\n\r\n") return true;
  }
  return false;
}

}  // namespace

void ResponseParser::start(model::Response& response, bool keep_body, bool head_request) {
  *this = ResponseParser{};
  response_ = &response;
  response.content_encoding.clear();  // a 1xx or a redirect hop before may have set it
  keep_body_ = keep_body;
  head_request_ = head_request;
  state_ = State::head;
}

bool ResponseParser::keep_alive() const {
  if (head_.close) return false;
  return head_.http10 ? head_.keep_alive_token : true;
}

std::size_t ResponseParser::put(std::string_view data, boost::system::error_code& error) {
  got_some_ = got_some_ || !data.empty();
  std::size_t used = 0;
  while (used < data.size() && state_ != State::done && !error) {
    const auto rest = data.substr(used);
    std::size_t n = 0;
    switch (state_) {
      case State::head:
        n = parse_head(rest, error);
        break;
      case State::length_body:
      case State::chunk_data:
        n = take_body(rest,
                      static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, rest.size())));
        remaining_ -= n;
        if (remaining_ == 0) {
          state_ = state_ == State::length_body ? State::done : State::chunk_data_end;
        }
        break;
      case State::eof_body:
        n = take_body(rest, rest.size());
        break;
      case State::chunk_size:
        n = parse_chunk_size(rest, error);
        break;
      case State::chunk_data_end:
        n = parse_chunk_end(rest, error);
        break;
      case State::trailers:
        n = skip_trailer(rest, error);
        break;
      case State::done:
        break;
    }
    if (n == 0) break;  // more bytes needed (or an error)
    used += n;
  }
  return used;
}

bool ResponseParser::put_eof() {
  if (state_ == State::eof_body) state_ = State::done;
  return state_ == State::done;
}

/// The field line from `line` to `cr`, the CR that ends it (the bytes at hand run to `end`).
/// Most fields are only checked for form, so this is inline in parse_head()'s loop and calls out
/// only for a field it reads.
[[gnu::always_inline]] inline void ResponseParser::parse_field(const char* line, const char* cr,
                                                               const char* end,
                                                               boost::system::error_code& error) {
  // RFC 9112 5.2: a client replaces obs-fold with a space; no field read here is ever folded
  // by a real server, so a continuation line is passed over.
  if (is_space(*line)) return;
  const char* const colon = name_end(line, end);
  if (colon == line || *colon != ':') {
    error = Error::bad_field;
    return;
  }
  const std::string_view name(line, static_cast<std::size_t>(colon - line));
  const std::string_view value(colon + 1, static_cast<std::size_t>(cr - colon - 1));
  if (const auto* wanted = response_->wanted_header(name)) {
    response_->headers.emplace_back(*wanted, trim(value));
  }
  // Only names of these lengths are read here: the others cost a shift and a test.
  constexpr std::uint32_t lengths_read =
      1U << 6 | 1U << 8 | 1U << 10 | 1U << 14 | 1U << 16 | 1U << 17;
  if (name.size() < 32 && ((lengths_read >> name.size()) & 1U) != 0) {
    read_field(name, trim(value), error);
  }
}

void ResponseParser::read_field(std::string_view name, std::string_view value,
                                boost::system::error_code& error) {
  switch (name.size()) {
    case 6:
      if (iequals(name, "server")) response_->server.assign(value);  // reuses its capacity
      break;
    case 8:
      if (iequals(name, "location")) response_->location.assign(value);
      break;
    case 10:
      if (iequals(name, "connection")) read_connection(value);
      break;
    case 14:
      if (iequals(name, "content-length")) read_content_length(value, error);
      break;
    case 16:
      if (iequals(name, "content-encoding")) response_->content_encoding.assign(value);
      break;
    case 17:
      if (iequals(name, "transfer-encoding")) {
        for_each_token(value, [this](std::string_view coding) {
          head_.chunked = iequals(coding, "chunked");  // only a final chunked frames the body
          head_.encoded = !head_.chunked;
        });
      }
      break;
    default:
      break;
  }
}

std::size_t ResponseParser::parse_head(std::string_view data, boost::system::error_code& error) {
  // A head that came in parts is parsed again from its start once the empty line is there;
  // until then only the new bytes are searched, so a slow server costs no quadratic work.
  if (scanned_ > 0 && !has_empty_line(data, scanned_)) return incomplete_head(data, error);
  head_ = HeadFields{};
  // One pass over the head: memchr finds each line's LF and the field's name is read up to its
  // colon in place. Every line read ends in a CR, which no name can hold, so the name's scan
  // needs no bound of its own (a substr and a trim of each line cost about 1,000 instructions a
  // response for nginx's 9 lines: docs/benchmarks.md, round three).
  const char* const begin = data.data();
  const char* const end = begin + data.size();
  const char* line = begin;
  for (bool status_line = true;; status_line = false) {
    const auto* lf =
        static_cast<const char*>(std::memchr(line, '\n', static_cast<std::size_t>(end - line)));
    if (lf == nullptr) return incomplete_head(data, error);
    if (lf == line || lf[-1] != '\r') {
      error = Error::bad_line_ending;
      return 0;
    }
    const char* const cr = lf - 1;
    if (cr == line && !status_line) break;  // the empty line that ends the head
    if (status_line) {
      parse_status_line({line, static_cast<std::size_t>(cr - line)}, error);
    } else {
      parse_field(line, cr, end, error);
    }
    if (error) return 0;
    line = lf + 1;
    if (static_cast<std::size_t>(line - begin) > head_limit) {
      error = Error::header_limit;
      return 0;
    }
  }
  frame_body();
  return static_cast<std::size_t>(line - begin) + 2;
}

std::size_t ResponseParser::incomplete_head(std::string_view data,
                                            boost::system::error_code& error) {
  scanned_ = data.size();
  if (data.size() > head_limit) error = Error::header_limit;
  return 0;
}

/// "HTTP/1.1 200 OK": the version decides keep-alive's default; the reason is not kept.
void ResponseParser::parse_status_line(std::string_view line, boost::system::error_code& error) {
  if (line.size() < 12 || !line.starts_with("HTTP/1.") || line[7] < '0' || line[7] > '9' ||
      line[8] != ' ') {
    error = Error::bad_version;
    return;
  }
  head_.http10 = line[7] == '0';
  int status = 0;
  for (std::size_t i = 9; i < 12; ++i) {
    if (line[i] < '0' || line[i] > '9') {
      error = Error::bad_status;
      return;
    }
    status = status * 10 + (line[i] - '0');
  }
  if (line.size() > 12 && line[12] != ' ') error = Error::bad_status;
  response_->status = status;
}

void ResponseParser::read_content_length(std::string_view value, boost::system::error_code& error) {
  if (value.empty() || value.size() > 18) {
    error = Error::bad_content_length;
    return;
  }
  std::uint64_t length = 0;
  for (const char c : value) {
    if (c < '0' || c > '9') {
      error = Error::bad_content_length;
      return;
    }
    length = length * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (head_.has_length && length != head_.content_length) error = Error::bad_content_length;
  head_.has_length = true;
  head_.content_length = length;
}

void ResponseParser::read_connection(std::string_view value) {
  // Nearly every server's whole value is one of these: no list to split.
  if (iequals(value, "keep-alive")) {
    head_.keep_alive_token = true;
    return;
  }
  if (iequals(value, "close")) {
    head_.close = true;
    return;
  }
  for_each_token(value, [this](std::string_view option) {
    head_.close = head_.close || iequals(option, "close");
    head_.keep_alive_token = head_.keep_alive_token || iequals(option, "keep-alive");
  });
}

/// RFC 9112 6.3: how this response's body ends, and whether the connection can be reused.
void ResponseParser::frame_body() {
  const int status = response_->status;
  head_.close = head_.close || status == 101;  // the connection now speaks another protocol
  if (head_request_ || status < 200 || status == 204 || status == 304) {
    state_ = State::done;
  } else if (head_.chunked) {
    // Both framings at once: the connection must not be reused (RFC 9112 6.3).
    head_.close = head_.close || head_.has_length;
    state_ = State::chunk_size;
  } else if (head_.encoded || !head_.has_length) {
    head_.close = true;  // the body ends when the server closes
    state_ = State::eof_body;
  } else {
    remaining_ = head_.content_length;
    state_ = remaining_ == 0 ? State::done : State::length_body;
  }
}

std::size_t ResponseParser::take_body(std::string_view data, std::size_t n) {
  response_->body_bytes += n;
  if (keep_body_) response_->body.append(data.data(), n);
  return n;
}

/// "1a;name=value\r\n": the size in hex; extensions are allowed and ignored.
std::size_t ResponseParser::parse_chunk_size(std::string_view data,
                                             boost::system::error_code& error) {
  const auto length = line_end(data, error);
  if (error) return 0;
  if (length == std::string_view::npos) {
    if (data.size() > line_limit) error = Error::bad_chunk;
    return 0;
  }
  const auto line = data.substr(0, length);
  std::uint64_t size = 0;
  std::size_t digits = 0;
  for (; digits < line.size(); ++digits) {
    const char c = line[digits];
    const int value = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
    if (value < 0) break;
    size = size * 16 + static_cast<std::uint64_t>(value);
  }
  const auto after = trim(line.substr(digits));
  if (digits == 0 || digits > 15 || (!after.empty() && after[0] != ';')) {
    error = Error::bad_chunk;
    return 0;
  }
  remaining_ = size;
  state_ = size == 0 ? State::trailers : State::chunk_data;
  return length + 2;
}

std::size_t ResponseParser::parse_chunk_end(std::string_view data,
                                            boost::system::error_code& error) {
  if (data[0] != '\r' || (data.size() > 1 && data[1] != '\n')) {
    error = Error::bad_chunk;
    return 0;
  }
  if (data.size() < 2) return 0;
  state_ = State::chunk_size;
  return 2;
}

/// A trailer field line is passed over; the empty line ends the response.
std::size_t ResponseParser::skip_trailer(std::string_view data, boost::system::error_code& error) {
  const auto length = line_end(data, error);
  if (error) return 0;
  if (length == std::string_view::npos) {
    if (data.size() > line_limit) error = Error::bad_chunk;
    return 0;
  }
  if (length == 0) state_ = State::done;
  return length + 2;
}

}  // namespace stampede::client
