#include "eval/failure_breakdown.h"

#include <sqlite3.h>

#include <filesystem>

#include "core/hash.h"
#include "gtest/gtest.h"
#include "store/crawl_store.h"
#include "support/search_test_util.h"

namespace topicrawl::eval {
namespace {

using topicrawl::testing::TestDoc;

class FailureBreakdownTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = topicrawl::testing::FreshTempDir("failures");
    std::vector<TestDoc> docs = {
        {"http://net.test/", "home", "text", 0.9},
        {"http://net.test/missing", "", "", std::nullopt, "http_error", 404},
        {"https://out.test/a", "", "", std::nullopt, "robots_denied", 0},
        {"https://out.test/b", "", "", std::nullopt, "robots_denied", 0},
        {"http://net.test/private", "", "", std::nullopt, "robots_denied", 0},
        {"http://far.test/", "", "", std::nullopt, "timeout", 0},
    };
    ASSERT_TRUE(topicrawl::testing::WriteTestCrawl(dir_, docs, 0.5).ok());
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ + "/crawl.db").c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "INSERT INTO events(at, kind, detail) VALUES "
                           "(1, 'robots', 'https://out.test tls_error 0'), "
                           "(2, 'robots', 'http://net.test ok 200')",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

const FailureCause* Find(const FailureBreakdown& b, const std::string& cause) {
  for (const auto& c : b.causes) {
    if (c.cause == cause) return &c;
  }
  return nullptr;
}

TEST_F(FailureBreakdownTest, CausesAndHostsOutsideTheWeb) {
  auto b = ReadFailureBreakdown(dir_, {":80:127.0.0.1:1"});  // wildcard: web = hosts that served
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->failed, 5);
  EXPECT_TRUE(b->web_from_pages);
  const FailureCause* robots = Find(*b, "robots.txt unreachable (tls_error)");
  ASSERT_NE(robots, nullptr);
  EXPECT_EQ(robots->pages, 2);
  EXPECT_EQ(robots->outside_pages, 2);
  EXPECT_EQ(robots->hosts, 1);
  ASSERT_NE(Find(*b, "robots.txt disallows"), nullptr);
  EXPECT_EQ(Find(*b, "robots.txt disallows")->outside_pages, 0);
  ASSERT_NE(Find(*b, "HTTP 4xx"), nullptr);
  EXPECT_EQ(Find(*b, "HTTP 4xx")->outside_pages, 0);
  ASSERT_NE(Find(*b, "timeout"), nullptr);
  EXPECT_EQ(Find(*b, "timeout")->outside_pages, 1);
  EXPECT_EQ(b->causes[0].cause, "robots.txt unreachable (tls_error)");  // most pages first
  EXPECT_EQ(b->outside, 3);
  EXPECT_EQ(b->outside_hosts, 2);
  const std::string text = FailureBreakdownText(*b);
  EXPECT_NE(text.find("2  robots.txt unreachable (tls_error) on 1 host, all outside the crawl's web"),
            std::string::npos)
      << text;
}

TEST_F(FailureBreakdownTest, ConnectToNamesTheWeb) {
  auto b = ReadFailureBreakdown(dir_, {"net.test:80:127.0.0.1:1", "far.test:80:127.0.0.1:1"});
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(b->web_from_pages);
  EXPECT_EQ(b->outside, 2);  // out.test only
  EXPECT_EQ(Find(*b, "timeout")->outside_pages, 0);
}

TEST(FailureBreakdownErrors, MissingCrawl) {
  EXPECT_FALSE(ReadFailureBreakdown("/nonexistent/crawl", {}).ok());
}

// Schema 6 keeps URL-trap refusals out of pages (the refusals view): they
// still count, as their own cause.
TEST_F(FailureBreakdownTest, TrapRefusalsWithoutPagesRowsCount) {
  {
    auto store = CrawlStore::Open(dir_, OpenMode::kResume);
    ASSERT_TRUE(store.ok()) << store.status().message();
    std::vector<FrontierRecord> seeds;
    for (const char* url : {"http://net.test/cal/1", "http://net.test/cal/2"}) {
      seeds.push_back({Hash64(url), url, 1, 0, "", 0.5, "", 0});
    }
    ASSERT_TRUE((*store)->AddSeeds(seeds).ok());
    for (const FrontierRecord& seed : seeds) {
      PageRecord r;
      r.url = seed.url;
      r.url_id = seed.url_id;
      r.status = FetchStatus::kTrapRefused;
      r.error = "url trap: more than 1 URLs of pattern net.test/cal/# (max_urls_per_pattern)";
      ASSERT_TRUE((*store)->KeepsAsRefusal(r));
      ASSERT_TRUE((*store)->AddPage(std::move(r)).ok());
    }
    ASSERT_TRUE((*store)->Close().ok());
  }
  auto b = ReadFailureBreakdown(dir_, {":80:127.0.0.1:1"});
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->failed, 7);
  ASSERT_NE(Find(*b, "trap_refused"), nullptr);
  EXPECT_EQ(Find(*b, "trap_refused")->pages, 2);
  EXPECT_EQ(Find(*b, "trap_refused")->hosts, 1);
  // The crawl's summary counts them without finding their URLs.
  auto quick = ReadFailureBreakdown(dir_, {":80:127.0.0.1:1"}, /*refusal_hosts=*/false);
  ASSERT_TRUE(quick.ok()) << quick.status().message();
  EXPECT_EQ(quick->failed, 7);
  ASSERT_NE(Find(*quick, "trap_refused"), nullptr);
  EXPECT_EQ(Find(*quick, "trap_refused")->pages, 2);
  EXPECT_EQ(Find(*quick, "trap_refused")->hosts, -1);
  EXPECT_NE(FailureBreakdownText(*quick).find("2  trap_refused (hosts: topicrawl eval)"),
            std::string::npos)
      << FailureBreakdownText(*quick);
}

}  // namespace
}  // namespace topicrawl::eval
