#include "eval/crawl_reader.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>

#include "support/fake_crawl_db.h"

namespace topicrawl::eval {
namespace {

using testing::FakePage;

TEST(CrawlReaderTest, ReadsOkPagesInIdOrderAndMeta) {
  std::string dir = testing::MakeTempDir("reader");
  FakePage a{"http://a.org/1.html", "ok", 0.5, 1000};
  FakePage b{"http://a.org/2.html", "http_404", std::nullopt, 1100};
  FakePage c{"http://a.org/3.html", "ok", std::nullopt, 1200, "http://a.org/3b.html"};
  testing::WriteFakeCrawl(dir, {a, b, c},
                          {{"started_at", "900"}, {"beta", "0.7"}, {"strategy", "wl"}});
  StatusOr<CrawlRecord> crawl = ReadCrawl(dir);
  ASSERT_TRUE(crawl.ok()) << crawl.status().message();
  ASSERT_EQ(crawl->pages.size(), 2u);
  EXPECT_EQ(crawl->failed_rows, 1);
  EXPECT_EQ(crawl->pages[0].id, 1);
  EXPECT_EQ(crawl->pages[0].EffectiveUrl(), "http://a.org/1.html");
  EXPECT_EQ(crawl->pages[0].relevance, std::optional<double>(0.5));
  EXPECT_EQ(crawl->pages[1].id, 3);
  EXPECT_EQ(crawl->pages[1].relevance, std::nullopt);
  EXPECT_EQ(crawl->pages[1].EffectiveUrl(), "http://a.org/3b.html");
  EXPECT_EQ(crawl->pages[1].fetched_at_ms, std::optional<int64_t>(1200));
  EXPECT_EQ(crawl->MetaInt("started_at"), std::optional<int64_t>(900));
  EXPECT_EQ(crawl->MetaDouble("beta"), std::optional<double>(0.7));
  EXPECT_EQ(crawl->MetaInt("strategy"), std::nullopt);
  EXPECT_EQ(crawl->MetaInt("finished_at"), std::nullopt);
  // The database file itself may be named too.
  EXPECT_TRUE(ReadCrawl(dir + "/crawl.db").ok());
}

// Schema 6: URL-trap refusals are frontier_state rows with a reason, not
// pages rows; they count as failed rows.
TEST(CrawlReaderTest, CountsRefusalsWithoutPagesRowsAsFailedRows) {
  std::string dir = testing::MakeTempDir("reader_refusals");
  testing::WriteFakeCrawl(dir, {{"http://a.org/1.html", "ok", 0.5, 1000}}, {});
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir + "/crawl.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE TABLE frontier_state(url_id INTEGER, state INTEGER, "
                         "page_id INTEGER, reason INTEGER);"
                         "INSERT INTO frontier_state VALUES (1, 1, 1, NULL), (2, 1, NULL, 1), "
                         "(3, 1, NULL, 2)",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  StatusOr<CrawlRecord> crawl = ReadCrawl(dir);
  ASSERT_TRUE(crawl.ok()) << crawl.status().message();
  EXPECT_EQ(crawl->pages.size(), 1u);
  EXPECT_EQ(crawl->failed_rows, 2);
}

TEST(CrawlReaderTest, MissingDatabaseIsAnErrorNamingThePath) {
  std::string dir = testing::MakeTempDir("reader_missing");
  StatusOr<CrawlRecord> crawl = ReadCrawl(dir);
  ASSERT_FALSE(crawl.ok());
  EXPECT_NE(crawl.status().message().find("crawl.db"), std::string::npos);
}

TEST(CrawlReaderTest, NotADatabaseIsAnError) {
  std::string dir = testing::MakeTempDir("reader_garbage");
  std::ofstream(dir + "/crawl.db") << "this is not sqlite";
  EXPECT_FALSE(ReadCrawl(dir).ok());
}

}  // namespace
}  // namespace topicrawl::eval
