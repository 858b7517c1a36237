// Test helper: a small finished crawl directory written through CrawlStore
// (pages with WARC response records), for the search and server tests.
#ifndef TOPICRAWL_TESTS_SUPPORT_SEARCH_TEST_UTIL_H_
#define TOPICRAWL_TESTS_SUPPORT_SEARCH_TEST_UTIL_H_

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl::testing {

struct TestDoc {
  std::string url;
  std::string title;
  std::string body_text;
  std::optional<double> relevance;
  std::string status = "ok";  // FetchStatus name
  int http_code = 200;
  int64_t parent = 0;         // page id of the discovering page (0 = seed)
  std::string explanation = "{\"why\":\"test\"}";
};

// Creates `dir` (must not exist) with meta beta = `beta`, one page per doc
// (ids 1..n in order), links from each page to the next, then closes it.
Status WriteTestCrawl(const std::string& dir, const std::vector<TestDoc>& docs, double beta);
std::string FreshTempDir(const std::string& name);

}  // namespace topicrawl::testing

#endif  // TOPICRAWL_TESTS_SUPPORT_SEARCH_TEST_UTIL_H_
