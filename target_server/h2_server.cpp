// H2Server: nghttp2's callbacks read each request; its answer goes out through mem_send.
#include "target_server/h2_server.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>

#include "target_server/paced_body.hpp"

namespace stampede::target_server {

/// One request and its answer; reused for later streams once closed.
struct H2Stream {
  Route route;
  bool head = false;
  bool grpc = false;  ///< content-type application/grpc (or application/grpc+...)
  GrpcMethod grpc_method = GrpcMethod::none;
  unsigned fail_code = 13;                       ///< x-fail-code, for Fail: INTERNAL by default
  std::uint64_t repeat = default_grpc_repeat;    ///< x-count, for Repeat
  std::chrono::milliseconds repeat_interval{0};  ///< x-interval-ms, for Repeat
  bool too_large = false;                        ///< the gRPC request passed max_grpc_request
  std::string grpc_request;     ///< what the method answers from (Chat: what is not sent back yet)
  bool request_ended = false;   ///< Chat: the client ended its requests
  bool answering = false;       ///< Chat: its head went, its DATA come as the requests do
  std::string_view body;        ///< what the DATA come from, over and over (/bytes/{n})
  std::uint64_t body_left = 0;  ///< bytes still to send
  std::uint64_t body_sent = 0;
  bool trailers = false;         ///< gRPC: end with trailers grpc-status 0, not END_STREAM
  PacedBody paced;               ///< /sse, /trickle: its pieces and when each is due
  std::uint64_t piece = 0;       ///< paced: the next piece to send
  std::uint64_t piece_sent = 0;  ///< paced: bytes of it sent already
  std::uint64_t due = 0;         ///< paced: the pieces due so far; Repeat: the answers
  /// Its place under --max-in-flight from its request to its answer; given back by a reset
  /// (close_stream) or the session's end too.
  InFlightSlot in_flight;
};

namespace {

/// Receive windows for a stream and for the connection, as the client has: a request body
/// never waits a round trip for a WINDOW_UPDATE.
constexpr std::int32_t window_size = 16 * 1024 * 1024;
/// output() stops gathering past this much: a large body goes out in pieces of this size.
constexpr std::size_t output_chunk = std::size_t{64} * 1024;
/// gRPC status codes used here (grpc/status.h).
constexpr unsigned grpc_ok = 0;
constexpr unsigned grpc_resource_exhausted = 8;
constexpr unsigned grpc_internal = 13;
constexpr unsigned grpc_unimplemented = 12;
constexpr unsigned grpc_highest = 16;
constexpr std::string_view grpc_content_type = "application/grpc";

std::string_view view(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

std::uint8_t* bytes(std::string_view text) {
  return reinterpret_cast<std::uint8_t*>(const_cast<char*>(text.data()));
}

/// A field whose name is a literal and whose value lives as long as the program (or is copied:
/// `copy_value`); nghttp2 keeps the pointers of what it does not copy until the frame is sent.
nghttp2_nv field(std::string_view name, std::string_view value, bool copy_value = false) {
  const std::uint8_t flags = NGHTTP2_NV_FLAG_NO_COPY_NAME |
                             (copy_value ? NGHTTP2_NV_FLAG_NONE : NGHTTP2_NV_FLAG_NO_COPY_VALUE);
  return {bytes(name), bytes(value), name.size(), value.size(), flags};
}

/// Decimal digits of `number` in `out`.
std::string_view digits(std::uint64_t number, std::array<char, 24>& out) {
  const auto end = std::to_chars(out.data(), out.data() + out.size(), number).ptr;
  return {out.data(), static_cast<std::size_t>(end - out.data())};
}

/// `text` as a whole number no larger than `most`; nothing otherwise.
std::optional<std::uint64_t> number_at_most(std::string_view text, std::uint64_t most) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > most) return std::nullopt;
  return value;
}

/// Ends a gRPC answer's DATA with the trailers: grpc-status `status`.
int end_with_trailers(nghttp2_session* session, std::int32_t stream_id, std::uint32_t* flags,
                      unsigned status) {
  *flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
  const nghttp2_nv fields[] = {
      field("grpc-status", status == grpc_ok ? "0" : "8"),
      field("grpc-message", "the request's messages not sent back passed 16 MiB")};
  return nghttp2_submit_trailer(session, stream_id, fields, status == grpc_ok ? 1 : 2);
}

int base64url_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-' || c == '+') return 62;  // '+' and '/': some clients send plain base64
  if (c == '_' || c == '/') return 63;
  return -1;
}

}  // namespace

