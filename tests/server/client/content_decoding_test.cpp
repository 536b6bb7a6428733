// decode_content() tests: each coding round-trips through its own library's encoder; bad input
// is an error, never a crash.
#include "server/client/content_decoding.hpp"

#include <brotli/encode.h>
#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <string>

namespace stampede::client {
namespace {

/// zlib's deflate with `window_bits`: 16 + 15 gzip, 15 zlib, -15 raw.
std::string deflate(const std::string& in, int window_bits) {
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&stream, in.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  stream.avail_in = static_cast<uInt>(in.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(::deflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

std::string brotli(const std::string& in) {
  std::string out(BrotliEncoderMaxCompressedSize(in.size()), '\0');
  std::size_t size = out.size();
  EXPECT_TRUE(BrotliEncoderCompress(5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, in.size(),
                                    reinterpret_cast<const std::uint8_t*>(in.data()), &size,
                                    reinterpret_cast<std::uint8_t*>(out.data())));
  out.resize(size);
  return out;
}

std::string zstd(const std::string& in) {
  std::string out(ZSTD_compressBound(in.size()), '\0');
  const auto size = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3);
  EXPECT_EQ(ZSTD_isError(size), 0U);
  out.resize(size);
  return out;
}

/// Larger than one decoding chunk, so the loops run more than once.
std::string text() {
  std::string text;
  for (int i = 0; text.size() < 300'000; ++i)
    text += "line " + std::to_string(i) + " of the body\n";
  return text;
}

std::string decoded(std::string_view coding, std::string body) {
  const auto error = decode_content(coding, body);
  EXPECT_FALSE(error) << coding << ": " << error.message();
  return body;
}

TEST(ContentDecoding, EachCodingRoundTrips) {
  const auto original = text();
  EXPECT_EQ(decoded("gzip", deflate(original, 16 + MAX_WBITS)), original);
  EXPECT_EQ(decoded("x-gzip", deflate(original, 16 + MAX_WBITS)), original);
  EXPECT_EQ(decoded("deflate", deflate(original, MAX_WBITS)), original);
  EXPECT_EQ(decoded("deflate", deflate(original, -MAX_WBITS)), original);  // raw, as some send
  EXPECT_EQ(decoded("br", brotli(original)), original);
  EXPECT_EQ(decoded("zstd", zstd(original)), original);
  EXPECT_EQ(decoded("GZIP", deflate(original, 16 + MAX_WBITS)), original);
}

TEST(ContentDecoding, StackedCodingsAreUndoneFromTheLast) {
  const auto original = text();
  EXPECT_EQ(decoded("gzip, br", brotli(deflate(original, 16 + MAX_WBITS))), original);
  EXPECT_EQ(decoded(" identity ,zstd", zstd(original)), original);
  EXPECT_EQ(decoded("", "plain"), "plain");
  EXPECT_EQ(decoded("identity", "plain"), "plain");
}

TEST(ContentDecoding, BadInputIsAnError) {
  const auto gzip = deflate(text(), 16 + MAX_WBITS);
  const std::pair<std::string, std::string> cases[] = {
      {"compress", "whatever"},
      {"gzip", "not gzip at all"},
      {"gzip", gzip.substr(0, gzip.size() / 2)},
      {"br", "\xff\xff\xff\xff not brotli"},
      {"zstd", "not zstd"},
      {"zstd", zstd(text()).substr(0, 100)},
  };
  for (auto [coding, body] : cases) {
    const auto error = decode_content(coding, body);
    EXPECT_TRUE(error) << coding;
    EXPECT_EQ(&error.category(), &content_decoding_category());
  }
  std::string unknown = "x";
  EXPECT_NE(decode_content("compress", unknown).message().find("not one of"), std::string::npos);
}

TEST(ContentDecoding, ABombIsRefused) {
  std::string body = zstd(std::string(max_decoded_body + 1, '\0'));
  const auto error = decode_content("zstd", body);
  ASSERT_TRUE(error);
  EXPECT_NE(error.message().find("64 MiB"), std::string::npos);
}

}  // namespace
}  // namespace stampede::client
