// The target server's TLS certificate: a self-signed one made at start, or PEM files (--cert,
// --key) read and checked.
#pragma once

#include <string>

namespace stampede::target_server {

/// A certificate (with its chain, if any) and its private key, both PEM text.
struct Certificate {
  std::string chain_pem;  ///< the server's certificate first, then any intermediates
  std::string key_pem;    ///< the private key matching the first certificate
  /// True when no certificate is set: the server then makes a self-signed one.
  [[nodiscard]] bool empty() const { return chain_pem.empty(); }
};

/// How long make_self_signed_certificate()'s certificate is valid, from an hour before it is
/// made (a client whose clock is a little behind still accepts it).
inline constexpr long self_signed_days = 365;

/// A new self-signed certificate for the loopback names: an EC P-256 key, subject CN=localhost,
/// subjectAltName DNS:localhost, IP:127.0.0.1, IP:::1, valid for self_signed_days. Throws
/// std::runtime_error if OpenSSL fails (it has no reason to).
Certificate make_self_signed_certificate();

/// Reads `cert_file` (PEM: the certificate, then any chain) and `key_file` (a PEM private key)
/// and checks that the key is the certificate's. Throws std::runtime_error with a one-line
/// reason naming the file ("--cert FILE: no PEM certificate in it").
Certificate read_certificate(const std::string& cert_file, const std::string& key_file);

}  // namespace stampede::target_server
