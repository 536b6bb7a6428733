// TlsSocket against an Asio TLS server on the loopback: the handshake (ALPN, the certificate and
// host checks), reads and writes, and the error codes Asio's own stream gives for the same events.
#include "server/client/tls_socket.hpp"

#include <gtest/gtest.h>
#include <openssl/err.h>

#include <array>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <csignal>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "server/client/tls_context.hpp"
#include "target_server/certificate.hpp"
#include "target_server/tls_context.hpp"

namespace stampede::client {
namespace {

namespace ip = net::ip;
constexpr auto as_tuple = net::as_tuple(net::use_awaitable);

/// How the test server ends its side once it has answered.
enum class Ending { close_notify, fin, reset };

/// A TLS server (target's context: self-signed for localhost and 127.0.0.1, ALPN h2) that reads
/// "ping", answers "pong" and ends as told; and a client setup pointing at it.
struct Loopback {
  explicit Loopback(bool insecure)
      : acceptor(context, {ip::make_address("127.0.0.1"), 0}),
        certificate(target_server::make_self_signed_certificate()),
        server_tls(target_server::make_tls_context(certificate)),
        client_tls(make_tls_context(insecure, true)) {
    setup.endpoints = {acceptor.local_endpoint()};
    setup.host = "127.0.0.1";
    setup.tls = &client_tls;
  }

  /// The client trusts the server's certificate, as if a CA had signed it.
  void trust_server() { client_tls.add_certificate_authority(net::buffer(certificate.chain_pem)); }

  net::awaitable<void> serve(Ending ending) {
    net::ssl::stream<ip::tcp::socket> stream(co_await acceptor.async_accept(net::use_awaitable),
                                             server_tls);
    const auto [shake_error] =
        co_await stream.async_handshake(net::ssl::stream_base::server, as_tuple);
    if (shake_error) co_return;
    std::string ping(4, '\0');
    const auto [read_error, n] = co_await net::async_read(stream, net::buffer(ping), as_tuple);
    if (read_error || ping != "ping") co_return;
    if (pause.count() > 0) {  // "po", then "ng" in a record of its own, once the client read
      co_await net::async_write(stream, net::buffer(std::string_view("po")), as_tuple);
      net::steady_timer timer(context, pause);
      co_await timer.async_wait(as_tuple);
      co_await net::async_write(stream, net::buffer(std::string_view("ng")), as_tuple);
    } else {
      co_await net::async_write(stream, net::buffer(std::string_view("pong")), as_tuple);
    }
    if (ending == Ending::close_notify) co_await stream.async_shutdown(as_tuple);
    if (ending == Ending::reset) stream.next_layer().set_option(net::socket_base::linger(true, 0));
    stream.next_layer().close();
  }

  /// Opens the client; with it open, sends "ping" and reads until an error, into `received`;
  /// then closes (the server's close_notify waits for that).
  net::awaitable<void> talk() {
    failure = co_await open_stream(client, context.get_executor(), setup, session);
    if (failure) co_return;
    if (as_async_stream) {
      TlsSocket moved(std::move(*client));  // the BIO follows the socket it moved to
      co_await async_exchange(moved);
      client.emplace(std::move(moved));
    } else {
      co_await exchange();
    }
    boost::system::error_code ignored;
    if (client) client->socket().close(ignored);
  }

  net::awaitable<void> exchange() {
    std::size_t sent = 0;
    const std::string_view ping = "ping";
    while (sent < ping.size()) {
      sent += client->write_some(net::buffer(ping.substr(sent)), error);
      if (error && error != net::error::would_block) co_return;
      if (error) co_await client->socket().async_wait(client->write_wait(), as_tuple);
    }
    for (;;) {
      char buffer[64];
      const auto n = client->read_some(net::buffer(buffer), error);
      received.append(buffer, n);
      if (!error) continue;
      if (error != net::error::would_block) co_return;
      const auto [wait_error] = co_await client->socket().async_wait(client->read_wait(), as_tuple);
      if (wait_error) co_return;
    }
  }

  /// exchange() through the AsyncStream operations, "ping" written from two buffers.
  net::awaitable<void> async_exchange(TlsSocket& stream) {
    const std::array<net::const_buffer, 2> ping{net::buffer(std::string_view("pi")),
                                                net::buffer(std::string_view("ng"))};
    std::size_t n = 0;
    std::tie(error, n) = co_await net::async_write(stream, ping, as_tuple);
    if (error) co_return;
    for (;;) {
      char buffer[64];
      std::tie(error, n) = co_await stream.async_read_some(net::buffer(buffer), as_tuple);
      received.append(buffer, n);
      if (error) co_return;
    }
  }

  void run(Ending ending = Ending::close_notify) {
    net::co_spawn(context, serve(ending), net::detached);
    net::co_spawn(context, talk(), net::detached);
    context.run_for(std::chrono::seconds(5));
  }

