// Test helper shared by the verifier tests: a Response with a status and a body.
#pragma once

#include <string>
#include <utility>

#include "model/response.hpp"

namespace stampede::verify {

/// A Response with this status and body; everything else empty.
inline model::Response response(int status, std::string body = {}) {
  model::Response r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

}  // namespace stampede::verify
