// --print-request: what each step would send, printed instead of sent.
#include <cstdio>

#include "cmd/run_config.hpp"
#include "server/client/prepared_request.hpp"

namespace stampede::cmd {

void print_requests(const RunConfig& config) {
  const auto count = config.steps.size();
  for (std::size_t i = 0; i < count; ++i) {
    if (count > 1) std::printf("--- step %zu of %zu\n", i + 1, count);
    const auto& step = config.steps[i];
    const auto protocol = model::protocol_of(step);
    if (protocol == model::Protocol::http2) {
      std::fprintf(
          stderr, "stampede: note: step %zu goes as HTTP/2: its header list follows%s\n", i + 1,
          step.origin.secure() ? " (the HTTP/1.1 form goes if the server picks http/1.1 by ALPN)"
                               : "");
    }
    const auto text = client::printable(client::prepare(step, protocol));
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (count > 1) std::fputc('\n', stdout);
  }
}

}  // namespace stampede::cmd
