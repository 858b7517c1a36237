#include "eval/crawl_reader.h"

#include <sqlite3.h>

#include <charconv>

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

Status ReadPages(sqlite3* db, CrawlRecord* record) {
  StatusOr<StmtPtr> st = Prepare(db,
                                 "SELECT id, url, final_url, status, relevance, fetched_at "
                                 "FROM pages ORDER BY id");
  if (!st.ok()) return st.status();
  int rc;
  while ((rc = sqlite3_step(st->get())) == SQLITE_ROW) {
    if (ColumnText(st->get(), 3) != "ok") {
      ++record->failed_rows;
      continue;
    }
    DownloadedPage page;
    page.id = sqlite3_column_int64(st->get(), 0);
    page.url = ColumnText(st->get(), 1);
    page.final_url = ColumnText(st->get(), 2);
    page.relevance = ColumnDouble(st->get(), 4);
    page.fetched_at_ms = ColumnInt(st->get(), 5);
    record->pages.push_back(std::move(page));
  }
  if (rc != SQLITE_DONE) return Status::Error(sqlite3_errmsg(db));
  // Schema 6: URL-trap refusals are failed rows without a pages row.
  StatusOr<StmtPtr> refused =
      Prepare(db, "SELECT count(*) FROM frontier_state WHERE reason IS NOT NULL");
  if (refused.ok() && sqlite3_step(refused->get()) == SQLITE_ROW) {
    record->failed_rows += sqlite3_column_int64(refused->get(), 0);
  }
  return Status::Ok();
}

void ReadMeta(sqlite3* db, CrawlRecord* record) {
  // A crawl that died before writing meta has no rows; tolerate no table.
  ForEachRow(db, "SELECT key, value FROM meta", [record](sqlite3_stmt* st) {
    record->meta[ColumnText(st, 0)] = ColumnText(st, 1);
  });
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
  StatusOr<std::string> path = CrawlDbPath(crawl_dir);
  if (!path.ok()) return path.status();
  StatusOr<DbPtr> db = OpenReadOnly(*path);
  if (!db.ok()) return db.status();
  CrawlRecord record;
  Status s = ReadPages(db->get(), &record);
  if (!s.ok()) return Status::Error(*path + ": " + s.message());
  ReadMeta(db->get(), &record);
  return record;
}

}  // namespace topicrawl::eval
