// h2_category(): messages from nghttp2's own tables, so logs name the HTTP/2 failure exactly.
#include "server/client/h2_error.hpp"

#include <nghttp2/nghttp2.h>

#include <string>

namespace stampede::client {

namespace {

class H2Category final : public boost::system::error_category {
 public:
  [[nodiscard]] const char* name() const noexcept override { return "http2"; }

  [[nodiscard]] std::string message(int code) const override {
    if (code < 0) return nghttp2_strerror(code);
    if (code >= h2_local_base) {
      return std::string("the server broke HTTP/2 and stampede ended the connection: ") +
             nghttp2_http2_strerror(static_cast<std::uint32_t>(code - h2_local_base));
    }
    return std::string("stream or connection error from the server: ") +
           nghttp2_http2_strerror(static_cast<std::uint32_t>(code));
  }
};

}  // namespace

const boost::system::error_category& h2_category() {
  static const H2Category category;
  return category;
}

}  // namespace stampede::client
