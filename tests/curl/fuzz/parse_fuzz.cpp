// libFuzzer target for curl::parse_text and, for text that opens with `{`, parse_har_text: any
// bytes either parse or throw their one-line error (ParseError, HarError), nothing else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "curl/har.hpp"
#include "curl/parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    if (text.starts_with('{')) {
      (void)stampede::curl::parse_har_text(text, "fuzz.har", {"", ""});
    } else {
      // Relative @files are looked for in the samples' folder (fuzz.sh runs from the repo root).
      (void)stampede::curl::parse_text(text, "fuzz.curl.txt", "tests/curl/samples");
    }
  } catch (const stampede::curl::ParseError&) {
    // A located, one-line error is a correct answer to bad input.
  } catch (const stampede::curl::HarError&) {
  }
  return 0;
}
