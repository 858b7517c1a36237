// Schema 6's refusals: a URL-trap refusal is a reason id on its
// frontier_state row (reasons interned in refusal_reasons), read back
// through the `refusals` view, without a pages row or a page id; schema 5
// directories keep refusals as pages rows.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/hash.h"
#include "store/crawl_store.h"
#include "support/crawl_store_test_fixture.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using store_test::CrawlStoreTest;
using store_test::Reader;

constexpr char kTrapWhy[] =
    "url trap: more than 2 URLs of pattern a.test/cal/# (max_urls_per_pattern)";

std::string CalUrl(int k) { return "http://a.test/cal/" + std::to_string(k); }

// Page 1 (http://a.test/) admitting /cal/1../cal/4 (cut URLs in the log).
PageRecord Home() {
  PageRecord p = testing::MakeTestPage(1, 0, 0);
  p.url = "http://a.test/";
  p.url_id = Hash64(p.url);
  p.status = FetchStatus::kOk;
  for (int k = 1; k <= 4; ++k) {
    p.admitted.push_back({Hash64(CalUrl(k)), CalUrl(k), 1, 1, "cal " + std::to_string(k),
                          0.125 * k, "", 0});
  }
  return p;
}

PageRecord Refused(int k, FetchStatus status, const std::string& why) {
  PageRecord p;
  p.url = CalUrl(k);
  p.url_id = Hash64(p.url);
  p.status = status;
  p.error = why;
  p.fetched_at = 1'700'000'000'000 + k;
  p.depth = 1;
  p.parent_id = 1;
  p.anchor = "cal " + std::to_string(k);
  p.link_score = 0.125 * k;
  return p;
}

TEST_F(CrawlStoreTest, TrapRefusalsAreReasonsOnTheirStateRowsNotPagesRows) {
  auto store = OpenOrDie(OpenMode::kCreate);
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schema_version(), 7);
  EXPECT_EQ(store->AddPage(Home()).value(), 1);
  for (int k = 1; k <= 2; ++k) {
    PageRecord r = Refused(k, FetchStatus::kTrapRefused, kTrapWhy);
    EXPECT_TRUE(store->KeepsAsRefusal(r));
    EXPECT_EQ(store->AddPage(std::move(r)).value(), 0) << k;
  }
  // Robots denials stay pages rows and take the next id.
  PageRecord denied = Refused(3, FetchStatus::kRobotsDenied, "disallowed by robots.txt");
  EXPECT_FALSE(store->KeepsAsRefusal(denied));
  EXPECT_EQ(store->AddPage(std::move(denied)).value(), 2);
  EXPECT_EQ(store->AddPage(Refused(4, FetchStatus::kTrapRefused, "url trap: other")).value(), 0);
  ASSERT_TRUE(store->Close().ok());

  Reader r(dir_);
  EXPECT_EQ(r.Rows("SELECT id, status FROM pages ORDER BY id"),
            (std::vector<std::string>{"1|ok", "2|robots_denied"}));
  // One row a distinct reason, in first-use order.
  EXPECT_EQ(r.Rows("SELECT id, status, error FROM refusal_reasons ORDER BY id"),
            (std::vector<std::string>{std::string("1|trap_refused|") + kTrapWhy,
                                      "2|trap_refused|url trap: other"}));
  // The view gives every refused URL whole, with its reason and fetch time.
  EXPECT_EQ(r.Rows("SELECT url, status, error, at, round, depth, parent_id, anchor, score "
                   "FROM refusals ORDER BY url"),
            (std::vector<std::string>{
                CalUrl(1) + "|trap_refused|" + kTrapWhy + "|1700000000001|0|1|1|cal 1|0.125",
                CalUrl(2) + "|trap_refused|" + kTrapWhy + "|1700000000002|0|1|1|cal 2|0.25",
                CalUrl(4) + "|trap_refused|url trap: other|1700000000004|0|1|1|cal 4|0.5"}));
  // Other state rows leave the refusal columns NULL.
  EXPECT_EQ(r.One("SELECT count(*) FROM frontier_state WHERE reason IS NULL AND at IS NULL "
                  "AND round IS NULL"),
            "2");
  EXPECT_EQ(r.One("SELECT count(*) FROM frontier WHERE state = 1"), "5");
  // Nothing was fetched: no fetches rows but the page's and the denial's.
  EXPECT_EQ(r.One("SELECT group_concat(page_id) FROM (SELECT page_id FROM fetches ORDER BY 1)"),
            "1,2");
  ExpectConsistent();

  // Resume: the refusals are done frontier rows and count among the fates;
  // ids go on after the last pages row; new reasons get new ids.
  store = OpenOrDie(OpenMode::kResume);
  ASSERT_TRUE(store);
  std::vector<std::string> done;
  ASSERT_TRUE(store
                  ->LoadFrontier([&](const FrontierRecord& f) {
                    if (f.state == 1) done.push_back(f.url);
                    return true;
                  })
                  .ok());
  std::sort(done.begin(), done.end());
  EXPECT_EQ(done, (std::vector<std::string>{"http://a.test/", CalUrl(1), CalUrl(2), CalUrl(3),
                                            CalUrl(4)}));
  StatusOr<PageStats> stats = store->LoadPageStats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->pages, 5);
  EXPECT_EQ(stats->refusals, 3);
  EXPECT_EQ(stats->ok_pages, 1);
  EXPECT_EQ(stats->max_page_id, 2);
  EXPECT_EQ(stats->by_status["trap_refused"], 3);
  PageRecord again = Refused(5, FetchStatus::kTrapRefused, kTrapWhy);
  again.parent_id = 0;  // not admitted by a stored page: a whole URL
  ASSERT_TRUE(store->AddSeeds({{again.url_id, again.url, 0, 0, "", 1.0, "", 0}}).ok());
  EXPECT_EQ(store->AddPage(std::move(again)).value(), 0);
  EXPECT_EQ(store->AddPage(Refused(6, FetchStatus::kTrapRefused, "url trap: third")).value(), 0);
  EXPECT_EQ(store->AddPage(testing::MakeTestPage(3, 0, 0)).value(), 3);
  ASSERT_TRUE(store->Close().ok());
  EXPECT_EQ(r.One("SELECT group_concat(id) FROM refusal_reasons"), "1,2,3");
  EXPECT_EQ(r.One("SELECT count(*) FROM refusals WHERE error = '" + std::string(kTrapWhy) + "'"),
            "3");
  EXPECT_EQ(r.One("SELECT url FROM refusals WHERE url_id = " +
                  std::to_string(static_cast<int64_t>(Hash64(CalUrl(5))))),
            CalUrl(5));
  // /cal/6 was never admitted: its reason is stored, the view has no URL
  // to give (the crawler refuses only URLs it admitted).
  EXPECT_EQ(r.One("SELECT count(*) FROM frontier_state WHERE reason = 3"), "1");
}

