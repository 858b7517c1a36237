#include "strategies/jlse/jlse_tables.h"

#include <filesystem>

#include "gtest/gtest.h"
#include "store/sqlite_db.h"

namespace topicrawl {
namespace {

TEST(JlseTablesTest, WriteReadReplace) {
  auto dir = std::filesystem::temp_directory_path() /
             ("jlse_tables_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "crawl.db").string();
  {
    auto db = SqliteDb::Open(path, true);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->Exec("CREATE TABLE pages (id INTEGER PRIMARY KEY);").ok());
  }
  std::vector<JlseLinkRow> rows = {{1, "http://a/", 0, 0, ""},
                                   {2, "http://a/b.html", 1, 1, "b page"},
                                   {3, "http://a/c.html", 2, 2, "网络"}};
  ASSERT_TRUE(WriteJlseTables(path, rows, {3}).ok());
  ASSERT_TRUE(WriteJlseTables(path, rows, {3, 2}).ok());  // replaces
  std::vector<JlseLinkRow> back;
  std::vector<int64_t> results;
  Status s = ReadJlseTables(path, &back, &results);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[2].anchor, "网络");
  EXPECT_EQ(back[2].parent_id, 2);
  EXPECT_EQ(back[1].depth, 1u);
  EXPECT_EQ(results, (std::vector<int64_t>{3, 2}));
  EXPECT_FALSE(WriteJlseTables((dir / "missing.db").string(), rows, {}).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace topicrawl
