// ClientBase: the exchange policy both protocol clients follow, written once.
#include "server/client/client_base.hpp"

#include <algorithm>
#include <utility>

#include "model/http_syntax.hpp"

#include "server/client/content_decoding.hpp"
#include "server/client/digest.hpp"
#include "server/client/failure_log.hpp"
#include "server/client/grpc_outcome.hpp"

namespace stampede::client {

ClientBase::ClientBase(const ClientSetup& setup, ThreadContext& thread, model::Protocol protocol)
    : setup_(setup), thread_(thread), executor_(thread.executor), protocol_(protocol) {
  thread_.watchdog->watch(this);
}

ClientBase::~ClientBase() { thread_.watchdog->forget(this); }

const PreparedRequest* ClientBase::begin_exchange(const PreparedRequest& request,
                                                  model::Response& response) {
  response.clear();
  timed_out_ = false;
  const auto limit = request.timeout.count() > 0 ? request.timeout : setup_.timeout;
  started_ = Clock::now();
  deadline_ = started_ + limit;
  hops_ = 0;
  may_retry_ = true;
  answered_ = false;
  current_ = &request;
  return current_;
}

const PreparedRequest* ClientBase::next_request(const PreparedRequest& request, Step step,
                                                model::Response& response) {
  if (step == Step::stale && std::exchange(may_retry_, false)) {
    close();
    response.clear();
    return current_;
  }
  const auto* origin = request.answers_of;
  if (step != Step::done || origin == nullptr) return nullptr;
  // Where `response` came from: the request itself, or the last hop.
  const std::string_view target =
      current_ == &request ? std::string_view(origin->target) : std::string_view(hop_->target);
  auto next = answer_challenge(*origin, answered_, response);
  if (next) response.challenge = Clock::now() - started_;
  if (!next && hops_ < max_redirects) {
    next = redirect_hop(*origin, target, response);
    hops_ += next ? 1 : 0;
  }
  if (!next) return nullptr;
  if (cookies_ != nullptr) carry_cookies(origin->origin, target, response, *next);
  // The next response's headers and body replace these.
  response.headers.clear();
  response.body.clear();
  response.body_bytes = 0;
  hop_ = std::make_unique<Redirect>(Redirect{next->target, prepare(*next, protocol_)});
  may_retry_ = true;
  current_ = &hop_->prepared;
  return current_;
}

/// The session keeps what `response` (to `target` of `origin`) set, and `next` carries the
/// session's cookies for it before its own (curl sends its jar's before -b's).
void ClientBase::carry_cookies(const model::Origin& origin, std::string_view target,
                               const model::Response& response, model::Request& next) {
  cookies_->keep_cookies(origin, target, response);
  auto cookies = cookies_->cookies_for(next.origin, next.target);
  if (cookies.empty()) return;
  const auto own = std::find_if(next.headers.begin(), next.headers.end(), [](const auto& header) {
    return model::same_field_name(header.first, "cookie");
  });
  if (own == next.headers.end()) {
    next.headers.emplace_back("Cookie", std::move(cookies));
  } else {
    own->second = cookies + "; " + own->second;
  }
}

void ClientBase::end_exchange(const PreparedRequest& request, model::Response& response) {
  const bool late = Clock::now() > deadline_;
  stop_clock();
  if (response.error != model::ErrorKind::none) {
    close();
    return;
  }
  if (request.decode_body && setup_.keep_body && !response.content_encoding.empty()) {
    if (const auto error = decode_content(response.content_encoding, response.body); error) {
      record_failure(response, Phase::read, error);
      close();
      return;
    }
  }
  if (request.grpc && !response.sent_only) {
    const auto why = settle_grpc_call(response, request.grpc_server_streaming, request.max_message);
    if (response.error != model::ErrorKind::none) {  // the answer broke --max-message
      log_first_failure(setup_, response.error, {}, why);
      return;
    }
  }
  if (late) {  // complete, but after the deadline: wrk too counts a late response as a timeout
    response.error = model::ErrorKind::timeout;
    log_first_failure(setup_, response.error, {}, {});
  }
}

model::ErrorKind ClientBase::failure(Phase phase, const boost::system::error_code& error,
                                     std::string_view hint) {
  const auto kind =
      timed_out_ && !websocket_outcome(error) ? model::ErrorKind::timeout : classify(phase, error);
  log_first_failure(setup_, kind, error, hint);
  return kind;
}

}  // namespace stampede::client
