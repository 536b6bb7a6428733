// answer_challenge(): RFC 7616's challenge read, its response computed with OpenSSL's digests.
#include "server/client/digest.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <boost/algorithm/string/predicate.hpp>
#include <span>
#include <vector>

#include "server/client/base64.hpp"

namespace stampede::client {

namespace {

/// `name=value` and `name="quoted \" value"` pairs after a scheme word, as RFC 7235 writes them.
std::vector<std::pair<std::string, std::string>> parameters(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t at = 0;
  const auto skip = [&](std::string_view chars) {
    while (at < text.size() && chars.find(text[at]) != std::string_view::npos) ++at;
  };
  while (true) {
    skip(" \t,");
    const auto equals = text.find('=', at);
    if (equals == std::string_view::npos) break;
    std::string name(text.substr(at, equals - at));
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    at = equals + 1;
    skip(" \t");
    std::string value;
    if (at < text.size() && text[at] == '"') {
      for (++at; at < text.size() && text[at] != '"'; ++at) {
        if (text[at] == '\\' && at + 1 < text.size()) ++at;
        value += text[at];
      }
      ++at;  // the closing quote
    } else {
      const auto end = std::min(text.find_first_of(", \t", at), text.size());
      value = text.substr(at, end - at);
      at = end;
    }
    out.emplace_back(std::move(name), std::move(value));
  }
  return out;
}

const EVP_MD* hash_of(std::string_view algorithm) {
  if (algorithm.ends_with("-sess") || algorithm.ends_with("-SESS")) algorithm.remove_suffix(5);
  if (algorithm.empty() || boost::iequals(algorithm, "MD5")) return EVP_md5();
  if (boost::iequals(algorithm, "SHA-256")) return EVP_sha256();
  if (boost::iequals(algorithm, "SHA-512-256")) return EVP_sha512_256();
  return nullptr;
}

/// `bytes` in lower-case hex.
std::string to_hex(std::span<const unsigned char> bytes) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (const auto byte : bytes) out += {hex[byte >> 4], hex[byte & 15]};
  return out;
}

/// The hash of `text` in lower-case hex, as RFC 7616 writes H(...).
std::string hex_hash(const EVP_MD* md, std::string_view text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_Digest(text.data(), text.size(), digest.data(), &size, md, nullptr);
  return to_hex(std::span(digest).first(size));
}

/// True when a qop list (`auth,auth-int`) holds `auth` itself.
bool offers_auth(std::string_view list) {
  while (!list.empty()) {
    const auto end = std::min(list.find(','), list.size());
    auto option = list.substr(0, end);
    while (option.starts_with(' ')) option.remove_prefix(1);
    while (option.ends_with(' ')) option.remove_suffix(1);
    if (boost::iequals(option, "auth")) return true;
    list.remove_prefix(std::min(end + 1, list.size()));
  }
  return false;
}

/// A client nonce: 16 random bytes in hex, as curl sends.
std::string make_cnonce() {
  std::array<unsigned char, 16> bytes{};
  RAND_bytes(bytes.data(), static_cast<int>(bytes.size()));
  return to_hex(bytes);
}

/// A quoted-string's content: `"` and `\` escaped.
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

}  // namespace

std::optional<DigestChallenge> parse_digest_challenge(std::string_view header) {
  // Several challenges may share one header: find the word Digest that starts one.
  std::size_t at = 0;
  while ((at = header.find("igest", at)) != std::string_view::npos) {
    const auto start = at - 1;
    at += 5;
    const bool word = (start == 0 || header[start - 1] == ' ' || header[start - 1] == ',') &&
                      (header[start] == 'D' || header[start] == 'd') &&
                      (at == header.size() || header[at] == ' ');
    if (!word) continue;
    DigestChallenge challenge;
    bool auth_int_only = false;
    for (const auto& [name, value] : parameters(header.substr(at))) {
      if (boost::iequals(name, "realm")) challenge.realm = value;
      if (boost::iequals(name, "nonce")) challenge.nonce = value;
      if (boost::iequals(name, "opaque")) challenge.opaque = value;
      if (boost::iequals(name, "algorithm")) challenge.algorithm = value;
      if (boost::iequals(name, "qop")) {
        challenge.qop_auth = offers_auth(value);
        auth_int_only = !challenge.qop_auth;
      }
    }
    if (challenge.nonce.empty() || auth_int_only || hash_of(challenge.algorithm) == nullptr) {
      return std::nullopt;
    }
    return challenge;
  }
  return std::nullopt;
}

std::string digest_authorization(const DigestChallenge& challenge,
                                 const model::Credentials& credentials, std::string_view method,
                                 std::string_view uri, std::string_view cnonce) {
  const auto* md = hash_of(challenge.algorithm);
  constexpr std::string_view nc = "00000001";
  auto ha1 = hex_hash(md, credentials.user + ":" + challenge.realm + ":" + credentials.password);
  if (boost::iends_with(challenge.algorithm, "-sess")) {
    ha1 = hex_hash(md, ha1 + ":" + challenge.nonce + ":" + std::string(cnonce));
  }
  const auto ha2 = hex_hash(md, std::string(method) + ":" + std::string(uri));
  const auto response = challenge.qop_auth
                            ? hex_hash(md, ha1 + ":" + challenge.nonce + ":" + std::string(nc) +
                                               ":" + std::string(cnonce) + ":auth:" + ha2)
                            : hex_hash(md, ha1 + ":" + challenge.nonce + ":" + ha2);
  std::string header = "Digest username=" + quoted(credentials.user) +
                       ", realm=" + quoted(challenge.realm) + ", nonce=" + quoted(challenge.nonce) +
                       ", uri=" + quoted(uri);
  if (challenge.qop_auth) {
    header += ", cnonce=" + quoted(cnonce) + ", nc=" + std::string(nc) + ", qop=auth";
  }
  header += ", response=" + quoted(response);
  if (!challenge.opaque.empty()) header += ", opaque=" + quoted(challenge.opaque);
  if (!challenge.algorithm.empty()) header += ", algorithm=" + challenge.algorithm;
  return header;
}

std::optional<model::Request> answer_challenge(const model::Request& origin, bool& answered,
                                               const model::Response& response) {
  if (!origin.digest || answered || response.status != 401) return std::nullopt;
  const auto& credentials = *origin.digest;
  std::optional<std::string> authorization;
  bool basic_offered = false;
  for (const auto& [name, value] : response.headers) {
    if (name != "www-authenticate") continue;
    basic_offered = basic_offered || boost::istarts_with(value, "basic");
    if (const auto challenge = parse_digest_challenge(value)) {
      authorization = digest_authorization(*challenge, credentials, origin.method, origin.target,
                                           make_cnonce());
      break;
    }
  }
  if (!authorization && basic_offered && credentials.basic_too) {
    authorization = "Basic " + base64(credentials.user + ":" + credentials.password);
  }
  if (!authorization) return std::nullopt;
  model::Request answer = origin;
  answer.headers.emplace_back("Authorization", std::move(*authorization));
  answered = true;
  return answer;
}

}  // namespace stampede::client
