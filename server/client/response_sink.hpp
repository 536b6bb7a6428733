// A Beast response parser that keeps only what stampede reports, so parsing allocates nothing.
#pragma once

#include <boost/beast/http/basic_parser.hpp>

#include "model/response.hpp"

namespace stampede::client {

namespace http = boost::beast::http;

/// Beast's parser with our own callbacks: status, Server header and body bytes go straight
/// into a reused model::Response; other headers are parsed (and validated) but not stored.
/// (Beast's response_parser stores every field in its own allocation; per request that was
/// the largest cost in a first profile.)
class ResponseSink final : public http::basic_parser<false> {
 public:
  /// `keep_body`: append the body to response.body (for verifiers that read it).
  ResponseSink(model::Response& response, bool keep_body);

 private:
  void on_request_impl(http::verb, boost::beast::string_view, boost::beast::string_view, int,
                       boost::system::error_code&) override {}
  void on_response_impl(int code, boost::beast::string_view, int,
                        boost::system::error_code&) override;
  void on_field_impl(http::field name, boost::beast::string_view, boost::beast::string_view value,
                     boost::system::error_code&) override;
  void on_header_impl(boost::system::error_code&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>&,
                         boost::system::error_code&) override {}
  std::size_t on_body_impl(boost::beast::string_view body, boost::system::error_code&) override;
  void on_chunk_header_impl(std::uint64_t, boost::beast::string_view,
                            boost::system::error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, boost::beast::string_view body,
                                 boost::system::error_code& error) override {
    return on_body_impl(body, error);
  }
  void on_finish_impl(boost::system::error_code&) override {}

  model::Response& response_;
  bool keep_body_;
};

}  // namespace stampede::client
