// The nghttp2 plumbing both client sessions share.
#include "server/client/h2_common.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <iterator>

#include <spdlog/spdlog.h>

#include "server/client/h2_error.hpp"

namespace stampede::client::h2 {

nghttp2_nv field(const H2Field& name_value) {
  auto* name = reinterpret_cast<std::uint8_t*>(const_cast<char*>(name_value.first.data()));
  auto* value = reinterpret_cast<std::uint8_t*>(const_cast<char*>(name_value.second.data()));
  return {name, value, name_value.first.size(), name_value.second.size(),
          NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE};
}

namespace {

/// Our SETTINGS: no push, a stream window of `window` bytes.
std::array<nghttp2_settings_entry, 2> settings(std::int32_t window) {
  return {{{NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
           {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, static_cast<std::uint32_t>(window)}}};
}

}  // namespace

void open_windows(nghttp2_session* session, std::int32_t window) {
  const auto entries = settings(window);
  nghttp2_submit_settings(session, NGHTTP2_FLAG_NONE, entries.data(), entries.size());
  open_connection_window(session, window);
}

void open_connection_window(nghttp2_session* session, std::int32_t window) {
  nghttp2_session_set_local_window_size(session, NGHTTP2_FLAG_NONE, 0, window);
}

std::string settings_payload(std::int32_t window) {
  const auto entries = settings(window);
  std::array<std::uint8_t, 6 * std::tuple_size_v<decltype(entries)>> payload{};
  const auto n =
      nghttp2_pack_settings_payload(payload.data(), payload.size(), entries.data(), entries.size());
  return {reinterpret_cast<const char*>(payload.data()),
          static_cast<std::size_t>(std::max<ssize_t>(n, 0))};
}

void note_header(model::Response& response, std::string_view name, std::string_view value) {
  if (!response.wanted_headers.empty()) response.keep_header(name, value);
  if (name == ":status") {
    // A 1xx's status is overwritten by the final response's (nghttp2 checks the value).
    std::from_chars(value.data(), value.data() + value.size(), response.status);
  } else if (name == "server") {
    response.server.assign(value);
  } else if (name == "location") {
    response.location.assign(value);
  } else if (name == "content-encoding") {
    response.content_encoding.assign(value);
  } else if (name == "grpc-status") {
    response.grpc_status_field.assign(value);
  } else if (name == "grpc-message") {
    response.grpc_message.assign(value);
  }
}

std::size_t copy_body(const std::string& body, std::size_t& sent, std::uint8_t* buffer,
                      std::size_t length, std::uint32_t* flags) {
  const auto n = std::min(length, body.size() - sent);
  std::memcpy(buffer, body.data() + sent, n);
  sent += n;
  if (sent == body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
  return n;
}

std::string_view drain_output(nghttp2_session* session, std::string& out,
                              boost::system::error_code& error) {
  out.clear();
  for (;;) {
    const std::uint8_t* data = nullptr;
    const auto n = nghttp2_session_mem_send(session, &data);
    if (n < 0) {
      error = h2_library_error(static_cast<int>(n));
      return {};
    }
    if (n == 0) return out;
    out.append(view(data, static_cast<std::size_t>(n)));
  }
}

bool feed_input(nghttp2_session* session, const char* data, std::size_t n,
                boost::system::error_code& error) {
  const auto used =
      nghttp2_session_mem_recv(session, reinterpret_cast<const std::uint8_t*>(data), n);
  if (used < 0) error = h2_library_error(static_cast<int>(used));
  return used >= 0;
}

void log_exchange(const Http2Wire& request, const model::Response& response,
                  const boost::system::error_code& error) {
  std::string fields;
  for (const auto& [name, value] : request.headers) fields += name + ": " + value + "\n";
  spdlog::debug("HTTP/2 request ({} body bytes):\n{}response: status {}, {} body bytes{}{}",
                request.body.size(), fields, response.status, response.body_bytes,
                error ? ", " : "", error ? error.message() : "");
}

}  // namespace stampede::client::h2
