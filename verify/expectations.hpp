// Expectations: --expect-status, --expect-json, --expect-body, --expect-header and --expect-size,
// each one check, all of which a response must pass; a rejection is counted under the check that
// failed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "verify/verifier.hpp"

namespace stampede::verify {

/// One check of a response, named as the user typed it ("--expect-json /data/id=42").
class Check {
 public:
  virtual ~Check() = default;
  [[nodiscard]] virtual bool holds(const model::Response& response) const = 0;
  /// Why `response` failed it, for the first rejection's warning.
  [[nodiscard]] virtual std::string why_not(const model::Response& response) const = 0;
  [[nodiscard]] virtual bool needs_body() const = 0;
  /// The header it reads (lower case), if any.
  [[nodiscard]] virtual std::string header() const { return {}; }
  [[nodiscard]] const std::string& name() const { return name_; }

 protected:
  explicit Check(std::string name) : name_(std::move(name)) {}

 private:
  std::string name_;
};

/// `200,204,300-399`: the status is one of these (codes and ranges, 100 to 599). A WebSocket
/// reply has no status: it passes. Throws std::invalid_argument naming what it cannot read.
std::unique_ptr<Check> expect_status(std::string_view list);

/// RFC 6901 pointer checks on the body's JSON: `/data/id=42` (the value there equals 42 as JSON,
/// or as the text of a string), `/data/id` (it exists), `/msg~^ok` (its text matches the regex).
/// Throws std::invalid_argument for a bad pointer or regex.
std::unique_ptr<Check> expect_json(std::string_view text);

/// The body matches the regex (ECMAScript, anywhere in it). Throws std::invalid_argument.
std::unique_ptr<Check> expect_body(std::string_view regex);

/// `Name: REGEX`: the response has header Name (any case) with a value the regex matches
/// (anywhere in it); `Name:` alone: it has the header. Every value of a repeated header is
/// tried. Throws std::invalid_argument for a name that is not a token, or a bad regex.
std::unique_ptr<Check> expect_header(std::string_view text);

/// The body is exactly `size` bytes (decoded, as a verifier sees it).
std::unique_ptr<Check> expect_size(std::uint64_t size);

/// A verifier of several checks, in order: a response passes when each does, and is rejected
/// under the first that fails. `base` (the -v verifier, kept unless --expect-status replaces
/// its status check; may be null) is the first check, named `base_name`.
std::unique_ptr<Verifier> expectations(std::unique_ptr<Verifier> base, std::string base_name,
                                       std::vector<std::unique_ptr<Check>> checks);

}  // namespace stampede::verify
