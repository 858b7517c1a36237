// Opening a crawl directory: resuming old schemas in their own layout, and
// the clear errors for directories that are not (or not yet, or no longer)
// a crawl this binary may open.
#include "store/crawl_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/hash.h"
#include "core/test_require.h"
#include "store/warc_reader.h"
#include "support/crawl_store_test_fixture.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using testing::CheckCrawlDir;
using testing::CrawlDirReport;
using testing::MakeTempDir;
using testing::MakeTestPage;
using testing::RemoveTree;

namespace fs = std::filesystem;
using store_test::CrawlStoreTest;
using store_test::Reader;

// Schema 4 directories (state changes as whole frontier_log rows) resume,
// read back the same frontier and keep writing their own layout.
TEST_F(CrawlStoreTest, ResumesASchema4DirectoryInItsOwnLayout) {
  std::vector<std::string> before;
  auto stream = [](CrawlStore* store, std::vector<std::string>* out) {
    out->clear();
    return store->LoadFrontier([out](const FrontierRecord& f) {
      out->push_back(f.url + "|" + std::to_string(f.depth) + "|" + f.anchor + "|" +
                     std::to_string(f.state));
      return true;
    });
  };
  {
    auto store = OpenOrDie(OpenMode::kCreate);
    for (int k = 1; k <= 3; ++k) ASSERT_TRUE(store->AddPage(MakeTestPage(k, 5, 5)).ok());
    ASSERT_TRUE(stream(store.get(), &before).ok());
    ASSERT_TRUE(store->Close().ok());
  }
  ASSERT_TRUE(testing::ConvertToSchema4(dir_).ok());
  Reader r(dir_);
  EXPECT_EQ(r.One("SELECT count(*) FROM sqlite_master WHERE name = 'frontier_state'"), "0");
  EXPECT_EQ(r.One("SELECT count(*) FROM frontier_log WHERE state = 1"), "3");
  auto store = OpenOrDie(OpenMode::kResume);
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schema_version(), 4);
  std::vector<std::string> after;
  ASSERT_TRUE(stream(store.get(), &after).ok());
  // Pages 1-3 are done (admitted by each other or stored unqueued), and
  // the order is the log's (schema 4 appended the state rows after them).
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  EXPECT_EQ(after, before);
  ASSERT_TRUE(store->AddPage(MakeTestPage(4, 5, 5)).ok());
  ASSERT_TRUE(store->Close().ok());
  EXPECT_EQ(r.One("SELECT count(*) FROM frontier_log WHERE state = 1"), "4");
  EXPECT_EQ(r.One("SELECT sum(state) FROM frontier"), "4");
  ExpectConsistent();
}

// Schema 3 directories (before the log became the frontier) resume, merge
// their log as before and keep their table and link form.
TEST_F(CrawlStoreTest, ResumesASchema3DirectoryAndMergesItsFrontierLog) {
  {
    auto store = OpenOrDie(OpenMode::kCreate);
    for (int k = 1; k <= 2; ++k) ASSERT_TRUE(store->AddPage(MakeTestPage(k, 5, 5)).ok());
    ASSERT_TRUE(store->Close().ok());
  }
  ASSERT_TRUE(testing::ConvertToSchema3(dir_).ok());
  options_.frontier_merge_rows = 10;
  auto store = OpenOrDie(OpenMode::kResume);
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schema_version(), 3);
  Reader r(dir_);
  for (int k = 3; k <= 5; ++k) ASSERT_TRUE(store->AddPage(MakeTestPage(k, 5, 5)).ok());
  ASSERT_TRUE(store->Flush().ok());  // 18 log rows >= 10: merged
  EXPECT_EQ(r.One("SELECT count(*) FROM frontier_log"), "0");
  EXPECT_EQ(r.One("SELECT type FROM sqlite_master WHERE name = 'frontier'"), "table");
  int64_t rows = 0, queued = 0;
  ASSERT_TRUE(store->CountFrontier(&rows, &queued).ok());
  EXPECT_EQ(rows, 26);  // p1..p11 and 15 link URLs
  EXPECT_EQ(queued, 21);
  std::vector<std::string> links;
  ASSERT_TRUE(store->LoadPageLinkUrls(4, &links).ok());
  EXPECT_EQ(links.size(), 5u);
  EXPECT_EQ(links, [] {
    std::vector<std::string> want;
    for (const LinkRecord& l : MakeTestPage(4, 5, 5).links) want.push_back(l.to_url);
    return want;
  }());
  ASSERT_TRUE(store->Close().ok());
  EXPECT_EQ(r.One("SELECT count(*), sum(state) FROM frontier"), "26|5");
  // Old pages and new ones read back alike through the old view.
  EXPECT_EQ(r.One("SELECT count(*) FROM links WHERE to_url LIKE 'http://h_.test/l%' AND "
                  "context LIKE 'context words%' AND explanation = 'bm25=0.1'"),
            "25");
  ExpectConsistent();
}

