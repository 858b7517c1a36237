// Sitemap / RSS / Atom parsing (sitemap/announce_parser.h). Input: the
// body, fed in two pieces split at a position taken from its first byte
// (so gzip sniffing and expat see split buffers). Invariants beyond "no
// crash, no UB": every entry's loc is an absolute http(s) URL, at most
// max_entries come out, and the summary counts exactly the entries given.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sitemap/announce_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  size_t split = size == 0 ? 0 : (data[0] * size) / 256;
  const std::string url = "http://fuzz.test/dir/sitemap.xml";
  topicrawl::AnnounceLimits limits;
  limits.max_entries = 1000;
  limits.max_bytes = 1 << 20;
  limits.now_ms = 1767225600000;  // 2026-01-01
  size_t entries = 0;
  topicrawl::AnnounceParser parser(url, limits, {}, [&](const topicrawl::AnnouncedEntry& e) {
    ++entries;
    if (e.loc.rfind("http://", 0) != 0 && e.loc.rfind("https://", 0) != 0) std::abort();
  });
  if (parser.Feed(body.substr(0, split))) parser.Feed(body.substr(split));
  const topicrawl::AnnounceSummary& s = parser.Finish();
  if (entries > limits.max_entries || static_cast<int64_t>(entries) != s.entries) std::abort();
  return 0;
}
