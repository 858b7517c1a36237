// Owning handles for eval's read-only access to a crawl's SQLite files
// (eval reads crawl.db directly and does not link the store library).
#ifndef TOPICRAWL_EVAL_SQLITE_HANDLES_H_
#define TOPICRAWL_EVAL_SQLITE_HANDLES_H_

#include <sqlite3.h>

#include <memory>
#include <string>

namespace topicrawl::eval {

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct StmtFinalizer {
  void operator()(sqlite3_stmt* st) const { sqlite3_finalize(st); }
};
using DbPtr = std::unique_ptr<sqlite3, DbCloser>;
using StmtPtr = std::unique_ptr<sqlite3_stmt, StmtFinalizer>;

// Column `col` of the current row as text; "" for NULL.
inline std::string ColumnText(sqlite3_stmt* st, int col) {
  const unsigned char* text = sqlite3_column_text(st, col);
  return text ? reinterpret_cast<const char*>(text) : std::string();
}

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_SQLITE_HANDLES_H_
