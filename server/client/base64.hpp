// Base64 (RFC 4648) by OpenSSL, for the headers the clients write: Basic's credentials and an h2c
// upgrade's HTTP2-Settings (base64url).
#pragma once

#include <openssl/evp.h>

#include <string>
#include <string_view>

namespace stampede::client {

/// `bytes` in base64, padded.
inline std::string base64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');  // EVP_EncodeBlock adds a NUL
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

/// `bytes` in base64url without padding (RFC 4648 section 5).
inline std::string base64url(std::string_view bytes) {
  auto out = base64(bytes);
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (auto& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
  return out;
}

}  // namespace stampede::client
