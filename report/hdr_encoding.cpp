// HdrHistogram's V2 compressed encoding, written from its published format (the V2 "encoding
// cookie" header, ZigZag LEB128 counts with runs of zeros as negative lengths, zlib-deflated).
// No Debian package holds a C or C++ HdrHistogram, and the codec is small: see histogram.hpp.
#include "report/hdr_encoding.hpp"

#include <openssl/evp.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace stampede::report {
namespace {

constexpr std::uint32_t encoding_cookie = 0x1c849303 | 0x10;    // V2, LEB128 counts
constexpr std::uint32_t compressed_cookie = 0x1c849304 | 0x10;  // V2, zlib around the above
constexpr std::size_t header_bytes = 40;
constexpr std::int32_t significant_digits = 2;
constexpr std::size_t max_compressed_bytes = std::size_t{1} << 20;  // 4864 counts: far less

void put_be(std::string& out, std::uint64_t value, int bytes) {
  for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((value >> shift) & 0xFF));
  }
}

std::uint64_t get_be(std::string_view in, std::size_t at, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value = (value << 8) | static_cast<unsigned char>(in[at + i]);
  return value;
}

/// ZigZag, then LEB128 of 7 bits a byte for the first 8 bytes and 8 bits in a 9th, as
/// HdrHistogram's ZigZagEncoding.putLong.
void put_zigzag(std::string& out, std::int64_t signed_value) {
  auto value = (static_cast<std::uint64_t>(signed_value) << 1) ^
               static_cast<std::uint64_t>(signed_value >> 63);
  for (int byte = 0; byte < 8; ++byte) {
    if (value < 0x80) {
      out.push_back(static_cast<char>(value));
      return;
    }
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

std::int64_t get_zigzag(std::string_view in, std::size_t& at) {
  std::uint64_t value = 0;
  for (int byte = 0; byte < 9; ++byte) {
    if (at >= in.size()) throw std::invalid_argument("a histogram's counts end mid-number");
    const auto b = static_cast<unsigned char>(in[at++]);
    if (byte == 8) {
      value |= std::uint64_t{b} << 56;
      break;
    }
    value |= std::uint64_t{b & 0x7FU} << (7 * byte);
    if ((b & 0x80) == 0) break;
  }
  return static_cast<std::int64_t>(value >> 1) ^ -static_cast<std::int64_t>(value & 1);
}

std::string counts_payload(const std::vector<std::uint64_t>& counts) {
  std::string payload;
  for (std::size_t index = 0; index < counts.size();) {
    std::size_t zeros = 0;
    while (index + zeros < counts.size() && counts[index + zeros] == 0) ++zeros;
    if (zeros > 1) {
      put_zigzag(payload, -static_cast<std::int64_t>(zeros));
      index += zeros;
      continue;
    }
    put_zigzag(payload, static_cast<std::int64_t>(counts[index++]));
  }
  return payload;
}

std::string base64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int length = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                     reinterpret_cast<const unsigned char*>(bytes.data()),
                                     static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(length));
  return out;
}

std::string unbase64(std::string_view text) {
  if (text.empty() || text.size() % 4 != 0 || text.size() > 2 * max_compressed_bytes) {
    throw std::invalid_argument("a histogram that is not base64");
  }
  std::string out(text.size() / 4 * 3, '\0');
  const int length = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                     reinterpret_cast<const unsigned char*>(text.data()),
                                     static_cast<int>(text.size()));
  if (length < 0) throw std::invalid_argument("a histogram that is not base64");
  // EVP_DecodeBlock counts the padding as zero bytes.
  const std::size_t padding = text.ends_with("==") ? 2 : text.ends_with('=') ? 1 : 0;
  out.resize(static_cast<std::size_t>(length) - padding);
  return out;
}

std::string deflate(const std::string& raw) {
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::string out(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()),
                Z_DEFAULT_COMPRESSION) != Z_OK) {
    throw std::runtime_error("zlib could not compress a histogram");
  }
  out.resize(size);
  return out;
}

std::string inflate(std::string_view compressed) {
  // The counts of this layout take at most 9 bytes each after the 40-byte header.
  std::string out(header_bytes + 9 * statistics::Histogram::counts_length, '\0');
  uLongf size = out.size();
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &size,
                 reinterpret_cast<const Bytef*>(compressed.data()),
                 static_cast<uLong>(compressed.size())) != Z_OK) {
    throw std::invalid_argument("a histogram whose zlib stream does not inflate");
  }
  out.resize(size);
  return out;
}

}  // namespace

std::string hdr_base64(const statistics::Histogram& histogram) {
  const std::string payload = counts_payload(histogram.counts_by_index());
  std::string raw;
  put_be(raw, encoding_cookie, 4);
  put_be(raw, payload.size(), 4);
  put_be(raw, 0, 4);  // normalizing index offset
  put_be(raw, significant_digits, 4);
  put_be(raw, 1, 8);  // lowest discernible value: 1 ns
  put_be(raw, statistics::Histogram::max_value, 8);
  put_be(raw, std::bit_cast<std::uint64_t>(1.0), 8);  // integer to double conversion ratio
  raw += payload;
  const std::string compressed = deflate(raw);
  std::string framed;
  put_be(framed, compressed_cookie, 4);
  put_be(framed, compressed.size(), 4);
  return base64(framed + compressed);
}

std::vector<std::uint64_t> hdr_counts(std::string_view text) {
  const std::string framed = unbase64(text);
  if (framed.size() < 8 || get_be(framed, 0, 4) != compressed_cookie ||
      get_be(framed, 4, 4) != framed.size() - 8) {
    throw std::invalid_argument("a histogram not in HdrHistogram's V2 compressed encoding");
  }
  const std::string raw = inflate(std::string_view(framed).substr(8));
  if (raw.size() < header_bytes || get_be(raw, 0, 4) != encoding_cookie ||
      get_be(raw, 4, 4) != raw.size() - header_bytes || get_be(raw, 8, 4) != 0 ||
      get_be(raw, 12, 4) != significant_digits || get_be(raw, 16, 8) != 1 ||
      get_be(raw, 24, 8) != statistics::Histogram::max_value) {
    throw std::invalid_argument(
        "a histogram of another layout than stampede's (1 ns .. 2^44 ns, 2 digits)");
  }
  std::vector<std::uint64_t> counts;
  const std::string_view payload = std::string_view(raw).substr(header_bytes);
  for (std::size_t at = 0; at < payload.size();) {
    const std::int64_t value = get_zigzag(payload, at);
    constexpr auto most = static_cast<std::int64_t>(statistics::Histogram::counts_length);
    const std::uint64_t zeros = value < 0 ? static_cast<std::uint64_t>(-std::max(value, -most)) : 0;
    if (counts.size() + std::max<std::uint64_t>(zeros, 1) > statistics::Histogram::counts_length) {
      throw std::invalid_argument("a histogram with more counts than its layout holds");
    }
    if (value < 0) {
      counts.resize(counts.size() + zeros, 0);
    } else {
      counts.push_back(static_cast<std::uint64_t>(value));
    }
  }
  return counts;
}

}  // namespace stampede::report
