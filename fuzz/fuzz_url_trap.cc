// URL-trap patterns on arbitrary URLs.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "crawl/url_trap.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view url(reinterpret_cast<const char*>(data), size);
  topicrawl::UrlPattern(url);
  topicrawl::CountQueryParams(url);
  topicrawl::UrlTrapOptions options;
  options.max_urls_per_pattern = 2;
  topicrawl::UrlTrapGuard guard(options);
  guard.Check(url);
  guard.Restore(url);
  guard.Admit(url);
  guard.Admit(url);
  guard.NotQueuedByPattern();
  guard.TakeNewlySpent();
  return 0;
}
