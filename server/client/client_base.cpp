// ClientBase: the exchange policy both protocol clients follow, written once.
#include "server/client/client_base.hpp"

#include <utility>

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
  deadline_ = Clock::now() + limit;
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
  if (step != Step::done) return nullptr;
  if (const auto* answer =
          answer_digest(request.answers_of, answered_, hop_, response, protocol_)) {
    may_retry_ = true;
    return current_ = answer;
  }
  current_ = next_hop(request.answers_of, hops_, hop_, response, protocol_);
  may_retry_ = true;
  return current_;
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
  if (request.grpc) settle_grpc_call(response, request.grpc_server_streaming);
  if (late) {  // complete, but after the deadline: wrk too counts a late response as a timeout
    response.error = model::ErrorKind::timeout;
    log_first_failure(setup_, response.error, {}, {});
  }
}

model::ErrorKind ClientBase::failure(Phase phase, const boost::system::error_code& error,
                                     std::string_view hint) {
  const auto kind = timed_out_ ? model::ErrorKind::timeout : classify(phase, error);
  log_first_failure(setup_, kind, error, hint);
  return kind;
}

}  // namespace stampede::client
