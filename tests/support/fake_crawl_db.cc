#include "support/fake_crawl_db.h"

#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

namespace topicrawl::eval::testing {

namespace {
constexpr const char* kSchema = R"sql(
CREATE TABLE pages(id INTEGER PRIMARY KEY, url TEXT, final_url TEXT, status TEXT,
  http_code INTEGER, content_type TEXT, charset TEXT, fetched_at INTEGER, depth INTEGER,
  parent_id INTEGER, anchor TEXT, content_hash TEXT, size INTEGER, relevance REAL,
  link_score REAL, title TEXT, error TEXT, explanation TEXT, warc_file TEXT,
  warc_offset INTEGER, warc_length INTEGER);
CREATE TABLE links(from_id INTEGER, to_url TEXT, anchor TEXT, context TEXT, score REAL,
  explanation TEXT);
CREATE TABLE frontier(url_id INTEGER PRIMARY KEY, url TEXT, depth INTEGER,
  parent_id INTEGER, anchor TEXT, score REAL, explanation TEXT, state INTEGER);
CREATE TABLE events(id INTEGER PRIMARY KEY, at INTEGER, kind TEXT, detail TEXT);
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
)sql";
}  // namespace

void WriteFakeCrawl(const std::string& dir, const std::vector<FakePage>& pages,
                    const std::map<std::string, std::string>& meta) {
  std::filesystem::create_directories(dir);
  std::string path = dir + "/crawl.db";
  std::filesystem::remove(path);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, kSchema, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "INSERT INTO pages(id,url,final_url,status,relevance,"
                               "fetched_at,http_code) VALUES(?,?,?,?,?,?,200)",
                               -1, &st, nullptr),
            SQLITE_OK);
  int64_t id = 0;
  for (const FakePage& p : pages) {
    sqlite3_bind_int64(st, 1, ++id);
    sqlite3_bind_text(st, 2, p.url.c_str(), -1, SQLITE_TRANSIENT);
    if (p.final_url.empty()) {
      sqlite3_bind_null(st, 3);
    } else {
      sqlite3_bind_text(st, 3, p.final_url.c_str(), -1, SQLITE_TRANSIENT);
    }
    sqlite3_bind_text(st, 4, p.status.c_str(), -1, SQLITE_TRANSIENT);
    if (p.relevance) sqlite3_bind_double(st, 5, *p.relevance); else sqlite3_bind_null(st, 5);
    if (p.fetched_at_ms) sqlite3_bind_int64(st, 6, *p.fetched_at_ms); else sqlite3_bind_null(st, 6);
    ASSERT_EQ(sqlite3_step(st), SQLITE_DONE);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  ASSERT_EQ(sqlite3_prepare_v2(db, "INSERT INTO meta(key,value) VALUES(?,?)", -1, &st, nullptr),
            SQLITE_OK);
  for (const auto& [key, value] : meta) {
    sqlite3_bind_text(st, 1, key.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, value.c_str(), -1, SQLITE_TRANSIENT);
    ASSERT_EQ(sqlite3_step(st), SQLITE_DONE);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_close(db);
}

std::string MakeTempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("topicrawl_eval_" + name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace topicrawl::eval::testing
