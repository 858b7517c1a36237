#include "eval/sqlite_handles.h"

#include <filesystem>

namespace topicrawl::eval {

StatusOr<std::string> CrawlDbPath(const std::string& crawl_dir) {
  std::error_code ec;
  std::string path = crawl_dir;
  if (std::filesystem::is_directory(crawl_dir, ec)) {
    path = (std::filesystem::path(crawl_dir) / "crawl.db").string();
  }
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Status::Error(path + ": no crawl database");
  }
  return path;
}

StatusOr<DbPtr> OpenReadOnly(const std::string& path) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
  DbPtr db(raw);  // closed on every path, also when the open failed
  if (rc != SQLITE_OK) {
    return Status::Error(path + ": " + (raw ? sqlite3_errmsg(raw) : "cannot open"));
  }
  // A crawl that is still running holds the write lock for a commit at a
  // time; eval reads beside it.
  sqlite3_busy_timeout(db.get(), 5000);
  return db;
}

StatusOr<StmtPtr> Prepare(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &raw, nullptr) != SQLITE_OK) {
    sqlite3_finalize(raw);
    return Status::Error(sqlite3_errmsg(db));
  }
  return StmtPtr(raw);
}

}  // namespace topicrawl::eval
