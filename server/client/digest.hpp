// --digest: a 401's Digest challenge (RFC 7616) and the Authorization header that answers it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/protocol.hpp"
#include "model/request.hpp"
#include "model/response.hpp"
#include "server/client/prepared_request.hpp"
#include "server/client/redirect.hpp"

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
/// `response`'s wanted headers), the request of `origin` that answers it (kept in `hop`, as a
/// redirect's); null when `origin` has no credentials, the challenge was answered already in
/// this exchange (`answered`), or there is none to answer. The 401's body is dropped for the
/// answer's.
const PreparedRequest* answer_digest(const model::Request* origin, bool& answered,
                                     std::unique_ptr<Redirect>& hop, model::Response& response,
                                     model::Protocol protocol);

}  // namespace stampede::client
