#include "store/crawl_db_reader.h"

#include <filesystem>

#include "store/warc_reader.h"

namespace topicrawl {

std::string DbRow::Text(int col) const {
  const unsigned char* p = sqlite3_column_text(st_, col);
  return p ? std::string(reinterpret_cast<const char*>(p),
                         static_cast<size_t>(sqlite3_column_bytes(st_, col)))
           : std::string();
}

StatusOr<std::unique_ptr<CrawlDbReader>> CrawlDbReader::Open(const std::string& dir) {
  const std::string path = dir + "/crawl.db";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Status::Error(dir + " holds no crawl (no crawl.db)");
  }
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return Status::Error("cannot open " + path + ": " + msg);
  }
  // The crawl's writer commits every ~200 ms; a reader waits rather than fails.
  sqlite3_busy_timeout(db, 2000);
  return std::unique_ptr<CrawlDbReader>(new CrawlDbReader(db, dir));
}

CrawlDbReader::~CrawlDbReader() { sqlite3_close(db_); }

Status CrawlDbReader::Query(const std::string& sql, const std::vector<DbArg>& args,
                            const std::function<bool(const DbRow&)>& row) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    return Status::Error(std::string("sqlite: ") + sqlite3_errmsg(db_));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const DbArg& a = args[i];
    const int n = static_cast<int>(i + 1);
    if (a.kind == DbArg::kInt) sqlite3_bind_int64(st, n, a.i);
    if (a.kind == DbArg::kDouble) sqlite3_bind_double(st, n, a.d);
    if (a.kind == DbArg::kText) {
      sqlite3_bind_text(st, n, a.s.data(), static_cast<int>(a.s.size()), SQLITE_TRANSIENT);
    }
  }
  int rc;
  DbRow r(st);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (!row(r)) {
      rc = SQLITE_DONE;
      break;
    }
  }
  Status s = rc == SQLITE_DONE ? Status::Ok()
                               : Status::Error(std::string("sqlite: ") + sqlite3_errmsg(db_));
  sqlite3_finalize(st);
  return s;
}

std::optional<int64_t> CrawlDbReader::QueryInt(const std::string& sql,
                                               const std::vector<DbArg>& args) {
  std::optional<int64_t> out;
  Query(sql, args, [&](const DbRow& r) {
    if (!r.IsNull(0)) out = r.Int(0);
    return false;
  });
  return out;
}

std::optional<std::string> CrawlDbReader::QueryText(const std::string& sql,
                                                    const std::vector<DbArg>& args) {
  std::optional<std::string> out;
  Query(sql, args, [&](const DbRow& r) {
    if (!r.IsNull(0)) out = r.Text(0);
    return false;
  });
  return out;
}

bool CrawlDbReader::HasColumn(const std::string& table, const std::string& column) {
  bool found = false;
  Query("SELECT name FROM pragma_table_info(?1)", {table}, [&](const DbRow& r) {
    if (r.Text(0) == column) found = true;
    return !found;
  });
  return found;
}

StatusOr<std::string> ReadStoredResponseBody(const std::string& crawl_dir,
                                             const std::string& warc_file, int64_t offset) {
  if (warc_file.empty()) return Status::Error("no WARC record");
  // The name comes from the database: never let it leave the directory.
  if (warc_file.find("..") != std::string::npos) {
    return Status::Error("suspicious WARC file name " + warc_file);
  }
  auto rec = ReadWarcRecordAt(crawl_dir + "/" + warc_file, static_cast<uint64_t>(offset));
  if (!rec.ok()) return rec.status();
  if (rec->Header("WARC-Type") != "response") {
    return Status::Error("record at offset is not a response");
  }
  std::string_view head, body;
  if (!SplitHttpBlock(rec->block, &head, &body)) return Status::Error("no HTTP head");
  return std::string(body);
}

}  // namespace topicrawl
