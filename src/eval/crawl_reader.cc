#include "eval/crawl_reader.h"

#include <sqlite3.h>

#include <charconv>
#include <filesystem>
#include <memory>

#include "eval/sqlite_handles.h"

namespace topicrawl::eval {
namespace {

std::optional<double> ColumnDouble(sqlite3_stmt* st, int col) {
  if (sqlite3_column_type(st, col) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_double(st, col);
}

std::optional<int64_t> ColumnInt(sqlite3_stmt* st, int col) {
  if (sqlite3_column_type(st, col) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_int64(st, col);
}

Status Prepare(sqlite3* db, const char* sql, StmtPtr* out) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK) {
    return Status::Error(sqlite3_errmsg(db));
  }
  out->reset(st);
  return Status::Ok();
}

Status ReadPages(sqlite3* db, CrawlRecord* record) {
  StmtPtr st;
  Status s = Prepare(db,
                     "SELECT id, url, final_url, status, relevance, fetched_at "
                     "FROM pages ORDER BY id",
                     &st);
  if (!s.ok()) return s;
  int rc;
  while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
    if (ColumnText(st.get(), 3) != "ok") {
      ++record->failed_rows;
      continue;
    }
    DownloadedPage page;
    page.id = sqlite3_column_int64(st.get(), 0);
    page.url = ColumnText(st.get(), 1);
    page.final_url = ColumnText(st.get(), 2);
    page.relevance = ColumnDouble(st.get(), 4);
    page.fetched_at_ms = ColumnInt(st.get(), 5);
    record->pages.push_back(std::move(page));
  }
  if (rc != SQLITE_DONE) return Status::Error(sqlite3_errmsg(db));
  // Schema 6: URL-trap refusals are failed rows without a pages row.
  StmtPtr refused;
  if (Prepare(db, "SELECT count(*) FROM frontier_state WHERE reason IS NOT NULL", &refused).ok() &&
      sqlite3_step(refused.get()) == SQLITE_ROW) {
    record->failed_rows += sqlite3_column_int64(refused.get(), 0);
  }
  return Status::Ok();
}

void ReadMeta(sqlite3* db, CrawlRecord* record) {
  StmtPtr st;
  // A crawl that died before writing meta has no rows; tolerate no table.
  if (!Prepare(db, "SELECT key, value FROM meta", &st).ok()) return;
  while (sqlite3_step(st.get()) == SQLITE_ROW) {
    record->meta[ColumnText(st.get(), 0)] = ColumnText(st.get(), 1);
  }
}

}  // namespace

std::optional<double> CrawlRecord::MetaDouble(const std::string& key) const {
  auto it = meta.find(key);
  if (it == meta.end()) return std::nullopt;
  try {
    size_t used = 0;
    double v = std::stod(it->second, &used);
    if (used != it->second.size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<int64_t> CrawlRecord::MetaInt(const std::string& key) const {
  auto it = meta.find(key);
  if (it == meta.end()) return std::nullopt;
  int64_t v = 0;
  const std::string& s = it->second;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

StatusOr<CrawlRecord> ReadCrawl(const std::string& crawl_dir) {
  std::error_code ec;
  std::string path = crawl_dir;
  if (std::filesystem::is_directory(crawl_dir, ec)) {
    path = (std::filesystem::path(crawl_dir) / "crawl.db").string();
  }
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Status::Error(path + ": no crawl database");
  }
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
  DbPtr db(raw);
  if (rc != SQLITE_OK) {
    return Status::Error(path + ": " + (raw ? sqlite3_errmsg(raw) : "cannot open"));
  }
  sqlite3_busy_timeout(db.get(), 5000);
  CrawlRecord record;
  Status s = ReadPages(db.get(), &record);
  if (!s.ok()) return Status::Error(path + ": " + s.message());
  ReadMeta(db.get(), &record);
  return record;
}

}  // namespace topicrawl::eval
