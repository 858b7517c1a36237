// The shared read-only crawl-directory reader (server, search, export,
// classify export, hub).
#include "store/crawl_db_reader.h"

#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/clock.h"
#include "store/warc_writer.h"

namespace topicrawl {
namespace {

namespace fs = std::filesystem;

class CrawlDirReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/crawl-dir-reader-" + std::to_string(::getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_ + "/warc");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(CrawlDirReaderTest, QueriesReadOnlyAndNamesAMissingDatabase) {
  auto missing = CrawlDbReader::Open(dir_);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no crawl.db"), std::string::npos)
      << missing.status().message();

  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ + "/crawl.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE TABLE pages(id INTEGER, url TEXT);"
                         "INSERT INTO pages VALUES (1, 'http://a.test/'), (2, NULL);",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);

  auto reader = CrawlDbReader::Open(dir_);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  std::vector<std::string> urls;
  ASSERT_TRUE((*reader)
                  ->Query("SELECT url FROM pages ORDER BY id", {},
                          [&](const DbRow& row) {
                            urls.push_back(row.Text(0));
                            return true;
                          })
                  .ok());
  EXPECT_EQ(urls, (std::vector<std::string>{"http://a.test/", ""}));
  EXPECT_TRUE((*reader)->HasColumn("pages", "url"));
  EXPECT_FALSE((*reader)->HasColumn("pages", "ord"));
  EXPECT_FALSE((*reader)->Query("SELECT nope FROM pages", {}, [](const DbRow&) { return true; }).ok());
  // Read-only: a write is refused.
  EXPECT_FALSE((*reader)->Query("DELETE FROM pages", {}, [](const DbRow&) { return true; }).ok());
  EXPECT_EQ((*reader)->QueryInt("SELECT count(*) FROM pages"), 2);
}

TEST_F(CrawlDirReaderTest, ReadsTheBodyOfAStoredResponseOnly) {
  FakeClock clock;
  auto writer = WarcWriter::New(dir_ + "/warc", 1, WarcOptions{}, &clock);
  ASSERT_NE(writer, nullptr);
  WarcRecord response;
  response.type = "response";
  response.target_uri = "http://a.test/";
  response.content_type = "application/http;msgtype=response";
  response.block = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hi</p>";
  WarcRecord meta;
  meta.type = "metadata";
  meta.block = "x: y\r\n";
  auto span = writer->Append({response});
  ASSERT_TRUE(span.ok()) << span.status().message();
  auto meta_span = writer->Append({meta});
  ASSERT_TRUE(meta_span.ok());
  ASSERT_TRUE(writer->Flush().ok());
  const std::string file = "warc/" + span->file;

  auto body = ReadStoredResponseBody(dir_, file, static_cast<int64_t>(span->offset));
  ASSERT_TRUE(body.ok()) << body.status().message();
  EXPECT_EQ(*body, "<p>hi</p>");
  EXPECT_FALSE(ReadStoredResponseBody(dir_, file, static_cast<int64_t>(meta_span->offset)).ok());
  EXPECT_FALSE(ReadStoredResponseBody(dir_, "", 0).ok());
  auto escape = ReadStoredResponseBody(dir_, "../" + file, 0);
  EXPECT_FALSE(escape.ok());
  EXPECT_NE(escape.status().message().find("suspicious"), std::string::npos);
}

}  // namespace
}  // namespace topicrawl
