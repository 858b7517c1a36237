// robots.txt parsing and matching. Input: "url\nbody".
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "robots/robots_rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string_view url = "http://fuzz.test/a/b?c=d";
  std::string_view body = in;
  if (size_t nl = in.find('\n'); nl != std::string_view::npos && nl < 200) {
    url = in.substr(0, nl);
    body = in.substr(nl + 1);
  }
  topicrawl::RobotsRules rules = topicrawl::RobotsRules::Parse(body);
  rules.Allowed("topicrawl", url);
  rules.Allowed("*", url);
  rules.CrawlDelay("topicrawl");
  topicrawl::RobotsMatchPath(url);
  return 0;
}
