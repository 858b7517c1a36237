// URL parse / resolve / canonicalize. Input: "base\nhref" (no newline: the
// whole input is the href against a fixed base).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "url/url.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string_view base = "http://fuzz.test/dir/page.html?q=1";
  std::string_view href = in;
  if (size_t nl = in.find('\n'); nl != std::string_view::npos) {
    base = in.substr(0, nl);
    href = in.substr(nl + 1);
  }
  topicrawl::ParseUrl(href, base);
  topicrawl::ParseUrl(href);
  topicrawl::CanonicalizeUrl(href);
  topicrawl::UrlHostPort(href);
  if (auto resolved = topicrawl::ResolveLink(base, href)) {
    // A resolved link is canonical: resolving it again is the identity.
    auto again = topicrawl::ResolveLink("", *resolved);
    if (!again || *again != *resolved) __builtin_trap();
  }
  return 0;
}
