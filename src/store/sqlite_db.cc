#include "store/sqlite_db.h"

#include <cstring>
#include <string>

namespace topicrawl {
namespace {

// The operation behind an extended SQLITE_IOERR_* code ("" when unnamed).
const char* IoOperation(int rc) {
  switch (rc) {
    case SQLITE_IOERR_READ: return "read";
    case SQLITE_IOERR_SHORT_READ: return "short read";
    case SQLITE_IOERR_WRITE: return "write";
    case SQLITE_IOERR_FSYNC: return "fsync";
    case SQLITE_IOERR_DIR_FSYNC: return "directory fsync";
    case SQLITE_IOERR_TRUNCATE: return "truncate";
    case SQLITE_IOERR_FSTAT: return "fstat";
    case SQLITE_IOERR_SHMSIZE: return "shared-memory resize";
    case SQLITE_IOERR_SHMMAP: return "shared-memory map";
    case SQLITE_IOERR_DELETE: return "delete";
    case SQLITE_IOERR_CLOSE: return "close";
    default: return "";
  }
}

// sqlite3_errmsg plus the OS error behind an I/O failure: "disk I/O error"
// alone does not say that the disk is full (ENOSPC) or a file too large.
// sqlite3_system_errno() reads errno after SQLite's own clean-up calls and
// is often 0 then; the main file's last errno and the failed operation
// (from the extended code) fill in.
std::string Message(sqlite3* db) {
  std::string msg = sqlite3_errmsg(db);
  int sys = sqlite3_system_errno(db);
  int rc = sqlite3_extended_errcode(db);
  const int primary = rc & 0xff;
  if (primary != SQLITE_IOERR && primary != SQLITE_FULL && primary != SQLITE_CANTOPEN) {
    return msg;
  }
  if (sys == 0 && primary == SQLITE_IOERR) {
    int last = 0;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_LAST_ERRNO, &last) == SQLITE_OK) sys = last;
  }
  std::string detail;
  if (const char* op = IoOperation(rc); *op != '\0') detail = std::string(op) + " failed";
  if (sys != 0) detail += (detail.empty() ? "" : ": ") + std::string(std::strerror(sys));
  if (!detail.empty()) msg += " (" + detail + ")";
  return msg;
}

}  // namespace

Status SqliteStatement::Run() {
  int rc = sqlite3_step(stmt_);
  // The message (and OS errno) before Reset() can replace them.
  std::string error = rc == SQLITE_DONE || rc == SQLITE_ROW ? std::string() : Message(db_);
  Reset();
  if (error.empty()) return Status::Ok();
  return Status::Error("sqlite: " + error);
}

bool SqliteStatement::NextRow(Status* status) {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) {
    *status = Status::Error("sqlite: " + Message(db_));
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
  return Status::Error(std::string(what) + ": " + Message(db_));
}

Status SqliteDb::Exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? Message(db_) : "unknown error";
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