std::optional<std::string> decode_h2_settings(std::string_view text) {
  constexpr std::size_t longest = 256;  // 32 settings; there are 7 kinds
  while (text.ends_with('=')) text.remove_suffix(1);
  if (text.size() > longest) return std::nullopt;
  std::string decoded;
  std::uint32_t bits = 0;
  int held = 0;
  for (const char c : text) {
    const int value = base64url_value(c);
    if (value < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(value);
    held += 6;
    if (held >= 8) {
      held -= 8;
      decoded.push_back(static_cast<char>((bits >> held) & 0xff));
    }
  }
  if (decoded.size() % 6 != 0) return std::nullopt;
  return decoded;
}

/// nghttp2's callbacks, as a friend so they can reach the server's state.
struct H2ServerCallbacks {
  static H2Server& of(void* user_data) { return *static_cast<H2Server*>(user_data); }

  static H2Stream* stream_of(nghttp2_session* session, std::int32_t stream_id) {
    return static_cast<H2Stream*>(nghttp2_session_get_stream_user_data(session, stream_id));
  }

  static bool is_request(const nghttp2_frame* frame) {
    return frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST;
  }

  static int on_begin_headers(nghttp2_session* session, const nghttp2_frame* frame,
                              void* user_data) {
    if (!is_request(frame)) return 0;
    return nghttp2_session_set_stream_user_data(session, frame->hd.stream_id,
                                                of(user_data).open_stream());
  }

  static int on_header(nghttp2_session* session, const nghttp2_frame* frame,
                       const std::uint8_t* name, std::size_t name_size, const std::uint8_t* value,
                       std::size_t value_size, std::uint8_t /*flags*/, void* /*user_data*/) {
    auto* stream = is_request(frame) ? stream_of(session, frame->hd.stream_id) : nullptr;
    if (stream == nullptr) return 0;  // trailers: nothing in them matters
    const auto key = view(name, name_size);
    const auto text = view(value, value_size);
    if (key == ":path") {
      stream->route = route(text);
      stream->grpc_method = grpc_method(text);
    } else if (key == "last-event-id") {
      take_last_event_id(stream->route, text);
    } else if (key == ":method") {
      stream->head = text == "HEAD";
    } else if (key == "content-type") {
      stream->grpc = text.starts_with(grpc_content_type);
    } else if (key == "x-fail-code") {
      if (const auto code = number_at_most(text, grpc_highest)) {
        stream->fail_code = static_cast<unsigned>(*code);
      }
    } else if (key == "x-count") {
      stream->repeat = number_at_most(text, max_grpc_repeat).value_or(default_grpc_repeat);
    } else if (key == "x-interval-ms") {
      stream->repeat_interval =
          std::chrono::milliseconds(number_at_most(text, max_grpc_interval_ms).value_or(0));
    }
    return 0;
  }

  static int on_data(nghttp2_session* session, std::uint8_t /*flags*/, std::int32_t stream_id,
                     const std::uint8_t* data, std::size_t size, void* /*user_data*/) {
    auto* stream = stream_of(session, stream_id);
    // Bodies of other requests are dropped as they come; nghttp2 still opens the windows.
    const bool kept = stream != nullptr && stream->grpc &&
                      stream->grpc_method != GrpcMethod::none &&
                      stream->grpc_method != GrpcMethod::fail;
    if (!kept || stream->too_large) return 0;
    const bool chat = stream->grpc_method == GrpcMethod::chat;
    if (stream->grpc_request.size() - (chat ? stream->body_sent : 0) + size > max_grpc_request) {
      stream->too_large = true;
      if (!chat) std::string().swap(stream->grpc_request);
    } else {
      stream->grpc_request.append(view(data, size));
    }
    if (chat && stream->answering) nghttp2_session_resume_data(session, stream_id);
    return 0;
  }

  static int on_frame(nghttp2_session* session, const nghttp2_frame* frame, void* user_data) {
    const bool carries_request =
        frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA;
    if (!carries_request) return 0;
    auto* stream = stream_of(session, frame->hd.stream_id);
    if (stream == nullptr) return 0;
    if ((frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0) {
      of(user_data).answer(frame->hd.stream_id, *stream);
    } else if (is_request(frame) && stream->grpc && stream->grpc_method == GrpcMethod::chat) {
      of(user_data).answer_chat(frame->hd.stream_id, *stream);  // answers as the requests come
    }
    return 0;
  }

  static int on_stream_close(nghttp2_session* session, std::int32_t stream_id,
                             std::uint32_t /*error_code*/, void* user_data) {
    auto* stream = stream_of(session, stream_id);
    if (stream != nullptr) of(user_data).close_stream(stream);
    return 0;
  }

  /// Copies what is due of a paced body, as much as fits; at its end, END_STREAM, nothing more
  /// (a stall) or a reset (a cut: INTERNAL_ERROR).
  static ssize_t read_paced(H2Stream& stream, std::uint8_t* buffer, std::size_t length,
                            std::uint32_t* flags) {
    std::size_t size = 0;
    while (stream.piece < stream.due && size < length) {
      const auto piece = stream.paced.piece(stream.piece);
      const auto copied =
          piece.copy(stream.piece_sent, {reinterpret_cast<char*>(buffer) + size, length - size});
      size += copied;
      stream.piece_sent += copied;
      if (stream.piece_sent == piece.size()) {
        ++stream.piece;
        stream.piece_sent = 0;
      }
    }
    if (stream.piece < stream.paced.pieces()) {
      return size > 0 ? static_cast<ssize_t>(size)
                      : ssize_t{NGHTTP2_ERR_DEFERRED};  // resume() wakes it
    }
    switch (stream.paced.ending()) {
      case Ending::end:
        *flags |= NGHTTP2_DATA_FLAG_EOF;
        return static_cast<ssize_t>(size);
      case Ending::stall:
        return size > 0 ? static_cast<ssize_t>(size)
                        : ssize_t{NGHTTP2_ERR_DEFERRED};  // never woken
      case Ending::cut:
        break;
    }
    return size > 0 ? static_cast<ssize_t>(size) : ssize_t{NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE};
  }

  /// Chat: the request bytes not sent back yet; once the client ended its requests and all
  /// went back, the trailers.
  static ssize_t read_chat(nghttp2_session* session, std::int32_t stream_id, H2Stream& stream,
                           std::uint8_t* buffer, std::size_t length, std::uint32_t* flags) {
    auto& pending = stream.grpc_request;
    const auto size = std::min(length, pending.size() - stream.body_sent);
    std::memcpy(buffer, pending.data() + stream.body_sent, size);
    stream.body_sent += size;
    if (stream.body_sent == pending.size()) {  // all went: the buffer starts again
      pending.clear();
      stream.body_sent = 0;
      if (stream.request_ended || stream.too_large) {
        const auto status = stream.too_large ? grpc_resource_exhausted : grpc_ok;
        if (end_with_trailers(session, stream_id, flags, status) != 0) {
          return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;  // resets the stream
        }
        return static_cast<ssize_t>(size);
      }
      if (size == 0) return NGHTTP2_ERR_DEFERRED;  // on_data resumes it
    }
    return static_cast<ssize_t>(size);
  }

  /// Copies the next piece of the body; at its end, END_STREAM, or for gRPC the trailers.
  /// Repeat's copies go as they are due.
  static ssize_t read_body(nghttp2_session* session, std::int32_t stream_id, std::uint8_t* buffer,
                           std::size_t length, std::uint32_t* flags, nghttp2_data_source* source,
                           void* /*user_data*/) {
    auto& stream = *static_cast<H2Stream*>(source->ptr);
    if (is_paced(stream.route.page)) return read_paced(stream, buffer, length, flags);
    if (stream.grpc_method == GrpcMethod::chat) {
      return read_chat(session, stream_id, stream, buffer, length, flags);
    }
    std::size_t size = 0;
    if (stream.body_left > 0) {
      auto room = static_cast<std::uint64_t>(length);
      if (stream.grpc_method == GrpcMethod::repeat) {
        room = std::min(room, stream.due * stream.body.size() - stream.body_sent);
        if (room == 0) return NGHTTP2_ERR_DEFERRED;  // resume() makes the next copy due
      }
      const auto at = static_cast<std::size_t>(stream.body_sent % stream.body.size());
      const auto wanted = static_cast<std::size_t>(std::min(stream.body_left, room));
      size = std::min(wanted, stream.body.size() - at);
      std::memcpy(buffer, stream.body.data() + at, size);
      stream.body_sent += size;
      stream.body_left -= size;
    }
    if (stream.body_left == 0) {
      if (!stream.trailers) {
        *flags |= NGHTTP2_DATA_FLAG_EOF;
      } else if (end_with_trailers(session, stream_id, flags, grpc_ok) != 0) {
        return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;  // resets the stream
      }
    }
    return static_cast<ssize_t>(size);
  }

  /// One table for every session of the process.
  static const nghttp2_session_callbacks* table() {
    static const auto* callbacks = [] {
      nghttp2_session_callbacks* made = nullptr;
      nghttp2_session_callbacks_new(&made);
      nghttp2_session_callbacks_set_on_begin_headers_callback(made, on_begin_headers);
      nghttp2_session_callbacks_set_on_header_callback(made, on_header);
      nghttp2_session_callbacks_set_on_data_chunk_recv_callback(made, on_data);
      nghttp2_session_callbacks_set_on_frame_recv_callback(made, on_frame);
      nghttp2_session_callbacks_set_on_stream_close_callback(made, on_stream_close);
      return made;
    }();
    return callbacks;
  }
};

void H2Server::Deleter::operator()(nghttp2_session* session) const { nghttp2_session_del(session); }

H2Server::H2Server(std::uint32_t max_streams, InFlightLimit* in_flight) : in_flight_(in_flight) {
  nghttp2_option* option = nullptr;
  nghttp2_option_new(&option);
  // Closed streams are kept for the priority tree unless told not to: memory for nothing here.
  nghttp2_option_set_no_closed_streams(option, 1);
  nghttp2_session* made = nullptr;
  nghttp2_session_server_new2(&made, H2ServerCallbacks::table(), this, option);
  nghttp2_option_del(option);
  session_.reset(made);
  const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, max_streams},
                                             {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, window_size}};
  nghttp2_submit_settings(made, NGHTTP2_FLAG_NONE, settings, std::size(settings));
  nghttp2_session_set_local_window_size(made, NGHTTP2_FLAG_NONE, 0, window_size);
}

