#include "strategies/tda/topichub_seeds.h"

#include <gtest/gtest.h>

#include <set>

#include "store/crawl_store.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using testing::MakeTempDir;
using testing::MakeTestPage;
using testing::RemoveTree;
using testing::TestPageUrl;

// Pages 1..8 of MakeTestPage with 3 links each: page 7 is robots-denied
// (no links), the others link to 3 pages of their own; hosts h0..h4.
TEST(TopicHubSeedsTest, CountsTheCrawlsPagesLinksAndSitesAndPicksCrawledSeeds) {
  const std::string dir = MakeTempDir();
  {
    auto store = CrawlStore::Open(dir + "/crawl", OpenMode::kCreate);
    ASSERT_TRUE(store.ok());
    for (int k = 1; k <= 8; ++k) ASSERT_TRUE((*store)->AddPage(MakeTestPage(k, 3)).ok());
    ASSERT_TRUE((*store)->Close().ok());
  }
  auto hub = CrawlTopicHubSeeds(dir + "/crawl", 0.5, 2);
  ASSERT_TRUE(hub.ok()) << hub.status().message();
  EXPECT_EQ(hub->crawled, 7u);
  EXPECT_EQ(hub->pages, 7u + 7 * 3);
  EXPECT_EQ(hub->links, 7u * 3);
  EXPECT_EQ(hub->sites, 5u);
  ASSERT_EQ(hub->urls.size(), hub->pages);
  EXPECT_EQ(hub->urls[0], TestPageUrl(1));  // crawled pages first, in id order
  EXPECT_LE(hub->result.seeds.size(), 2u);
  std::set<std::string> crawled;
  for (int k : {1, 2, 3, 4, 5, 6, 8}) crawled.insert(TestPageUrl(k));
  for (const ThubPage& t : hub->result.seeds) EXPECT_TRUE(crawled.count(hub->urls[t.page])) << t.page;

  const std::string text = FormatTopicHubSeeds(*hub);
  EXPECT_EQ(text.rfind("pages 28 (7 crawled), links 21, sites 5; SiteRank ", 0), 0u) << text;
  EXPECT_NE(text.find("\nweight     TSI      I(p)     url\n"), std::string::npos) << text;
  RemoveTree(dir);
}

TEST(TopicHubSeedsTest, ADirectoryWithoutACrawlIsAnError) {
  const std::string dir = MakeTempDir();
  auto hub = CrawlTopicHubSeeds(dir + "/none", 0.5, 20);
  EXPECT_FALSE(hub.ok());
  RemoveTree(dir);
}

}  // namespace
}  // namespace topicrawl
