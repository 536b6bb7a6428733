// The cost of a user's request copies: variables rendered (RequestTemplate) and cookies added
// (with_cookies), in nanoseconds and heap allocations per request. Run by bench/render.sh.
// The operators new and delete below replace the global ones, malloc underneath; GCC 12 sees
// them inlined into the standard allocator and takes the pair for a mismatch.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "server/request_template.hpp"

namespace {

std::size_t allocations = 0;  // counted by the operator new below, on this one thread

using stampede::client::PreparedRequest;

/// Nanoseconds per call of `make` over `rounds` calls, and heap allocations per call once warm.
template <class Make>
void measure(const char* name, int rounds, Make make) {
  for (int i = 0; i < 1000; ++i) make(i);  // warm: the copies' buffers reach their size
  const auto before = allocations;
  const auto start = std::chrono::steady_clock::now();
  std::size_t bytes = 0;
  for (int i = 0; i < rounds; ++i) bytes += make(i);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  std::printf("%-44s %7.0f ns  %.3f allocations  (%zu bytes a request)\n", name,
              static_cast<double>(std::chrono::nanoseconds(elapsed).count()) / rounds,
              static_cast<double>(allocations - before) / rounds, bytes / rounds);
}

std::size_t size_of(const PreparedRequest& request) {
  return std::get<stampede::client::Http1Wire>(request.wire).bytes.size();
}

}  // namespace

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size)) return p;  // NOLINT(cppcoreguidelines-no-malloc)
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }  // NOLINT(cppcoreguidelines-no-malloc)
void operator delete(void* p, std::size_t) noexcept { std::free(p); }  // NOLINT

int main() {
  namespace s = stampede;
  constexpr int rounds = 2'000'000;
  s::model::Request request;
  request.origin.host = "api.example.com";
  request.keep_alive = true;
  request.method = "POST";
  request.target = "/items/${rand:1-100000}?user=${user}&round=${seq}";
  request.headers = {{"Content-Type", "application/json"}, {"X-Request-Id", "${uuid}"}};
  request.body = R"({"user":${user},"round":${seq},"note":"a body of a typical size"})";
  const auto prepared = s::client::prepare(request, s::model::Protocol::http1);
  const auto variables = s::server::RequestTemplate::of(prepared);
  s::session::UserValues values(42);
  s::client::RequestCopy copy;
  s::client::RequestCopy cookie_copy;

  std::printf("%s\n", std::get<s::client::Http1Wire>(prepared.wire).bytes.c_str());
  measure("no variables, no cookies (the prepared bytes)", rounds,
          [&](int) { return size_of(prepared); });
  measure("5 variables (rand, user, seq x2, uuid)", rounds, [&](int i) {
    values.round = static_cast<std::uint64_t>(i);
    return size_of(variables->render(prepared, values, copy));
  });
  measure("a cookie added (a 40-byte session id)", rounds, [&](int) {
    return size_of(
        s::client::with_cookies(prepared, "sid=0123456789abcdef0123456789abcdef0123", cookie_copy));
  });
  measure("5 variables and a cookie", rounds, [&](int i) {
    values.round = static_cast<std::uint64_t>(i);
    const auto& rendered = variables->render(prepared, values, copy);
    return size_of(
        s::client::with_cookies(rendered, "sid=0123456789abcdef0123456789abcdef0123", cookie_copy));
  });
}
