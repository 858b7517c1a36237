// Minimal RAII wrappers over the SQLite C API (internal to store/).
// Errors are returned as Status carrying sqlite3_errmsg().
#ifndef TOPICRAWL_STORE_SQLITE_DB_H_
#define TOPICRAWL_STORE_SQLITE_DB_H_

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <string_view>

#include "core/status.h"

namespace topicrawl {

// A prepared statement. Bind*() use 1-based indexes; text is bound
// SQLITE_STATIC, so bound data must stay valid until Step()/Reset().
class SqliteStatement {
 public:
  SqliteStatement() = default;
  SqliteStatement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  ~SqliteStatement() { sqlite3_finalize(stmt_); }
  SqliteStatement(SqliteStatement&& other) noexcept { *this = std::move(other); }
  SqliteStatement& operator=(SqliteStatement&& other) noexcept {
    std::swap(db_, other.db_);
    std::swap(stmt_, other.stmt_);
    return *this;
  }

  void BindInt(int i, int64_t v) { sqlite3_bind_int64(stmt_, i, v); }
  void BindDouble(int i, double v) { sqlite3_bind_double(stmt_, i, v); }
  void BindNull(int i) { sqlite3_bind_null(stmt_, i); }
  void BindText(int i, std::string_view v) {
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()),
                      SQLITE_STATIC);
  }
  // 0 -> NULL (ids where 0 means "none").
  void BindIdOrNull(int i, int64_t v) {
    if (v == 0) {
      BindNull(i);
    } else {
      BindInt(i, v);
    }
  }

  // Runs a statement that returns no rows, then resets it.
  Status Run();
  // Steps once: true with a row, false when done (*status says if an error
  // ended it). Call Reset() when finished.
  bool NextRow(Status* status);
  void Reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }

  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  double Double(int col) const { return sqlite3_column_double(stmt_, col); }
  bool IsNull(int col) const {
    return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
  }
  // The column's text without a copy: valid until the next NextRow(),
  // Reset() or another access to the same column.
  std::string_view TextView(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? std::string_view(reinterpret_cast<const char*>(p),
                                sqlite3_column_bytes(stmt_, col))
             : std::string_view();
  }
  std::string Text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           sqlite3_column_bytes(stmt_, col))
             : std::string();
  }

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

class SqliteDb {
 public:
  // Opens `path` (SQLITE_OPEN_NOFOLLOW: a symlink is refused).
  static StatusOr<std::unique_ptr<SqliteDb>> Open(const std::string& path,
                                                  bool create);
  ~SqliteDb();

  Status Exec(const std::string& sql);
  StatusOr<SqliteStatement> Prepare(std::string_view sql);
  // First column of the first row as text; nullopt when no row.
  StatusOr<std::optional<std::string>> QueryText(const std::string& sql);
  sqlite3* raw() { return db_; }
  Status Error(std::string_view what) const;

 private:
  explicit SqliteDb(sqlite3* db) : db_(db) {}
  sqlite3* db_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_SQLITE_DB_H_
