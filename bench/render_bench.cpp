// The cost of a user's request copies: variables rendered (RequestTemplate) and cookies added
// (with_cookies), and of captures taken from responses (CompiledCapture), in nanoseconds and heap
// allocations per request. Run by bench/render.sh.
// The operators new and delete below replace the global ones, malloc underneath; GCC 12 sees
// them inlined into the standard allocator and takes the pair for a mismatch.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "server/request_template.hpp"
#include "server/session/capture.hpp"

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

/// A CSV row's two columns and a captured token, encoded for the URL and the header.
void measure_rows_and_captured(int rounds) {
  namespace s = stampede;
  s::model::Request request;
  request.origin.host = "api.example.com";
  request.keep_alive = true;
  request.target = "/users/${csv:id}?name=${csv:name}";
  request.headers = {{"Authorization", "Bearer ${token}"}};
  const auto prepared = s::client::prepare(request, s::model::Protocol::http1);
  const std::vector<std::string> captured{"token"};
  const std::vector<std::string> columns{"id", "name"};
  const auto variables = s::server::RequestTemplate::of(prepared, {captured, columns});
  s::session::UserValues values(7);
  const std::vector<std::string> row{"100042", "Jane Doe"};
  values.row = &row;
  values.captured = {"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl"};
  s::client::RequestCopy copy;
  measure("2 CSV columns and a captured token", rounds,
          [&](int) { return size_of(variables->render(prepared, values, copy)); });
}

/// Captures taken from typical responses: a login's JSON, a form's CSRF field, a header.
void measure_captures(int rounds) {
  namespace s = stampede;
  using s::model::CaptureSource;
  s::model::Response login;
  login.body = R"({"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl",)"
               R"("token_type":"Bearer","expires_in":3600,"user":{"id":42,"name":"Jane Doe",)"
               R"("roles":["reader","writer"],"email":"jane@example.com"}})";
  s::model::Response page;
  page.body = "<html><head><title>Checkout</title></head><body>" + std::string(1800, ' ') +
              R"(<form><input name="csrf" value="5f2b8c0d9e7a4b1c"></form></body></html>)";
  page.headers = {{"location", "/orders/100042"}};
  std::string value;
  const s::session::CompiledCapture json({"t", CaptureSource::json, "/access_token", ""}, 0);
  const s::session::CompiledCapture form(
      {"c", CaptureSource::body, "", R"re(name="csrf" value="([^"]+)")re"}, 0);
  const s::session::CompiledCapture header(
      {"o", CaptureSource::header, "location", R"(/orders/(\d+))"}, 0);
  measure("capture: json /access_token (a 250-byte body)", rounds / 10, [&](int) {
    (void)json.extract(login, value);
    return value.size();
  });
  measure("capture: body regex (a 2 KB page)", rounds / 10, [&](int) {
    (void)form.extract(page, value);
    return value.size();
  });
  measure("capture: header regex", rounds / 10, [&](int) {
    (void)header.extract(page, value);
    return value.size();
  });
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
  measure_rows_and_captured(rounds);
  measure_captures(rounds);
}