// A schema 5 directory resumes in its own layout: a refusal is a pages row.
TEST_F(CrawlStoreTest, ResumesASchema5DirectoryWithRefusalsAsPagesRows) {
  {
    auto store = OpenOrDie(OpenMode::kCreate);
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->AddPage(Home()).ok());
    ASSERT_TRUE(store->AddPage(Refused(1, FetchStatus::kTrapRefused, kTrapWhy)).ok());
    ASSERT_TRUE(store->Close().ok());
  }
  ASSERT_TRUE(testing::ConvertToSchema5(dir_).ok());
  Reader r(dir_);
  EXPECT_EQ(r.One("SELECT count(*) FROM sqlite_master WHERE name = 'refusal_reasons'"), "0");
  EXPECT_EQ(r.Rows("SELECT id, url, status, error FROM pages ORDER BY id"),
            (std::vector<std::string>{"1|http://a.test/|ok|",
                                      "2|" + CalUrl(1) + "|trap_refused|" + kTrapWhy}));
  EXPECT_EQ(r.One("SELECT page_id FROM frontier_state WHERE url_id = " +
                  std::to_string(static_cast<int64_t>(Hash64(CalUrl(1))))),
            "2");
  auto store = OpenOrDie(OpenMode::kResume);
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schema_version(), 5);
  PageRecord refused = Refused(2, FetchStatus::kTrapRefused, kTrapWhy);
  EXPECT_FALSE(store->KeepsAsRefusal(refused));
  EXPECT_EQ(store->AddPage(std::move(refused)).value(), 3);
  StatusOr<PageStats> stats = store->LoadPageStats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->pages, 3);
  EXPECT_EQ(stats->refusals, 0);
  ASSERT_TRUE(store->Close().ok());
  EXPECT_EQ(r.One("SELECT count(*) FROM pages WHERE status = 'trap_refused'"), "2");
  EXPECT_EQ(r.One("SELECT count(*) FROM frontier WHERE state = 1"), "3");
  ExpectConsistent();
}

}  // namespace
}  // namespace topicrawl
