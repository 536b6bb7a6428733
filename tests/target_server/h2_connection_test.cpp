// The target server's HTTP/2 over loopback: h2c by prior knowledge and by upgrade, TLS by ALPN.
#include "target_server/h2_connection.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>

#include "target_server/certificate.hpp"
#include "target_server/server.hpp"
#include "tests/target_server/h2_wire.hpp"
#include "tests/target_server/server_thread.hpp"

namespace stampede::target_server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using namespace std::chrono_literals;

/// The Certificate every test server here uses (made once: a P-256 key is quick, not free).
const Certificate& test_certificate() {
  static const Certificate made = make_self_signed_certificate();
  return made;
}

ServeOptions tls_options(unsigned threads = 1) {
  auto options = loopback_options(threads);
  options.tls_port = 0;
  options.certificate = test_certificate();
  return options;
}

constexpr std::string_view offer_h2 = "\x02h2\x08http/1.1";
constexpr std::string_view offer_http11 = "\x08http/1.1";

TEST(TargetH2Connection, ServesManyStreamsOnOnePriorKnowledgeConnection) {
  ServerThread server(loopback_options());
  net::io_context context;
  auto socket = connect_loopback(context, server.server().port());
  H2Client client;
  std::vector<std::int32_t> ids;
  for (int i = 0; i < 200; ++i)
    ids.push_back(client.submit("GET", i % 2 ? "/json" : "/bytes/3000"));
  ASSERT_TRUE(exchange(context, socket, client));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto& got = client.result(ids[i]);
    EXPECT_EQ(got.headers.at(":status"), "200");
    EXPECT_EQ(got.body, i % 2 ? R"({"code":200,"msg":"ok"})" : std::string(3000, 'x'));
  }
  EXPECT_EQ(server.server().connections_per_thread(), std::vector<std::uint64_t>{1});
}

TEST(TargetH2Connection, DelayHoldsOnlyItsOwnStream) {
  ServerThread server(loopback_options());
  net::io_context context;
  auto socket = connect_loopback(context, server.server().port());
  H2Client client;
  const auto started = std::chrono::steady_clock::now();
  const auto slow = client.submit("GET", "/delay/400");
  const auto slower = client.submit("GET", "/delay/600");
  const auto sooner = client.submit("GET", "/delay/200");
  const auto fast = client.submit("GET", "/status/201");
  ASSERT_TRUE(exchange(context, socket, client));
  EXPECT_EQ(client.close_order(), (std::vector<std::int32_t>{fast, sooner, slow, slower}));
  EXPECT_LT(client.result(fast).closed_at - started, 200ms);
  EXPECT_GE(client.result(sooner).closed_at - started, 200ms);
  EXPECT_GE(client.result(slow).closed_at - started, 400ms);
  EXPECT_GE(client.result(slower).closed_at - started, 600ms);
  EXPECT_LT(client.result(slower).closed_at - started, 2s);
  EXPECT_EQ(client.result(slower).body, "hello stampede\n");
}

/// Sends an HTTP/1.1 request asking to upgrade to h2c; returns what came back up to the end of
/// the response head, and leaves the rest in `rest`.
std::string ask_upgrade(tcp::socket& socket, const std::string& request, std::string& rest) {
  net::write(socket, net::buffer(request));
  std::string head;
  boost::system::error_code ec;
  const auto size = net::read_until(socket, net::dynamic_buffer(head), "\r\n\r\n", ec);
  EXPECT_FALSE(ec) << ec.message();
  rest = head.substr(size);
  head.resize(size);
  return head;
}

std::string base64url(const std::string& bytes) {
  static constexpr char digits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string text;
  std::uint32_t bits = 0;
  int held = 0;
  for (const unsigned char c : bytes) {
    bits = (bits << 8) | c;
    held += 8;
    while (held >= 6) text += digits[(bits >> (held -= 6)) & 63];
  }
  if (held > 0) text += digits[(bits << (6 - held)) & 63];
  return text;
}