// A crawl directory written before schema 2 resumes and keeps its layout:
// new links rows go to the old rowid table (no ord), readers see one order.
TEST_F(CrawlStoreTest, ResumesASchemaV1DirectoryAndKeepsItsLayout) {
  ASSERT_TRUE(testing::CreateSchemaV1CrawlDir(dir_).ok());
  for (int session = 0; session < 2; ++session) {
    auto store = OpenOrDie(OpenMode::kResume);
    ASSERT_TRUE(store);
    for (int k = session * 3 + 1; k <= session * 3 + 3; ++k) {
      StatusOr<PageId> id = store->AddPage(MakeTestPage(k, 10 * k));
      ASSERT_TRUE(id.ok()) << id.status().message();
      EXPECT_EQ(*id, k);
    }
    StatusOr<PageStats> stats = store->LoadPageStats();
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->pages, session * 3 + 3);
    ASSERT_TRUE(store->Close().ok());
  }
  ExpectConsistent();
  Reader r(dir_);
  EXPECT_EQ(r.One("SELECT value FROM meta WHERE key='schema_version'"), "1");
  EXPECT_EQ(r.One("PRAGMA page_size"), "4096");
  EXPECT_EQ(r.One("SELECT count(*) FROM pragma_table_info('links') "
                  "WHERE name = 'ord'"),
            "0");
  EXPECT_EQ(r.One("SELECT count(*) FROM links"), "210");  // 10+20+...+60
  // rowid order is page order, then link order (what readers rely on).
  std::vector<std::string> want;
  for (int k = 1; k <= 6; ++k) {
    const PageRecord page = MakeTestPage(k, 10 * k);
    for (const LinkRecord& l : page.links) {
      want.push_back(std::to_string(k) + "|" + l.to_url);
    }
  }
  EXPECT_EQ(r.Rows("SELECT from_id, to_url FROM links ORDER BY rowid"), want);
  EXPECT_EQ(r.One("SELECT count(*) FROM sqlite_master WHERE name = "
                  "'links_from_id'"),
            "1");
}

TEST_F(CrawlStoreTest, ResumeRefusesNewerOrUnreadableSchemaVersions) {
  OpenOrDie(OpenMode::kCreate).reset();
  for (const char* version : {"8", "0", "2x", ""}) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ + "/crawl.db").c_str(), &db), SQLITE_OK);
    const std::string sql = std::string("UPDATE meta SET value='") + version +
                            "' WHERE key='schema_version'";
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    auto store = CrawlStore::Open(dir_, OpenMode::kResume, options_);
    ASSERT_FALSE(store.ok()) << version;
    EXPECT_NE(store.status().message().find(
                  std::string("has schema version ") + version +
                  ", this build reads 1 to 7"),
              std::string::npos)
        << store.status().message();
  }
}

TEST_F(CrawlStoreTest, CreateRefusesADirectoryHoldingACrawl) {
  ASSERT_TRUE(OpenOrDie(OpenMode::kCreate));
  auto again = CrawlStore::Open(dir_, OpenMode::kCreate, options_);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("already holds a crawl"), std::string::npos);
}

TEST_F(CrawlStoreTest, CreateStartsAfreshAfterAnInterruptedCreation) {
  // What kill -9 during kCreate can leave: a database with no committed
  // schema (here: an empty file) and an empty warc/.
  fs::create_directories(dir_ + "/warc");
  std::ofstream(dir_ + "/crawl.db") << "";
  auto resume = CrawlStore::Open(dir_, OpenMode::kResume, options_);
  ASSERT_FALSE(resume.ok());
  EXPECT_NE(resume.status().message().find("creation was interrupted"),
            std::string::npos)
      << resume.status().message();
  auto store = OpenOrDie(OpenMode::kCreate);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->AddPage(MakeTestPage(1)).ok());
  ASSERT_TRUE(store->Close().ok());
  ExpectConsistent();
}