H2Server::~H2Server() = default;

bool H2Server::upgrade(const H2cUpgrade& request) {
  auto* stream = open_stream();
  stream->route = request.route;
  stream->head = request.head;
  const auto* payload = reinterpret_cast<const std::uint8_t*>(request.settings.data());
  if (nghttp2_session_upgrade2(session_.get(), payload, request.settings.size(), request.head,
                               nullptr) != 0) {
    close_stream(stream);
    failed_ = true;
    return false;
  }
  // A server's upgrade2() ignores its stream_user_data: without this, a stream 1 that waits
  // (/delay, /sse) would never be found again to be resumed, nor closed.
  nghttp2_session_set_stream_user_data(session_.get(), 1, stream);
  answer(1, *stream);
  return true;
}

bool H2Server::input(const char* data, std::size_t size) {
  const auto used =
      nghttp2_session_mem_recv(session_.get(), reinterpret_cast<const std::uint8_t*>(data), size);
  if (used < 0) failed_ = true;
  return used >= 0;
}

std::string_view H2Server::output() {
  out_.clear();
  while (out_.size() < output_chunk) {
    const std::uint8_t* data = nullptr;
    const auto size = nghttp2_session_mem_send(session_.get(), &data);
    if (size < 0) failed_ = true;
    if (size <= 0) break;
    out_.append(view(data, static_cast<std::size_t>(size)));
  }
  return out_;
}