TEST(TargetH2Connection, UpgradesAnHttp1RequestToH2c) {
  ServerThread server(loopback_options());
  net::io_context context;
  auto socket = connect_loopback(context, server.server().port());
  std::string rest;
  const auto head =
      ask_upgrade(socket,
                  "GET /json HTTP/1.1\r\nHost: test\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                  "Upgrade: h2c\r\nHTTP2-Settings: " +
                      base64url(H2Client::settings_payload()) + "\r\n\r\n",
                  rest);
  EXPECT_EQ(head, h2c_switching_response);
  H2Client client;
  client.upgraded(false);
  const auto next = client.submit("GET", "/delay/10");
  ASSERT_TRUE(exchange(context, socket, client, rest));
  EXPECT_EQ(client.result(1).headers.at(":status"), "200");
  EXPECT_EQ(client.result(1).body, R"({"code":200,"msg":"ok"})");
  EXPECT_EQ(client.result(next).body, "hello stampede\n");
  EXPECT_EQ(server.server().connections_per_thread(), std::vector<std::uint64_t>{1});
}

TEST(TargetH2Connection, AnUpgradeWithABodyIsAnsweredAsHttp1) {
  ServerThread server(loopback_options());
  HttpClient client(server.server().port());
  client.send(
      "POST / HTTP/1.1\r\nHost: test\r\nConnection: Upgrade, HTTP2-Settings\r\n"
      "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABk\r\nContent-Length: 3\r\n\r\nabc");
  const auto response = client.receive();
  EXPECT_EQ(response.result_int(), 200U);
  EXPECT_EQ(response.body(), "hello stampede\n");
  EXPECT_EQ(client.get("/json").body(), R"({"code":200,"msg":"ok"})");
}

TEST(TargetH2Connection, IdleH2ConnectionsAreClosed) {
  auto options = loopback_options();
  options.idle_timeout = 200ms;
  ServerThread server(options);
  net::io_context context;
  auto socket = connect_loopback(context, server.server().port());
  H2Client client;
  client.submit("GET", "/");
  ASSERT_TRUE(exchange(context, socket, client));
  const auto quiet_since = std::chrono::steady_clock::now();
  std::array<char, 256> buffer{};
  boost::system::error_code ec;
  bool done = false;
  socket.async_read_some(net::buffer(buffer), [&](boost::system::error_code error, std::size_t) {
    ec = error;
    done = true;
  });
  ASSERT_TRUE(run_until(context, [&] { return done; }));
  EXPECT_EQ(ec, net::error::eof);
  EXPECT_GE(std::chrono::steady_clock::now() - quiet_since, 150ms);
}

/// A TLS connection to the server's TLS port, handshake done, host name checked.
ssl::stream<tcp::socket> tls_connect(net::io_context& context, ssl::context& tls,
                                     unsigned short port) {
  ssl::stream<tcp::socket> stream(connect_loopback(context, port), tls);
  stream.set_verify_callback(ssl::host_name_verification("localhost"));
  boost::system::error_code ec;
  bool done = false;
  stream.async_handshake(ssl::stream_base::client, [&](boost::system::error_code error) {
    ec = error;
    done = true;
  });
  EXPECT_TRUE(run_until(context, [&] { return done; }));
  EXPECT_FALSE(ec) << ec.message();
  return stream;
}

std::string selected_alpn(const ssl::stream<tcp::socket>& stream) {
  const unsigned char* name = nullptr;
  unsigned size = 0;
  SSL_get0_alpn_selected(const_cast<ssl::stream<tcp::socket>&>(stream).native_handle(), &name,
                         &size);
  return {reinterpret_cast<const char*>(name), size};
}

TEST(TargetH2Connection, TlsSelectsH2ByAlpn) {
  ServerThread server(tls_options());
  ASSERT_NE(server.server().tls_port(), 0);
  ASSERT_NE(server.server().tls_port(), server.server().port());
  net::io_context context;
  auto tls = tls_client(test_certificate().chain_pem, offer_h2);
  auto stream = tls_connect(context, tls, server.server().tls_port());
  EXPECT_EQ(selected_alpn(stream), "h2");
  H2Client client;
  const auto json = client.submit("GET", "/json");
  const auto delayed = client.submit("GET", "/delay/50");
  const auto grpc =
      client.submit("POST", "/stampede.Echo/Echo", {{"content-type", "application/grpc"}},
                    std::string("\0\0\0\0\1z", 6));
  ASSERT_TRUE(exchange(context, stream, client));
  EXPECT_EQ(client.result(json).body, R"({"code":200,"msg":"ok"})");
  EXPECT_EQ(client.result(delayed).body, "hello stampede\n");
  EXPECT_EQ(client.result(grpc).body, std::string("\0\0\0\0\1z", 6));
  EXPECT_EQ(client.result(grpc).trailers.at("grpc-status"), "0");
}

