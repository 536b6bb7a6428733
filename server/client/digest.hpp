// --digest: a 401's Digest challenge (RFC 7616) and the Authorization header that answers it
// (or Basic's, with --basic too).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/request.hpp"
#include "model/response.hpp"

namespace stampede::client {

/// What a `WWW-Authenticate: Digest ...` header asks for.
struct DigestChallenge {
  std::string realm;
  std::string nonce;
  std::string opaque;     ///< sent back as it came; empty: none
  std::string algorithm;  ///< as the server named it: MD5 (also when absent), SHA-256, ...-sess
  bool qop_auth = false;  ///< the server offers qop=auth (else the RFC 2069 answer)
};

/// The Digest challenge among `header`'s (one WWW-Authenticate value; `Basic realm=...` and
/// others are skipped); nullopt when there is none, or it asks for what stampede cannot answer
/// (only qop=auth-int, an unknown algorithm).
std::optional<DigestChallenge> parse_digest_challenge(std::string_view header);

/// The Authorization header's value answering `challenge` for `method` `uri` with
/// `credentials`, as curl writes it; `cnonce` is the client's nonce (qop=auth), nc 00000001.
std::string digest_authorization(const DigestChallenge& challenge,
                                 const model::Credentials& credentials, std::string_view method,
                                 std::string_view uri, std::string_view cnonce);

/// --digest, for a client's exchange loop: after a 401 that carries a Digest challenge (in
/// `response`'s wanted headers), the request of `origin` that answers it; with curl's --basic
/// too (Credentials::basic_too), a 401 that offers only Basic is answered with Basic, as curl
/// picks the best method the server offers. Nullopt when `origin` has no credentials to wait
/// with, the challenge was answered already in this exchange (`answered`, set here), or there
/// is none to answer.
std::optional<model::Request> answer_challenge(const model::Request& origin, bool& answered,
                                               const model::Response& response);

}  // namespace stampede::client