bool H2Server::wants_write() const { return nghttp2_session_want_write(session_.get()) != 0; }

bool H2Server::finished() const {
  return failed_ || (nghttp2_session_want_read(session_.get()) == 0 &&
                     nghttp2_session_want_write(session_.get()) == 0);
}

void H2Server::resume(std::int32_t stream_id) {
  auto* stream = H2ServerCallbacks::stream_of(session_.get(), stream_id);
  if (stream == nullptr) return;
  if (stream->grpc) {  // Repeat's next answer is due
    if (++stream->due < stream->repeat) {
      delayed_.push_back({.stream_id = stream_id, .delay = stream->repeat_interval});
    }
    nghttp2_session_resume_data(session_.get(), stream_id);
    return;
  }
  if (!is_paced(stream->route.page)) {
    answer_route(stream_id, *stream);
    return;
  }
  take_step(stream_id, *stream, stream->paced.step(stream->due));
  nghttp2_session_resume_data(session_.get(), stream_id);
}

void H2Server::take_step(std::int32_t stream_id, H2Stream& stream, std::uint64_t step) {
  const auto& body = stream.paced;
  while (stream.due < body.pieces() && body.step(stream.due) <= step) ++stream.due;
  if (stream.due < body.pieces()) {
    delayed_.push_back({.stream_id = stream_id,
                        .delay = body.due_after(stream.due) - body.due_after(stream.due - 1)});
  }
}

