#include "store/announce_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace topicrawl {
namespace {

namespace fs = std::filesystem;

class AnnounceStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/announce_store-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
           std::to_string(getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Sql(const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ + "/crawl.db").c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << err;
    sqlite3_free(err);
    sqlite3_close(db);
  }
  std::string dir_;
};

// A crawl whose announcements table predates the title and document
// columns gets them (empty) and is written and read as a new one.
TEST_F(AnnounceStoreTest, OlderAnnouncementsTableGetsTitleAndDocument) {
  Sql("CREATE TABLE announcements(round INTEGER NOT NULL, url TEXT NOT NULL, "
      "host TEXT NOT NULL, source INTEGER NOT NULL, lastmod INTEGER NOT NULL, "
      "published INTEGER NOT NULL, changefreq INTEGER NOT NULL, priority REAL NOT NULL, "
      "PRIMARY KEY(round, url)) WITHOUT ROWID;"
      "INSERT INTO announcements VALUES(0, 'http://a.test/old', 'a.test', 1, 5, 0, 0, -1);");
  auto store = AnnounceStore::Open(dir_);
  ASSERT_TRUE(store.ok()) << store.status().message();
  AnnouncementRow row;
  row.url = "http://a.test/new";
  row.host = "a.test";
  row.source = 2;
  row.title = "TCP tuning";
  row.document = "http://a.test/feed.atom";
  ASSERT_TRUE((*store)->WriteRound(1, {row}, {}).ok());
  std::vector<AnnouncementRow> rows;
  ASSERT_TRUE((*store)
                  ->ForEachAnnouncement(-1, [&](int, const AnnouncementRow& a) {
                    rows.push_back(a);
                    return true;
                  })
                  .ok());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].url, "http://a.test/old");
  EXPECT_EQ(rows[0].lastmod_ms, 5);
  EXPECT_EQ(rows[0].title, "");
  EXPECT_EQ(rows[0].document, "");
  EXPECT_EQ(rows[1].title, "TCP tuning");
  EXPECT_EQ(rows[1].document, "http://a.test/feed.atom");
  // Opening again does not add the columns twice.
  EXPECT_TRUE(AnnounceStore::Open(dir_).ok());
}

// A round's queue of announced new URLs keeps the plan's order; writing a
// round again replaces it; other rounds are untouched.
TEST_F(AnnounceStoreTest, QueueKeepsThePlansOrderPerRound) {
  Sql("CREATE TABLE meta(key TEXT)");
  auto store = AnnounceStore::Open(dir_);
  ASSERT_TRUE(store.ok()) << store.status().message();
  ASSERT_TRUE((*store)
                  ->WriteQueue(1, {{"http://a.test/z", "", "http://a.test/s.xml", 500},
                                   {"http://a.test/a", "A title", "http://a.test/f.atom", 500}})
                  .ok());
  ASSERT_TRUE((*store)->WriteQueue(2, {{"http://a.test/x", "", "", -1}}).ok());
  ASSERT_TRUE((*store)->WriteQueue(2, {{"http://a.test/y", "", "", -1}}).ok());
  auto read = [&](int round) {
    std::vector<QueuedAnnouncement> out;
    EXPECT_TRUE((*store)
                    ->ForEachQueued(round, [&](const QueuedAnnouncement& q) {
                      out.push_back(q);
                      return true;
                    })
                    .ok());
    return out;
  };
  std::vector<QueuedAnnouncement> one = read(1);
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0].url, "http://a.test/z");
  EXPECT_EQ(one[1].url, "http://a.test/a");
  EXPECT_EQ(one[1].title, "A title");
  EXPECT_EQ(one[1].document, "http://a.test/f.atom");
  EXPECT_EQ(one[1].floor, 500);
  std::vector<QueuedAnnouncement> two = read(2);
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0].url, "http://a.test/y");
  EXPECT_TRUE(read(3).empty());
}

}  // namespace
}  // namespace topicrawl