  net::io_context context;
  ip::tcp::acceptor acceptor;
  target_server::Certificate certificate;
  net::ssl::context server_tls;
  net::ssl::context client_tls;
  ClientSetup setup;
  std::chrono::milliseconds pause{0};  ///< between "po" and "ng"; 0: "pong" in one write
  bool as_async_stream = false;        ///< talk through async_exchange(), after a move
  TlsSession session;                  ///< the client's, resumed by its next connection
  std::optional<TlsSocket> client;
  std::optional<OpenFailure> failure;
  boost::system::error_code error;
  std::string received;
};

/// A certificate that did not verify, as Asio's stream reports it (classify() makes it a tls
/// failure, and the failure log suggests --insecure).
void expect_verify_failure(const std::optional<OpenFailure>& failure) {
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->phase, Phase::handshake);
  EXPECT_EQ(failure->error.category(), net::error::get_ssl_category());
  EXPECT_EQ(ERR_GET_REASON(static_cast<unsigned long>(failure->error.value())),
            SSL_R_CERTIFICATE_VERIFY_FAILED)
      << failure->error.message();
}

TEST(TlsSocket, TalksH2ByAlpnAndTheServersCloseNotifyIsEof) {
  Loopback loopback(true);
  loopback.run();
  ASSERT_FALSE(loopback.failure) << loopback.failure->error.message();
  EXPECT_TRUE(alpn_selected_h2(*loopback.client));
  EXPECT_EQ(loopback.received, "pong");
  EXPECT_EQ(loopback.error, net::error::eof) << loopback.error.message();
}

// A read that emptied the socket says would-block without another recv() (TlsWire): what
// arrives after it must still be read once the socket is waited for, not taken as drained.
TEST(TlsSocket, WhatArrivesAfterAReadEmptiedTheSocketIsReadAfterTheWait) {
  Loopback loopback(true);
  loopback.pause = std::chrono::milliseconds(50);
  loopback.run();
  ASSERT_FALSE(loopback.failure) << loopback.failure->error.message();
  EXPECT_EQ(loopback.received, "pong");
  EXPECT_EQ(loopback.error, net::error::eof) << loopback.error.message();
}

// As Asio's AsyncStream (the HTTP/2 client's, Beast's WebSocket stream's), after a move: the
// buffers of a write go out gathered, reads wait for what has not arrived, and the errors are
// those of read_some() (here the server's close_notify: eof, after the bytes).
TEST(TlsSocket, AMovedSocketReadsAndWritesAsAnAsyncStream) {
  for (const int pause : {0, 50}) {
    Loopback loopback(true);
    loopback.as_async_stream = true;
    loopback.pause = std::chrono::milliseconds(pause);
    loopback.run();
    ASSERT_FALSE(loopback.failure) << loopback.failure->error.message();
    EXPECT_TRUE(alpn_selected_h2(*loopback.client));
    EXPECT_EQ(loopback.received, "pong") << "pause " << pause;
    EXPECT_EQ(loopback.error, net::error::eof) << loopback.error.message();
  }
}

TEST(TlsSocket, AFinWithoutCloseNotifyIsStreamTruncatedAfterTheBytes) {
  Loopback loopback(true);
  loopback.run(Ending::fin);
  EXPECT_EQ(loopback.received, "pong");
  EXPECT_EQ(loopback.error, net::ssl::error::stream_truncated) << loopback.error.message();
}

TEST(TlsSocket, AResetIsTheSocketsConnectionReset) {
  Loopback loopback(true);
  loopback.run(Ending::reset);
  EXPECT_EQ(loopback.error, net::error::connection_reset) << loopback.error.message();
}

TEST(TlsSocket, ACertificateNotTrustedFailsTheHandshake) {
  Loopback loopback(false);
  loopback.run();
  expect_verify_failure(loopback.failure);
}

TEST(TlsSocket, ATrustedCertificateMustNameTheHost) {
  for (const std::string host : {"127.0.0.1", "localhost"}) {
    Loopback loopback(false);
    loopback.trust_server();
    loopback.setup.host = host;
    loopback.run();
    EXPECT_FALSE(loopback.failure) << host << ": " << loopback.failure->error.message();
    EXPECT_EQ(loopback.received, "pong") << host;
  }
  for (const std::string host : {"127.0.0.2", "example.com"}) {
    Loopback loopback(false);
    loopback.trust_server();
    loopback.setup.host = host;
    loopback.run();
    expect_verify_failure(loopback.failure);
  }
}

TEST(TlsSocket, TheNextConnectionResumesTheSession) {
  Loopback loopback(true);
  loopback.run();
  ASSERT_FALSE(loopback.failure) << loopback.failure->error.message();
  EXPECT_FALSE(loopback.client->resumed());
  loopback.received.clear();
  loopback.context.restart();
  loopback.run();  // the same server (its ticket keys) and the same TlsSession
  ASSERT_FALSE(loopback.failure) << loopback.failure->error.message();
  EXPECT_EQ(loopback.received, "pong");
  EXPECT_TRUE(loopback.client->resumed());
}

/// The server's ClientHello callback: whether each ClientHello carried a TLS 1.3 key share.
int note_key_share(SSL* ssl, int* /*alert*/, void* shares) {
  const unsigned char* data = nullptr;
  std::size_t size = 0;
  static_cast<std::vector<bool>*>(shares)->push_back(
      SSL_client_hello_get0_ext(ssl, TLSEXT_TYPE_key_share, &data, &size) == 1);
  return SSL_CLIENT_HELLO_SUCCESS;
}

/// Two connections from one TlsSession to a server of TLS 1.2 at most (or 1.3), the server
/// noting each ClientHello's key share in `shares`; the second resumes the first's session.
void connect_twice(std::optional<int> server_max, std::vector<bool>& shares) {
  Loopback loopback(true);
  auto* server = loopback.server_tls.native_handle();
  if (server_max) SSL_CTX_set_max_proto_version(server, *server_max);
  SSL_CTX_set_client_hello_cb(server, note_key_share, &shares);
  loopback.run();
  loopback.context.restart();
  loopback.received.clear();
  loopback.run();
  EXPECT_EQ(loopback.received, "pong");
  EXPECT_TRUE(loopback.client->resumed());
}

TEST(TlsSocket, AResumedTls12SessionOffersNoTls13KeyShare) {
  std::vector<bool> shares;
  connect_twice(TLS1_2_VERSION, shares);
  // The first ClientHello offers TLS 1.3 and its key; the server's answer was TLS 1.2, so the
  // second, resuming that session, offers TLS 1.2 only: no key made for nothing.
  EXPECT_EQ(shares, (std::vector<bool>{true, false}));
}

TEST(TlsSocket, AResumedTls13SessionOffersItsKeyShareAgain) {
  std::vector<bool> shares;
  connect_twice(std::nullopt, shares);  // a TLS 1.3 server: a ticket, and a key again
  EXPECT_EQ(shares, (std::vector<bool>{true, true}));
}

TEST(TlsSocket, AContextWithoutResumptionShakesHandsInFull) {
  Loopback loopback(true);
  loopback.client_tls = make_tls_context(true, true, false);
  loopback.run();
  loopback.received.clear();
  loopback.context.restart();
  loopback.run();
  ASSERT_FALSE(loopback.failure) << loopback.failure->error.message();
  EXPECT_EQ(loopback.received, "pong");
  EXPECT_FALSE(loopback.client->resumed());
}

TEST(TlsSocket, WithoutVerificationAnyHostGoes) {
  Loopback loopback(true);
  loopback.setup.host = "example.com";
  loopback.run();
  EXPECT_FALSE(loopback.failure) << loopback.failure->error.message();
  EXPECT_EQ(loopback.received, "pong");
}

net::awaitable<void> open_into(std::optional<TlsSocket>* client, const ClientSetup* setup,
                               TlsSession* session, std::optional<OpenFailure>* failure) {
  *failure = co_await open_stream(*client, co_await net::this_coro::executor, *setup, *session);
}

/// Opens `loopback`'s client, shuts its socket for sending and writes: a send that fails with
/// EPIPE, which write(2) would answer with SIGPIPE as well.
net::awaitable<void> write_after_shutdown(Loopback* loopback) {
  loopback->failure = co_await open_stream(loopback->client, loopback->context.get_executor(),
                                           loopback->setup, loopback->session);
  if (loopback->failure) co_return;
  std::signal(SIGPIPE, SIG_DFL);  // as a process has it, whatever open_stream() may have set
  auto& socket = loopback->client->socket();
  socket.shutdown(ip::tcp::socket::shutdown_send);
  (void)loopback->client->write_some(net::buffer(std::string_view("ping")), loopback->error);
  socket.close();
}

TEST(TlsSocket, AWriteOnABrokenConnectionFailsWithoutSigpipe) {
  const auto previous = std::signal(SIGPIPE, SIG_DFL);  // a SIGPIPE would end this process
  Loopback loopback(true);
  net::co_spawn(loopback.context, loopback.serve(Ending::fin), net::detached);
  net::co_spawn(loopback.context, write_after_shutdown(&loopback), net::detached);
  loopback.context.run_for(std::chrono::seconds(5));
  std::signal(SIGPIPE, previous);
  ASSERT_FALSE(loopback.failure) << loopback.failure->error.message();
  EXPECT_EQ(loopback.error, net::error::broken_pipe) << loopback.error.message();
}

TEST(TlsSocket, ClosingTheSocketEndsTheHandshakeWait) {
  net::io_context context;
  ip::tcp::acceptor acceptor(context, {ip::make_address("127.0.0.1"), 0});  // never answers
  auto client_tls = make_tls_context(true, true);
  ClientSetup setup;
  setup.endpoints = {acceptor.local_endpoint()};
  setup.host = "127.0.0.1";
  setup.tls = &client_tls;
  TlsSession session;
  std::optional<TlsSocket> client;
  std::optional<OpenFailure> failure;
  net::co_spawn(context, open_into(&client, &setup, &session, &failure), net::detached);
  net::steady_timer watchdog(context, std::chrono::milliseconds(100));
  watchdog.async_wait([&](auto) { tcp_socket(*client).close(); });
  context.run_for(std::chrono::seconds(5));
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->phase, Phase::handshake);
  EXPECT_EQ(failure->error, net::error::operation_aborted) << failure->error.message();
}

}  // namespace
}  // namespace stampede::client