H2Stream* H2Server::open_stream() {
  if (!spare_.empty()) {
    auto* stream = spare_.back();
    spare_.pop_back();
    return stream;
  }
  return streams_.emplace_back(std::make_unique<H2Stream>()).get();
}

void H2Server::close_stream(H2Stream* stream) {
  *stream = H2Stream{};  // frees a gRPC request's bytes
  spare_.push_back(stream);
}

void H2Server::answer(std::int32_t stream_id, H2Stream& stream) {
  if (stream.grpc) {  // outside --max-in-flight: a gRPC client wants a grpc-status, not a 503
    answer_grpc(stream_id, stream);
    return;
  }
  stream.in_flight = InFlightSlot(in_flight_);
  if (!stream.in_flight.admitted()) stream.route = busy_route;
  if (stream.route.delay.count() > 0) {
    delayed_.push_back({.stream_id = stream_id, .delay = stream.route.delay});
  } else {
    answer_route(stream_id, stream);
  }
}

void H2Server::answer_route(std::int32_t stream_id, H2Stream& stream) {
  const auto& route = stream.route;
  if (is_paced(route.page)) {
    answer_paced(stream_id, stream);
    return;
  }
  const bool bytes = route.page == Page::bytes;
  const auto block = filler();
  const auto content =
      bytes ? Content{.type = bytes_content_type, .body = {block.data(), block.size()}}
            : target_server::content(route.page, route.status);
  const std::uint64_t length = bytes ? route.size : content.body.size();
  std::array<char, 24> status_digits{};
  std::array<char, 24> length_digits{};
  std::array<nghttp2_nv, 4> fields{field(":status", digits(content.status, status_digits), true),
                                   field("server", server_name)};
  std::size_t count = 2;
  if (!content.type.empty()) {
    fields[count++] = field("content-type", content.type);
    fields[count++] = field("content-length", digits(length, length_digits), true);
  }
  stream.body = content.body;
  stream.body_left = stream.head ? 0 : length;
  submit(stream_id, std::span(fields.data(), count), stream.body_left > 0 ? &stream : nullptr);
  stream.in_flight.release();
}

