// HTML parser + link extraction on arbitrary bytes (as UTF-8 text).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parse/html_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view html(reinterpret_cast<const char*>(data), size);
  topicrawl::ParseOptions options;
  options.time_budget_s = 5;
  topicrawl::ParsedPage page = topicrawl::ParseHtml(html, "http://fuzz.test/a/b.html", options);
  for (const auto& link : page.links) {
    // Every extracted URL is empty or absolute http(s).
    if (!link.url.empty() && link.url.rfind("http://", 0) != 0 &&
        link.url.rfind("https://", 0) != 0) {
      __builtin_trap();
    }
  }
  return 0;
}
