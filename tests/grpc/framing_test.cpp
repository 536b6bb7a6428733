// Length-Prefixed-Messages: framing, reading across arbitrary splits, and each broken body's
// status.
#include "grpc/framing.hpp"

#include <gtest/gtest.h>

namespace stampede::grpc {
namespace {

using namespace std::string_literals;

TEST(GrpcFraming, AMessageGetsAFiveBytePrefix) {
  EXPECT_EQ(frame("abc"), "\0\0\0\0\x03"s + "abc");
  EXPECT_EQ(frame(""), "\0\0\0\0\0"s);
  EXPECT_EQ(frame(std::string(0x010203, 'x')).substr(0, 5), "\0\0\x01\x02\x03"s);
}

TEST(GrpcFraming, AWholeBodySplitsIntoItsMessages) {
  const auto read = read_messages(frame("one") + frame("") + frame("three"));
  EXPECT_EQ(read.messages, (std::vector<std::string>{"one", "", "three"}));
  EXPECT_EQ(read.error, std::nullopt);
  EXPECT_EQ(read_messages("").messages.size(), 0U);
  EXPECT_EQ(read_messages("").error, std::nullopt);
}

TEST(GrpcFraming, MessagesArriveWhateverTheSplit) {
  const std::string body = frame("hello") + frame("world!");
  for (std::size_t cut = 0; cut <= body.size(); ++cut) {
    MessageReader reader;
    std::vector<std::string> messages;
    reader.feed(body.substr(0, cut));
    while (auto message = reader.next()) messages.push_back(*message);
    reader.feed(body.substr(cut));
    while (auto message = reader.next()) messages.push_back(*message);
    EXPECT_EQ(messages, (std::vector<std::string>{"hello", "world!"})) << cut;
    EXPECT_EQ(reader.finish(), std::nullopt) << cut;
  }
}

TEST(GrpcFraming, OneByteAtATime) {
  const std::string body = frame("abc") + frame("de");
  MessageReader reader;
  std::vector<std::string> messages;
  for (const char c : body) {
    reader.feed(std::string_view(&c, 1));
    while (auto message = reader.next()) messages.push_back(*message);
  }
  EXPECT_EQ(messages, (std::vector<std::string>{"abc", "de"}));
  EXPECT_EQ(reader.finish(), std::nullopt);
}

TEST(GrpcFraming, ABodyEndingInsideAMessageIsInternal) {
  const auto in_prefix = read_messages(frame("ok") + "\0\0"s);
  EXPECT_EQ(in_prefix.messages, (std::vector<std::string>{"ok"}));
  EXPECT_EQ(
      in_prefix.error,
      (Status{Code::internal, "the response ended inside a message's prefix (2 of its 5 bytes)"}));
  EXPECT_EQ(read_messages(frame("hello").substr(0, 7)).error,
            (Status{Code::internal, "the response ended inside a message (2 of its 5 bytes)"}));
}

TEST(GrpcFraming, ACompressedFlagWithoutGrpcEncodingIsInternal) {
  const auto body = "\x01\0\0\0\x01x"s;
  EXPECT_EQ(read_messages(body).error,
            (Status{Code::internal, "compressed message in a response without grpc-encoding"}));
  EXPECT_EQ(read_messages(body, "identity").error,
            (Status{Code::internal, "compressed message in a response without grpc-encoding"}));
  EXPECT_EQ(read_messages(body, "gzip").error,
            (Status{Code::unimplemented,
                    "compressed message (grpc-encoding gzip), which stampede cannot read"}));
  // Not compressed: the encoding does not matter.
  EXPECT_EQ(read_messages(frame("x"), "gzip").messages, (std::vector<std::string>{"x"}));
}

TEST(GrpcFraming, AFlagOtherThanZeroOrOneIsInternal) {
  const auto read = read_messages(frame("first") + "\x02\0\0\0\x01x"s);
  EXPECT_EQ(read.messages, (std::vector<std::string>{"first"}));
  EXPECT_EQ(read.error, (Status{Code::internal, "message with compressed flag 2"}));
}

TEST(GrpcFraming, AMessageOverTheLimitIsResourceExhaustedBeforeItArrives) {
  MessageReader reader({}, 4);
  reader.feed("\0\0\0\0\x05"s);  // only the prefix: the length alone decides
  EXPECT_EQ(reader.next(), std::nullopt);
  EXPECT_EQ(reader.error(),
            (Status{Code::resource_exhausted, "message of 5 bytes, more than the limit of 4"}));
  EXPECT_EQ(reader.finish(), reader.error());
  reader.feed("more");  // nothing more is read once broken
  EXPECT_EQ(reader.next(), std::nullopt);
  EXPECT_EQ(read_messages(frame("four"), {}, 4).messages, (std::vector<std::string>{"four"}));
  EXPECT_EQ(read_messages("\0\xff\xff\xff\xff"s).error->code, Code::resource_exhausted);
}

TEST(GrpcFraming, AUnaryCallAnswersOneMessage) {
  const Status ok{Code::ok, ""};
  EXPECT_EQ(check_unary(ok, 1), std::nullopt);
  EXPECT_EQ(check_unary(ok, 0),
            (Status{Code::internal, "a unary call answered OK with 0 messages, not one"}));
  EXPECT_EQ(check_unary(ok, 2),
            (Status{Code::internal, "a unary call answered OK with 2 messages, not one"}));
  EXPECT_EQ(check_unary(Status{Code::not_found, "gone"}, 0), std::nullopt);
}

}  // namespace
}  // namespace stampede::grpc