void H2Server::answer_paced(std::int32_t stream_id, H2Stream& stream) {
  const auto page = stream.route.page;
  const nghttp2_nv fields[] = {field(":status", "200"), field("server", server_name),
                               field("content-type", paced_content_type(page)),
                               field("cache-control", "no-cache")};
  const std::span sent(fields, page == Page::sse ? 4 : 3);
  if (stream.head) {
    submit(stream_id, sent, nullptr);
    return;
  }
  stream.paced = PacedBody(stream.route);
  take_step(stream_id, stream, 0);
  submit(stream_id, sent, &stream);
}

void H2Server::answer_grpc(std::int32_t stream_id, H2Stream& stream) {
  const auto method = stream.grpc_method;
  if (method == GrpcMethod::chat) {
    stream.request_ended = true;
    if (stream.answering) {
      nghttp2_session_resume_data(session_.get(), stream_id);  // its trailers are due
    } else {
      answer_chat(stream_id, stream);
    }
  } else if (method == GrpcMethod::fail) {
    grpc_trailers_only(stream_id, stream.fail_code, "failed as x-fail-code asked");
  } else if (method == GrpcMethod::none) {
    static const std::string known =
        "unknown method: this server has " + std::string(grpc_methods_list);
    grpc_trailers_only(stream_id, grpc_unimplemented, known);
  } else if (stream.too_large) {
    grpc_trailers_only(stream_id, grpc_resource_exhausted, "request over 16 MiB");
  } else if (method == GrpcMethod::repeat) {
    answer_repeat(stream_id, stream);
  } else if (method == GrpcMethod::collect) {
    const auto last = last_grpc_message(stream.grpc_request);
    if (!last) {
      grpc_trailers_only(stream_id, grpc_internal, "the request ends inside a message");
      return;
    }
    stream.body = *last;
    answer_grpc_body(stream_id, stream, 1);
  } else {
    stream.body = stream.grpc_request;
    answer_grpc_body(stream_id, stream, 1);
  }
}

void H2Server::answer_chat(std::int32_t stream_id, H2Stream& stream) {
  stream.answering = true;
  const nghttp2_nv fields[] = {field(":status", "200"), field("server", server_name),
                               field("content-type", grpc_content_type)};
  submit(stream_id, fields, &stream);
}

void H2Server::answer_repeat(std::int32_t stream_id, H2Stream& stream) {
  stream.body = stream.grpc_request;
  const bool paced = stream.repeat_interval.count() > 0 && stream.repeat > 1;
  stream.due = paced ? 1 : stream.repeat;
  if (paced) delayed_.push_back({.stream_id = stream_id, .delay = stream.repeat_interval});
  answer_grpc_body(stream_id, stream, stream.body.empty() ? 0 : stream.repeat);
}

void H2Server::answer_grpc_body(std::int32_t stream_id, H2Stream& stream, std::uint64_t copies) {
  const nghttp2_nv fields[] = {field(":status", "200"), field("server", server_name),
                               field("content-type", grpc_content_type)};
  stream.body_left = stream.body.size() * copies;
  stream.trailers = true;
  submit(stream_id, fields, &stream);
}

void H2Server::grpc_trailers_only(std::int32_t stream_id, unsigned status,
                                  std::string_view message) {
  std::array<char, 24> status_digits{};
  const nghttp2_nv fields[] = {field(":status", "200"), field("server", server_name),
                               field("content-type", grpc_content_type),
                               field("grpc-status", digits(status, status_digits), true),
                               field("grpc-message", message)};
  // grpc-message is for failures: an OK status asked of the Fail method goes without it.
  submit(stream_id, std::span(fields, status == grpc_ok ? 4 : 5), nullptr);
}

void H2Server::submit(std::int32_t stream_id, std::span<const nghttp2_nv> fields, H2Stream* body) {
  nghttp2_data_provider provider{};
  provider.source.ptr = body;
  provider.read_callback = H2ServerCallbacks::read_body;
  // Fails only for a stream already closed or answered: nothing to do then.
  nghttp2_submit_response(session_.get(), stream_id, fields.data(), fields.size(),
                          body != nullptr ? &provider : nullptr);
}

}  // namespace stampede::target_server