/// Sends `request` over `stream` and reads one response.
Response http1_exchange(net::io_context& context, ssl::stream<tcp::socket>& stream,
                        beast::flat_buffer& buffer, const std::string& request) {
  net::write(stream, net::buffer(request));
  http::response_parser<http::string_body> parser;
  bool done = false;
  http::async_read(stream, buffer, parser, [&](boost::system::error_code ec, std::size_t) {
    EXPECT_FALSE(ec) << ec.message();
    done = true;
  });
  EXPECT_TRUE(run_until(context, [&] { return done; }));
  return parser.release();
}

TEST(TargetH2Connection, TlsServesHttp1WhenAlpnSaysSoOrSaysNothing) {
  ServerThread server(tls_options());
  for (const auto offer : {offer_http11, std::string_view()}) {
    net::io_context context;
    auto tls = tls_client(test_certificate().chain_pem, offer);
    auto stream = tls_connect(context, tls, server.server().tls_port());
    EXPECT_EQ(selected_alpn(stream), offer.empty() ? "" : "http/1.1");
    beast::flat_buffer buffer;
    const std::string get = "GET /json HTTP/1.1\r\nHost: test\r\n\r\n";
    for (int i = 0; i < 2; ++i) {  // keep-alive
      const auto response = http1_exchange(context, stream, buffer, get);
      EXPECT_EQ(response.result_int(), 200U);
      EXPECT_EQ(response.body(), R"({"code":200,"msg":"ok"})");
      EXPECT_EQ(response[http::field::server], "stampede/0.1.0");
    }
    // Pipelined, and an upgrade to h2c is ignored over TLS.
    const auto upgrade =
        "GET / HTTP/1.1\r\nHost: test\r\nConnection: Upgrade, HTTP2-Settings\r\n"
        "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABk\r\n\r\n";
    const auto response = http1_exchange(context, stream, buffer, get + upgrade);
    EXPECT_EQ(response.body(), R"({"code":200,"msg":"ok"})");
    const auto second = http1_exchange(context, stream, buffer, "");
    EXPECT_EQ(second.result_int(), 200U);
    EXPECT_EQ(second.body(), "hello stampede\n");
  }
}

TEST(TargetH2Connection, SelfSignedCertificateNamesTheLoopback) {
  auto options = loopback_options();
  options.tls_port = 0;  // no certificate given: the server makes one
  ServerThread server(options);
  net::io_context context;
  ssl::context tls(ssl::context::tls_client);  // without the certificate: cannot verify
  tls.set_verify_mode(ssl::verify_none);
  auto stream = tls_connect(context, tls, server.server().tls_port());
  X509* certificate = SSL_get1_peer_certificate(stream.native_handle());
  ASSERT_NE(certificate, nullptr);
  EXPECT_EQ(X509_check_host(certificate, "localhost", 0, 0, nullptr), 1);
  EXPECT_EQ(X509_check_ip_asc(certificate, "127.0.0.1", 0), 1);
  EXPECT_EQ(X509_check_ip_asc(certificate, "::1", 0), 1);
  EXPECT_EQ(X509_check_host(certificate, "example.com", 0, 0, nullptr), 0);
  const auto days = [&](const ASN1_TIME* until) {
    int day = 0;
    int seconds = 0;
    ASN1_TIME_diff(&day, &seconds, nullptr, until);
    return day;
  };
  EXPECT_GE(days(X509_get0_notAfter(certificate)), 364);
  EXPECT_LE(days(X509_get0_notBefore(certificate)), 0);
  EVP_PKEY* key = X509_get0_pubkey(certificate);
  EXPECT_EQ(EVP_PKEY_get_base_id(key), EVP_PKEY_EC);
  EXPECT_EQ(EVP_PKEY_get_bits(key), 256);
  X509_free(certificate);
}

}  // namespace
}  // namespace stampede::target_server
