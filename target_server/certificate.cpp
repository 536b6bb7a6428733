// The target server's TLS certificate: OpenSSL makes a self-signed one, or reads PEM files.
#include "target_server/certificate.hpp"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace stampede::target_server {
namespace {

template <auto free_function>
struct Free {
  template <class T>
  void operator()(T* pointer) const {
    free_function(pointer);
  }
};
using Bio = std::unique_ptr<BIO, Free<BIO_free>>;
using Key = std::unique_ptr<EVP_PKEY, Free<EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, Free<X509_free>>;
using Extension = std::unique_ptr<X509_EXTENSION, Free<X509_EXTENSION_free>>;

constexpr long seconds_per_day = 86'400;
constexpr long an_hour = 3'600;

[[noreturn]] void openssl_failed(const char* what) {
  ERR_clear_error();
  throw std::runtime_error(std::string("cannot make a self-signed certificate: ") + what);
}

/// A private key must never make OpenSSL ask for a passphrase on the terminal: an encrypted
/// key is refused instead.
int no_passphrase(char* /*buffer*/, int /*size*/, int /*rwflag*/, void* /*user*/) { return -1; }

std::string pem_of(const std::function<int(BIO*)>& write) {
  const Bio bio(BIO_new(BIO_s_mem()));
  if (!bio || write(bio.get()) != 1) openssl_failed("PEM encoding");
  char* data = nullptr;
  const auto size = BIO_get_mem_data(bio.get(), &data);
  return {data, static_cast<std::size_t>(size)};
}

void add_extension(X509* certificate, int nid, const char* value) {
  X509V3_CTX context;
  X509V3_set_ctx(&context, certificate, certificate, nullptr, nullptr, 0);
  const Extension extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
  if (!extension || X509_add_ext(certificate, extension.get(), -1) != 1) {
    openssl_failed("an extension");
  }
}

/// The certificate's fields: a random serial, the validity, CN=localhost as subject and issuer.
void describe(X509* certificate, EVP_PKEY* key) {
  X509_set_version(certificate, 2);  // v3: extensions
  unsigned char serial[16];
  if (RAND_bytes(serial, sizeof serial) != 1) openssl_failed("a serial number");
  serial[0] &= 0x7f;  // positive
  ASN1_INTEGER* number = X509_get_serialNumber(certificate);
  BIGNUM* value = BN_bin2bn(serial, sizeof serial, nullptr);
  BN_to_ASN1_INTEGER(value, number);
  BN_free(value);
  X509_gmtime_adj(X509_getm_notBefore(certificate), -an_hour);
  X509_gmtime_adj(X509_getm_notAfter(certificate), self_signed_days * seconds_per_day);
  X509_NAME* name = X509_get_subject_name(certificate);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(certificate, name);
  X509_set_pubkey(certificate, key);
  add_extension(certificate, NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1");
  add_extension(certificate, NID_basic_constraints, "critical,CA:FALSE");
  add_extension(certificate, NID_ext_key_usage, "serverAuth");
}

std::string read_file(const std::string& flag, const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw std::runtime_error("cannot read " + flag + " " + path + ": " + std::strerror(errno));
  }
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

Bio memory_of(const std::string& text) {
  return Bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

}  // namespace

Certificate make_self_signed_certificate() {
  const Key key(EVP_EC_gen("P-256"));
  const X509Ptr certificate(X509_new());
  if (!key || !certificate) openssl_failed("a P-256 key");
  describe(certificate.get(), key.get());
  if (X509_sign(certificate.get(), key.get(), EVP_sha256()) == 0) openssl_failed("signing");
  return {.chain_pem = pem_of([&](BIO* bio) { return PEM_write_bio_X509(bio, certificate.get()); }),
          .key_pem = pem_of([&](BIO* bio) {
            return PEM_write_bio_PrivateKey(bio, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
          })};
}

Certificate read_certificate(const std::string& cert_file, const std::string& key_file) {
  Certificate read{.chain_pem = read_file("--cert", cert_file),
                   .key_pem = read_file("--key", key_file)};
  const auto chain = memory_of(read.chain_pem);
  const X509Ptr certificate(PEM_read_bio_X509(chain.get(), nullptr, no_passphrase, nullptr));
  const auto key_text = memory_of(read.key_pem);
  const Key key(PEM_read_bio_PrivateKey(key_text.get(), nullptr, no_passphrase, nullptr));
  ERR_clear_error();
  if (!certificate) throw std::runtime_error("--cert " + cert_file + ": no PEM certificate in it");
  if (!key) {
    throw std::runtime_error(
        "--key " + key_file +
        ": no PEM private key in it (or an encrypted one: give it unencrypted)");
  }
  if (X509_check_private_key(certificate.get(), key.get()) != 1) {
    ERR_clear_error();
    throw std::runtime_error("--key " + key_file + ": not the key of the certificate in " +
                             cert_file);
  }
  return read;
}

}  // namespace stampede::target_server
