#include "store/sqlite_db.h"

namespace topicrawl {

Status SqliteStatement::Run() {
  int rc = sqlite3_step(stmt_);
  Reset();
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return Status::Ok();
  return Status::Error(std::string("sqlite: ") + sqlite3_errmsg(db_));
}

bool SqliteStatement::NextRow(Status* status) {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) {
    *status = Status::Error(std::string("sqlite: ") + sqlite3_errmsg(db_));
  }
  return false;
}

StatusOr<std::unique_ptr<SqliteDb>> SqliteDb::Open(const std::string& path,
                                                   bool create) {
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
              SQLITE_OPEN_NOFOLLOW | (create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return Status::Error("cannot open database " + path + ": " + msg);
  }
  sqlite3_extended_result_codes(db, 1);
  return std::unique_ptr<SqliteDb>(new SqliteDb(db));
}

SqliteDb::~SqliteDb() { sqlite3_close_v2(db_); }

Status SqliteDb::Error(std::string_view what) const {
  return Status::Error(std::string(what) + ": " + sqlite3_errmsg(db_));
}

Status SqliteDb::Exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    return Status::Error("sqlite: " + msg);
  }
  return Status::Ok();
}

StatusOr<SqliteStatement> SqliteDb::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                         SQLITE_PREPARE_PERSISTENT, &stmt,
                         nullptr) != SQLITE_OK) {
    return Error("sqlite prepare");
  }
  return SqliteStatement(db_, stmt);
}

StatusOr<std::optional<std::string>> SqliteDb::QueryText(
    const std::string& sql) {
  StatusOr<SqliteStatement> stmt = Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  Status status;
  if (stmt->NextRow(&status)) return std::optional<std::string>(stmt->Text(0));
  if (!status.ok()) return status;
  return std::optional<std::string>();
}

}  // namespace topicrawl
