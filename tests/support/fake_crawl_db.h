// Test helper: writes crawl directories with the store schema of
// docs/ARCHITECTURE.md, so eval is tested without the crawler.
#ifndef TOPICRAWL_TESTS_SUPPORT_FAKE_CRAWL_DB_H_
#define TOPICRAWL_TESTS_SUPPORT_FAKE_CRAWL_DB_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace topicrawl::eval::testing {

struct FakePage {
  FakePage(std::string u, std::string s, std::optional<double> r,
           std::optional<int64_t> at, std::string final = "")
      : url(std::move(u)), status(std::move(s)), relevance(r), fetched_at_ms(at),
        final_url(std::move(final)) {}
  std::string url;
  std::string status = "ok";
  std::optional<double> relevance;
  std::optional<int64_t> fetched_at_ms;
  std::string final_url;  // empty: NULL
};

// Creates `dir` (and parents) and `dir/crawl.db` with the full schema, the
// given pages (ids 1..n in order) and meta rows. Aborts the test on failure.
void WriteFakeCrawl(const std::string& dir, const std::vector<FakePage>& pages,
                    const std::map<std::string, std::string>& meta);

// A fresh, empty temporary directory for one test.
std::string MakeTempDir(const std::string& name);

}  // namespace topicrawl::eval::testing

#endif  // TOPICRAWL_TESTS_SUPPORT_FAKE_CRAWL_DB_H_
