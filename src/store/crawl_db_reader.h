// Read-only access to a crawl directory for every tool that is not the
// crawler: CrawlDbReader, a read-only SQLite connection to DIR/crawl.db that
// lives next to a running crawl (WAL mode: readers never block the writer
// and see the last committed transaction), and ReadStoredResponseBody, the
// HTTP body of a stored response. Used by the server, the search indexer,
// export, the classify export (`topicrawl label`) and the hub collector
// (`topicrawl hub`). The crawler writes through CrawlStore (crawl_store.h).
// Not thread-safe: one reader per thread.
#ifndef TOPICRAWL_STORE_CRAWL_DB_READER_H_
#define TOPICRAWL_STORE_CRAWL_DB_READER_H_

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl {

// One row as the callback sees it.
class DbRow {
 public:
  explicit DbRow(sqlite3_stmt* st) : st_(st) {}
  int64_t Int(int col) const { return sqlite3_column_int64(st_, col); }
  double Double(int col) const { return sqlite3_column_double(st_, col); }
  bool IsNull(int col) const { return sqlite3_column_type(st_, col) == SQLITE_NULL; }
  std::string Text(int col) const;

 private:
  sqlite3_stmt* st_;
};

// A bound parameter: integer, real or text.
struct DbArg {
  enum Kind { kInt, kDouble, kText } kind;
  int64_t i = 0;
  double d = 0;
  std::string s;
  DbArg(int64_t v) : kind(kInt), i(v) {}        // NOLINT: implicit by design
  DbArg(int v) : kind(kInt), i(v) {}            // NOLINT
  DbArg(double v) : kind(kDouble), d(v) {}      // NOLINT
  DbArg(std::string v) : kind(kText), s(std::move(v)) {}  // NOLINT
  DbArg(const char* v) : kind(kText), s(v) {}   // NOLINT
};

class CrawlDbReader {
 public:
  // Opens DIR/crawl.db read-only (fails when it does not exist).
  static StatusOr<std::unique_ptr<CrawlDbReader>> Open(const std::string& dir);
  ~CrawlDbReader();

  // Runs `sql` with `args` bound to ?1..?n; `row` returns false to stop.
  Status Query(const std::string& sql, const std::vector<DbArg>& args,
               const std::function<bool(const DbRow&)>& row);
  // First column of the first row, when there is one.
  std::optional<int64_t> QueryInt(const std::string& sql, const std::vector<DbArg>& args = {});
  std::optional<std::string> QueryText(const std::string& sql,
                                       const std::vector<DbArg>& args = {});
  bool HasColumn(const std::string& table, const std::string& column);
  const std::string& dir() const { return dir_; }

 private:
  CrawlDbReader(sqlite3* db, std::string dir) : db_(db), dir_(std::move(dir)) {}
  sqlite3* db_;
  std::string dir_;
};

// The HTTP body (as stored: charset not decoded) of the WARC response
// record at `offset` of `warc_file`, a path relative to `crawl_dir` as the
// pages table stores it. Errors: an empty or escaping ("..") file name, an
// unreadable record, a record that is not a response, a block without an
// HTTP head.
StatusOr<std::string> ReadStoredResponseBody(const std::string& crawl_dir,
                                             const std::string& warc_file, int64_t offset);

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_CRAWL_DB_READER_H_
