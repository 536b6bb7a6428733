// decode_content(): zlib for gzip and deflate, the reference libraries for brotli and zstd.
#include "server/client/content_decoding.hpp"

#include <brotli/decode.h>
#include <zlib.h>
#include <zstd.h>

#include <memory>
#include <vector>

#include "server/client/field_text.hpp"

namespace stampede::client {

namespace {

enum class DecodeError { none, unknown_coding, corrupt, too_large };

class Category final : public boost::system::error_category {
 public:
  [[nodiscard]] const char* name() const noexcept override { return "content decoding"; }
  [[nodiscard]] std::string message(int value) const override {
    switch (static_cast<DecodeError>(value)) {
      case DecodeError::unknown_coding:
        return "the response's Content-Encoding is not one of gzip, deflate, br, zstd";
      case DecodeError::corrupt:
        return "the compressed response body is corrupt or cut short";
      case DecodeError::too_large:
        return "the decoded response body is over 64 MiB";
      case DecodeError::none:
        break;
    }
    return "content decoding error";
  }
};

boost::system::error_code make_error(DecodeError error) {
  return {static_cast<int>(error), content_decoding_category()};
}

constexpr std::size_t chunk = 64 * 1024;

/// gzip and zlib-wrapped deflate (RFC 9110 8.4.1); like curl, a raw deflate stream (as some
/// servers send for "deflate") is accepted too.
DecodeError inflate(const std::string& in, std::string& out, int window_bits) {
  z_stream stream{};
  if (inflateInit2(&stream, window_bits) != Z_OK) return DecodeError::corrupt;
  const std::unique_ptr<z_stream, decltype(&inflateEnd)> guard(&stream, &inflateEnd);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  stream.avail_in = static_cast<uInt>(in.size());
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    const auto used = out.size();
    if (used >= max_decoded_body) return DecodeError::too_large;
    out.resize(used + chunk);
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    stream.avail_out = chunk;
    status = ::inflate(&stream, Z_NO_FLUSH);
    out.resize(used + chunk - stream.avail_out);
    if (status != Z_OK && status != Z_STREAM_END) return DecodeError::corrupt;
    if (status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) {
      return DecodeError::corrupt;  // the stream ended before its end marker
    }
  }
  return DecodeError::none;
}

DecodeError brotli(const std::string& in, std::string& out) {
  const std::unique_ptr<BrotliDecoderState, decltype(&BrotliDecoderDestroyInstance)> state(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), &BrotliDecoderDestroyInstance);
  auto available_in = in.size();
  const auto* next_in = reinterpret_cast<const std::uint8_t*>(in.data());
  for (;;) {
    const auto used = out.size();
    if (used >= max_decoded_body) return DecodeError::too_large;
    out.resize(used + chunk);
    std::size_t available_out = chunk;
    auto* next_out = reinterpret_cast<std::uint8_t*>(out.data() + used);
    const auto result = BrotliDecoderDecompressStream(state.get(), &available_in, &next_in,
                                                      &available_out, &next_out, nullptr);
    out.resize(used + chunk - available_out);
    if (result == BROTLI_DECODER_RESULT_SUCCESS) return DecodeError::none;
    if (result != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) return DecodeError::corrupt;
  }
}

DecodeError zstd(const std::string& in, std::string& out) {
  const std::unique_ptr<ZSTD_DStream, decltype(&ZSTD_freeDStream)> stream(ZSTD_createDStream(),
                                                                          &ZSTD_freeDStream);
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  std::size_t status = 1;  // nonzero: a frame is not finished
  while (input.pos < input.size || status != 0) {
    const auto used = out.size();
    if (used >= max_decoded_body) return DecodeError::too_large;
    out.resize(used + chunk);
    ZSTD_outBuffer output{out.data() + used, chunk, 0};
    const auto before = input.pos;
    status = ZSTD_decompressStream(stream.get(), &output, &input);
    out.resize(used + output.pos);
    if (ZSTD_isError(status) != 0) return DecodeError::corrupt;
    if (status != 0 && input.pos == before && output.pos == 0) return DecodeError::corrupt;
  }
  return DecodeError::none;
}

DecodeError decode_one(std::string_view coding, const std::string& in, std::string& out) {
  if (iequals(coding, "gzip") || iequals(coding, "x-gzip")) return inflate(in, out, 16 + MAX_WBITS);
  if (iequals(coding, "deflate")) {
    const auto zlib = inflate(in, out, MAX_WBITS);
    if (zlib != DecodeError::corrupt) return zlib;
    out.clear();
    return inflate(in, out, -MAX_WBITS);
  }
  if (iequals(coding, "br")) return brotli(in, out);
  if (iequals(coding, "zstd")) return zstd(in, out);
  return DecodeError::unknown_coding;
}

}  // namespace

const boost::system::error_category& content_decoding_category() {
  static const Category category;
  return category;
}

boost::system::error_code decode_content(std::string_view content_encoding, std::string& body) {
  std::vector<std::string_view> codings;
  for_each_token(content_encoding,
                 [&codings](std::string_view coding) { codings.push_back(coding); });
  std::string decoded;
  for (auto coding = codings.rbegin(); coding != codings.rend(); ++coding) {
    if (iequals(*coding, "identity")) continue;
    decoded.clear();
    const auto error = decode_one(*coding, body, decoded);
    if (error != DecodeError::none) return make_error(error);
    body.swap(decoded);
  }
  return {};
}

}  // namespace stampede::client
