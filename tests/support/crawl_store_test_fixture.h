// The fixture of the CrawlStore tests (crawl_store_test.cc: what a crawl
// stores and reads back; crawl_store_open_test.cc: opening, old schemas and
// bad directories). Test-only.
#ifndef TOPICRAWL_TESTS_SUPPORT_CRAWL_STORE_TEST_FIXTURE_H_
#define TOPICRAWL_TESTS_SUPPORT_CRAWL_STORE_TEST_FIXTURE_H_

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>
#include <vector>

#include "store/crawl_store.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace store_test {

// A second, read-only connection: sees only committed data.
class Reader {
 public:
  explicit Reader(const std::string& dir) {
    sqlite3_open_v2((dir + "/crawl.db").c_str(), &db_, SQLITE_OPEN_READONLY,
                    nullptr);
  }
  ~Reader() { sqlite3_close(db_); }
  // All rows of `sql` as strings ("NULL" for NULL), columns joined by '|'.
  std::vector<std::string> Rows(const std::string& sql) {
    std::vector<std::string> rows;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sqlite3_errmsg(db_) << " in " << sql;
      return rows;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
      std::string row;
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        if (c) row += "|";
        const auto* t = sqlite3_column_text(st, c);
        row += t ? reinterpret_cast<const char*>(t) : "NULL";
      }
      rows.push_back(row);
    }
    sqlite3_finalize(st);
    return rows;
  }
  std::string One(const std::string& sql) {
    auto rows = Rows(sql);
    return rows.empty() ? "<none>" : rows[0];
  }

 private:
  sqlite3* db_ = nullptr;
};

class CrawlStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::MakeTempDir();
    dir_ = root_ + "/crawl";
    options_.clock = &clock_;
  }
  void TearDown() override { testing::RemoveTree(root_); }

  std::unique_ptr<CrawlStore> OpenOrDie(OpenMode mode) {
    auto store = CrawlStore::Open(dir_, mode, options_);
    EXPECT_TRUE(store.ok()) << store.status().message();
    return store.ok() ? std::move(store).value() : nullptr;
  }
  void ExpectConsistent() {
    testing::CrawlDirReport report;
    Status s = testing::CheckCrawlDir(dir_, &report);
    EXPECT_TRUE(s.ok()) << s.message();
  }

  std::string root_, dir_;
  FakeClock clock_;
  CrawlStoreOptions options_;
};

}  // namespace store_test
}  // namespace topicrawl

#endif  // TOPICRAWL_TESTS_SUPPORT_CRAWL_STORE_TEST_FIXTURE_H_
