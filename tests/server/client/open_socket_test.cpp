// open_non_blocking(): a socket non-blocking without asking, whose reads wait for epoll's word
// and still see every byte, however early it came. Loopback only; about 50 ms in all.
#include "server/client/open_socket.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <string>

namespace stampede::client {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

/// A client socket opened by open_non_blocking() and connected to a loopback listener, and the
/// server's end of it.
struct OpenPair {
  OpenPair() : acceptor(context, {asio::ip::make_address("127.0.0.1"), 0}), client(context) {
    boost::system::error_code error;
    open_non_blocking(client, tcp::v4(), error);
    EXPECT_FALSE(error) << error.message();
    client.connect(acceptor.local_endpoint(), error);  // blocks in poll() for a non-blocking one
    EXPECT_FALSE(error) << error.message();
    server = acceptor.accept();
  }

  /// Reads what the server sent with one async_read_some, running the context for at most a
  /// second: "" if nothing came in that time.
  std::string read_once() {
    std::string got(64, '\0');
    std::size_t n = 0;
    bool done = false;
    client.async_read_some(asio::buffer(got),
                           [&](boost::system::error_code error, std::size_t size) {
                             EXPECT_FALSE(error) << error.message();
                             n = size;
                             done = true;
                           });
    context.restart();
    context.run_for(std::chrono::seconds(1));
    EXPECT_TRUE(done) << "the read never completed";
    got.resize(n);
    return got;
  }

  asio::io_context context;
  tcp::acceptor acceptor;
  tcp::socket client;
  tcp::socket server{context};
};

TEST(OpenNonBlocking, IsNonBlockingAndClosedOnExecWithoutAsking) {
  OpenPair pair;
  const int flags = ::fcntl(pair.client.native_handle(), F_GETFL);
  EXPECT_NE(flags & O_NONBLOCK, 0);
  EXPECT_NE(::fcntl(pair.client.native_handle(), F_GETFD) & FD_CLOEXEC, 0);
  EXPECT_TRUE(pair.client.non_blocking());  // Asio knows, so it makes no ioctl of its own
  // A synchronous read of nothing says would_block instead of blocking.
  char byte = 0;
  boost::system::error_code error;
  EXPECT_EQ(pair.client.read_some(asio::buffer(&byte, 1), error), 0U);
  EXPECT_EQ(error, asio::error::would_block);
}

TEST(OpenNonBlocking, AFirstReadGetsBytesThatCameAfterIt) {
  OpenPair pair;
  std::string got(64, '\0');
  std::size_t n = 0;
  pair.client.async_read_some(asio::buffer(got),
                              [&](boost::system::error_code, std::size_t size) { n = size; });
  pair.context.poll();  // the read waits: nothing has come
  EXPECT_EQ(n, 0U);
  asio::write(pair.server, asio::buffer(std::string("later")));
  pair.context.run_for(std::chrono::seconds(1));
  EXPECT_EQ(got.substr(0, n), "later");
}

TEST(OpenNonBlocking, AFirstReadGetsBytesThatCameBeforeIt) {
  OpenPair pair;
  asio::write(pair.server, asio::buffer(std::string("early")));
  EXPECT_EQ(pair.read_once(), "early");  // epoll says so: no read was tried first
}

TEST(OpenNonBlocking, AFirstReadGetsBytesEpollReportedBeforeIt) {
  OpenPair pair;
  asio::write(pair.server, asio::buffer(std::string("reported")));
  // Epoll's word comes while no read waits: Asio then tries the next read first.
  pair.context.poll();
  EXPECT_EQ(pair.read_once(), "reported");
}

TEST(OpenNonBlocking, AReopenedDescriptorIsWatchedAnew) {
  asio::io_context context;
  tcp::acceptor acceptor(context, {asio::ip::make_address("127.0.0.1"), 0});
  tcp::socket client(context);
  for (int round = 0; round < 3; ++round) {  // the kernel hands out the same descriptor again
    boost::system::error_code error;
    client.close(error);
    open_non_blocking(client, tcp::v4(), error);
    ASSERT_FALSE(error) << error.message();
    client.connect(acceptor.local_endpoint(), error);
    ASSERT_FALSE(error) << error.message();
    auto server = acceptor.accept();
    const std::string sent = "round " + std::to_string(round);
    asio::write(server, asio::buffer(sent));
    std::string got(sent.size(), '\0');
    bool done = false;
    asio::async_read(client, asio::buffer(got),
                     [&](boost::system::error_code, std::size_t) { done = true; });
    context.restart();
    context.run_for(std::chrono::seconds(1));
    EXPECT_TRUE(done);
    EXPECT_EQ(got, sent);
  }
}

}  // namespace
}  // namespace stampede::client
