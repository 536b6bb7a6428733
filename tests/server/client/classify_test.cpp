// classify() tests: the same error code means different things in different phases.
#include "server/client/classify.hpp"

#include <gtest/gtest.h>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/http/error.hpp>

namespace stampede::client {
namespace {

using model::ErrorKind;
namespace error = boost::asio::error;

TEST(Classify, PhaseDecidesForSocketErrors) {
  const auto reset = make_error_code(error::connection_reset);
  EXPECT_EQ(classify(Phase::connect, make_error_code(error::connection_refused)),
            ErrorKind::connect);
  EXPECT_EQ(classify(Phase::write, reset), ErrorKind::write);
  EXPECT_EQ(classify(Phase::read, reset), ErrorKind::read);
  EXPECT_EQ(classify(Phase::read, make_error_code(error::eof)), ErrorKind::read);
  EXPECT_EQ(classify(Phase::handshake, reset), ErrorKind::tls);
}

TEST(Classify, ParserErrorsAreProtocolErrorsAnywhere) {
  const auto bad = make_error_code(boost::beast::http::error::bad_version);
  EXPECT_EQ(classify(Phase::read, bad), ErrorKind::protocol);
  EXPECT_EQ(classify(Phase::read, make_error_code(boost::beast::http::error::header_limit)),
            ErrorKind::protocol);
}

TEST(Classify, TlsErrorsWhileReadingButTruncationIsARead) {
  EXPECT_EQ(classify(Phase::read, boost::asio::ssl::error::stream_truncated), ErrorKind::read);
  const boost::system::error_code tls_alert(0x0A000416, boost::asio::error::get_ssl_category());
  EXPECT_EQ(classify(Phase::read, tls_alert), ErrorKind::tls);
}

}  // namespace
}  // namespace stampede::client
