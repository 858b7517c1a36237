// Eval's read-only access to a crawl's SQLite files: owning handles, one way
// to open a database and to compile a statement (eval reads crawl.db
// directly and does not link the store library).
#ifndef TOPICRAWL_EVAL_SQLITE_HANDLES_H_
#define TOPICRAWL_EVAL_SQLITE_HANDLES_H_

#include <sqlite3.h>

#include <memory>
#include <string>
#include <utility>

#include "core/status.h"

namespace topicrawl::eval {

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct StmtFinalizer {
  void operator()(sqlite3_stmt* st) const { sqlite3_finalize(st); }
};
using DbPtr = std::unique_ptr<sqlite3, DbCloser>;
using StmtPtr = std::unique_ptr<sqlite3_stmt, StmtFinalizer>;

// The database of a crawl: `crawl_dir`/crawl.db, or `crawl_dir` itself when
// it names a file. Error "<path>: no crawl database" when there is none.
StatusOr<std::string> CrawlDbPath(const std::string& crawl_dir);

// Opens the SQLite file `path` read-only; a reader waits up to 5 s for a
// writer's lock. Error "<path>: <SQLite's message>".
StatusOr<DbPtr> OpenReadOnly(const std::string& path);

// Compiles `sql` against `db`. Error: SQLite's message (callers name the
// file where they report it).
StatusOr<StmtPtr> Prepare(sqlite3* db, const std::string& sql);

// Runs `sql` and calls row(stmt) for each row. Error: SQLite's message, from
// compiling or from a step that neither gave a row nor finished.
template <typename RowFn>
Status ForEachRow(sqlite3* db, const std::string& sql, RowFn row) {
  StatusOr<StmtPtr> st = Prepare(db, sql);
  if (!st.ok()) return st.status();
  int rc;
  while ((rc = sqlite3_step(st->get())) == SQLITE_ROW) row(st->get());
  if (rc != SQLITE_DONE) return Status::Error(sqlite3_errmsg(db));
  return Status::Ok();
}

// ForEachRow whose error names the database: "<path>: <SQLite's message>".
template <typename RowFn>
Status ForEachRow(sqlite3* db, const std::string& path, const std::string& sql, RowFn row) {
  Status s = ForEachRow(db, sql, std::move(row));
  if (!s.ok()) return Status::Error(path + ": " + s.message());
  return s;
}

// Column `col` of the current row as text; "" for NULL.
inline std::string ColumnText(sqlite3_stmt* st, int col) {
  const unsigned char* text = sqlite3_column_text(st, col);
  return text ? reinterpret_cast<const char*>(text) : std::string();
}

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_SQLITE_HANDLES_H_
