#include "search/search_index.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "gtest/gtest.h"
#include "search/page_text.h"
#include "store/crawl_db_reader.h"
#include "support/search_test_util.h"

namespace topicrawl {
namespace {

using testing::TestDoc;

std::vector<TestDoc> Docs() {
  return {
      {"http://net.test/fw", "Firewall configuration",
       "Configure the packet filter firewall with iptables rules; a < b & c.", 0.9},
      {"http://zh.test/fw", "防火墙配置", "本文介绍如何配置防火墙和网络地址转换规则。", 0.8},
      {"http://food.test/soup", "Tomato soup", "Cook the tomatoes slowly, add salt.", 0.1},
      {"http://net.test/missing", "", "", std::nullopt, "http_error", 404},
      {"http://net.test/routers", "Routers and firewalls",
       "Routers forward packets between networks.", 0.3, "ok", 200, 1},
  };
}

class SearchIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTempDir("search");
    ASSERT_TRUE(testing::WriteTestCrawl(dir_, Docs(), 0.5).ok());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::vector<int64_t> Ids(const std::string& q, bool relevant = false,
                           const std::string& host = "") {
    auto index = SearchIndex::Open(dir_);
    EXPECT_TRUE(index.ok()) << index.status().message();
    SearchQuery query;
    query.q = q;
    query.relevant_only = relevant;
    query.host = host;
    auto r = (*index)->Search(query);
    EXPECT_TRUE(r.ok()) << r.status().message();
    std::vector<int64_t> ids;
    if (r.ok()) {
      for (const auto& h : r->hits) ids.push_back(h.id);
    }
    return ids;
  }
  std::string dir_;
};

TEST_F(SearchIndexTest, IndexesOkPagesIncrementally) {
  EXPECT_FALSE(SearchIndex::Open(dir_).ok());  // no index yet: a clear error
  auto first = IndexNewPages(dir_);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->indexed, 4);  // the 404 is not indexed
  EXPECT_EQ(first->last_page_id, 5);
  auto second = IndexNewPages(dir_);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->indexed, 0);
  EXPECT_GT(SearchIndexBytes(dir_), 0);
}

TEST_F(SearchIndexTest, EnglishQueriesAreStemmedAndRankedByBm25) {
  ASSERT_TRUE(IndexNewPages(dir_).ok());
  // "firewalls" finds "firewall" (stemming); the title match ranks first.
  std::vector<int64_t> ids = Ids("firewalls");
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[0], 1);
  EXPECT_EQ(ids[1], 5);
  EXPECT_EQ(Ids("tomato"), std::vector<int64_t>{3});
  EXPECT_TRUE(Ids("nonexistentword").empty());
}

TEST_F(SearchIndexTest, ChineseQueriesOfOneToThreeCharacters) {
  ASSERT_TRUE(IndexNewPages(dir_).ok());
  EXPECT_EQ(Ids("防火墙"), std::vector<int64_t>{2});
  EXPECT_EQ(Ids("防火"), std::vector<int64_t>{2});
  EXPECT_EQ(Ids("墙"), std::vector<int64_t>{2});
  EXPECT_TRUE(Ids("数据库").empty());
}

TEST_F(SearchIndexTest, ChineseHighlightsAreWhole) {
  ASSERT_TRUE(IndexNewPages(dir_).ok());
  auto index = SearchIndex::Open(dir_);
  ASSERT_TRUE(index.ok());
  SearchQuery q;
  q.q = "防火墙";
  auto r = (*index)->Search(q);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->hits.size(), 1u);
  EXPECT_NE(r->hits[0].snippet.find("\x01防火墙\x02"), std::string::npos) << r->hits[0].snippet;
}

TEST_F(SearchIndexTest, Filters) {
  ASSERT_TRUE(IndexNewPages(dir_).ok());
  EXPECT_EQ(Ids("firewall", true), std::vector<int64_t>{1});  // 5 has relevance 0.3 < beta
  EXPECT_EQ(Ids("firewall", false, "net.test").size(), 2u);
  EXPECT_TRUE(Ids("firewall", false, "zh.test").empty());
}

TEST_F(SearchIndexTest, SnippetIsPlainTextWithMarkers) {
  ASSERT_TRUE(IndexNewPages(dir_).ok());
  auto index = SearchIndex::Open(dir_);
  ASSERT_TRUE(index.ok());
  SearchQuery q;
  q.q = "iptables";
  auto r = (*index)->Search(q);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->hits.size(), 1u);
  const std::string& s = r->hits[0].snippet;
  EXPECT_NE(s.find("\x01iptables\x02"), std::string::npos) << s;
  EXPECT_NE(s.find("a < b & c"), std::string::npos) << s;  // not HTML-escaped
  EXPECT_EQ(r->hits[0].url, "http://net.test/fw");
  EXPECT_EQ(r->hits[0].title, "Firewall configuration");
}