TEST_F(CrawlStoreTest, CreateRefusesANonEmptyWarcDirectory) {
  fs::create_directories(dir_ + "/warc");
  std::ofstream(dir_ + "/warc/" + WarcFileName(1'700'000'000'000, 1)) << "x";
  auto store = CrawlStore::Open(dir_, OpenMode::kCreate, options_);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("not empty"), std::string::npos);
}

TEST_F(CrawlStoreTest, ResumeRefusesADirectoryWithoutACrawl) {
  auto missing = CrawlStore::Open(dir_, OpenMode::kResume, options_);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no crawl directory"), std::string::npos);
  fs::create_directories(dir_);
  auto empty = CrawlStore::Open(dir_, OpenMode::kResume, options_);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("holds no crawl"), std::string::npos);
}

TEST_F(CrawlStoreTest, BadDirectoriesAreClearErrors) {
  std::ofstream(root_ + "/file") << "x";
  auto file = CrawlStore::Open(root_ + "/file", OpenMode::kCreate, options_);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.status().message().find("file"), std::string::npos);
  auto under_file = CrawlStore::Open(root_ + "/file/sub", OpenMode::kCreate, options_);
  ASSERT_FALSE(under_file.ok());
  EXPECT_FALSE(CrawlStore::Open("", OpenMode::kCreate, options_).ok());
  if (::geteuid() != 0) {  // root ignores permissions
    fs::create_directories(root_ + "/ro");
    ::chmod((root_ + "/ro").c_str(), 0555);
    auto ro = CrawlStore::Open(root_ + "/ro/crawl", OpenMode::kCreate, options_);
    ASSERT_FALSE(ro.ok());
    EXPECT_NE(ro.status().message().find("cannot create directory"), std::string::npos);
  }
}

TEST_F(CrawlStoreTest, NotADatabaseIsAClearError) {
  fs::create_directories(dir_ + "/warc");
  std::ofstream(dir_ + "/crawl.db") << std::string(5000, 'x');
  auto store = CrawlStore::Open(dir_, OpenMode::kResume, options_);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("crawl.db"), std::string::npos)
      << store.status().message();
}

TEST_F(CrawlStoreTest, OneProcessAtATime) {
  auto first = OpenOrDie(OpenMode::kCreate);
  auto second = CrawlStore::Open(dir_, OpenMode::kResume, options_);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("in use"), std::string::npos);
  first.reset();
  EXPECT_TRUE(CrawlStore::Open(dir_, OpenMode::kResume, options_).ok());
}

TEST_F(CrawlStoreTest, RefusesWarcNamesFromTheDatabaseThatLeaveTheDirectory) {
  ASSERT_TRUE(OpenOrDie(OpenMode::kCreate));
  std::ofstream(root_ + "/victim.warc.gz") << "precious";
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ + "/crawl.db").c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "INSERT INTO warc_files VALUES('../victim.warc.gz',0,0)",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  auto store = CrawlStore::Open(dir_, OpenMode::kResume, options_);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("refusing"), std::string::npos);
  EXPECT_EQ(fs::file_size(root_ + "/victim.warc.gz"), 8u);
}

TEST_F(CrawlStoreTest, RefusesSymlinksInsideTheDirectory) {
  ASSERT_TRUE(OpenOrDie(OpenMode::kCreate));
  // A symlinked WARC file pointing outside is neither truncated nor deleted.
  fs::create_directories(root_ + "/outside");
  std::ofstream(root_ + "/outside/target") << "precious";
  const std::string link = dir_ + "/warc/" + WarcFileName(1'700'000'000'000, 5);
  fs::create_symlink(root_ + "/outside/target", link);
  auto store = CrawlStore::Open(dir_, OpenMode::kResume, options_);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("not a regular file"), std::string::npos);
  EXPECT_EQ(fs::file_size(root_ + "/outside/target"), 8u);
  fs::remove(link);
  // A symlinked warc/ directory.
  fs::rename(dir_ + "/warc", root_ + "/outside/warc");
  fs::create_directory_symlink(root_ + "/outside/warc", dir_ + "/warc");
  store = CrawlStore::Open(dir_, OpenMode::kResume, options_);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("not a directory"), std::string::npos);
  // A symlinked database.
  fs::remove(dir_ + "/warc");
  fs::rename(root_ + "/outside/warc", dir_ + "/warc");
  fs::rename(dir_ + "/crawl.db", root_ + "/outside/crawl.db");
  fs::create_symlink(root_ + "/outside/crawl.db", dir_ + "/crawl.db");
  store = CrawlStore::Open(dir_, OpenMode::kResume, options_);
  ASSERT_FALSE(store.ok());
}

}  // namespace
}  // namespace topicrawl