TEST_F(SearchIndexTest, NoPositionsByDefaultPhraseQueriesStillAnswer) {
  ASSERT_TRUE(IndexNewPages(dir_).ok());
  {
    auto index = SearchIndex::Open(dir_);
    ASSERT_TRUE(index.ok());
  }
  // Without positions a phrase degrades to AND (both words, any order).
  EXPECT_EQ(Ids("\"packet filter\""), std::vector<int64_t>{1});
  EXPECT_EQ(Ids("\"filter packet\""), std::vector<int64_t>{1});
  EXPECT_TRUE(Ids("\"tomato firewall\"").empty());
}

TEST_F(SearchIndexTest, PositionsOnRequestMakePhrasesExact) {
  IndexOptions options;
  options.positions = true;
  ASSERT_TRUE(IndexNewPages(dir_, options).ok());
  EXPECT_EQ(Ids("\"packet filter\""), std::vector<int64_t>{1});
  EXPECT_TRUE(Ids("\"filter packet\"").empty());
  EXPECT_EQ(Ids("防火墙"), std::vector<int64_t>{2});
  // Fixed at creation: a later call without the option keeps positions.
  ASSERT_TRUE(IndexNewPages(dir_).ok());
  EXPECT_TRUE(Ids("\"filter packet\"").empty());
}

TEST_F(SearchIndexTest, CompactionKeepsPageIdsAndOpenReadersFollow) {
  ASSERT_TRUE(IndexNewPages(dir_).ok());
  auto index = SearchIndex::Open(dir_);
  ASSERT_TRUE(index.ok());
  SearchQuery q;
  q.q = "firewall";
  ASSERT_EQ((*index)->Search(q)->hits.size(), 2u);
  ASSERT_TRUE(CompactSearchIndex(dir_).ok());
  EXPECT_FALSE(std::filesystem::exists(SearchIndexPath(dir_) + ".old"));
  EXPECT_FALSE(std::filesystem::exists(SearchIndexPath(dir_) + ".compact"));
  auto r = (*index)->Search(q);  // the reader opened before the swap
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->hits.size(), 2u);
  EXPECT_EQ(r->hits[0].id, 1);
  EXPECT_EQ(r->hits[1].id, 5);
  EXPECT_EQ(Ids("防火墙"), std::vector<int64_t>{2});
  // Still incremental after compaction: nothing new, nothing re-added.
  auto again = IndexNewPages(dir_);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->indexed, 0);
  EXPECT_EQ((*index)->doc_count(), 4);
}

// `crawl --serve --index`: the live indexer thread indexes while API threads
// search. Xapian handles are not thread-safe, not even their reference
// counts: a stemmer shared by both (one static Xapian::Stem, copied into the
// TermGenerator, the QueryParser and the snippet) was freed under one of
// them and crashed a crawl in CI (general protection fault in tr-index).
// Both sides run here at once, many times; ASan (scripts/test) reports a
// use-after-free, a plain build crashes or corrupts the results.
TEST_F(SearchIndexTest, IndexingAndSearchingInTwoThreadsAtOnce) {
  ASSERT_TRUE(IndexNewPages(dir_).ok());
  auto index = SearchIndex::Open(dir_);
  ASSERT_TRUE(index.ok());
  std::atomic<bool> done{false};
  std::atomic<int> index_errors{0};
  std::thread indexer([&] {
    while (!done) {
      if (!IndexNewPages(dir_).ok()) ++index_errors;
    }
  });
  SearchQuery q;
  q.q = "firewalls";  // stemmed: matches "firewall" and "firewalls"
  int searches = 0, wrong = 0;
  std::string first_wrong;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(4);
  while (std::chrono::steady_clock::now() < until || searches < 200) {
    auto r = (*index)->Search(q);
    const bool bad = !r.ok() || r->hits.size() != 2u || r->hits[0].snippet.empty();
    if (bad && first_wrong.empty()) {
      first_wrong = !r.ok() ? r.status().message()
                            : std::to_string(r->hits.size()) + " hits, snippet \"" +
                                  (r->hits.empty() ? "" : r->hits[0].snippet) + "\"";
    }
    wrong += bad;
    ++searches;
  }
  done = true;
  indexer.join();
  EXPECT_EQ(wrong, 0) << "of " << searches << " searches; the first: " << first_wrong;
  EXPECT_EQ(index_errors, 0);
}

TEST(PageTextTest, RefusesEscapingWarcNames) {
  EXPECT_FALSE(ReadStoredPageText("/tmp", "../etc/passwd", 0, "", "http://x/").ok());
  EXPECT_FALSE(ReadStoredPageText("/tmp", "/etc/passwd", 0, "", "http://x/").ok());
  EXPECT_FALSE(ReadStoredPageText("/tmp", "", 0, "", "http://x/").ok());
}

TEST(CrawlDbReaderTest, MissingCrawlIsAnError) {
  EXPECT_FALSE(CrawlDbReader::Open("/nonexistent/dir").ok());
}

}  // namespace
}  // namespace topicrawl
