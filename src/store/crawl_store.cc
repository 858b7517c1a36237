#include "store/crawl_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "core/hash.h"
#include "store/page_warc.h"
#include "store/sqlite_db.h"

namespace topicrawl {
namespace {

constexpr char kSchemaVersion[] = "1";
constexpr char kDbName[] = "crawl.db";
constexpr char kWarcDir[] = "warc";

// docs/ARCHITECTURE.md fixes the five crawl tables; two more are ours:
//   warc_files    the committed length of every WARC file: the truncation
//                 point after a crash.
//   frontier_log  frontier inserts and state changes, appended in rowid
//                 order and merged into `frontier` in url_id order.
// Why the log: url_id is a random 64-bit hash and frontier's primary key, so
// each direct insert dirties a random B-tree page (about 4 KiB of WAL per
// 150-byte row once the table outgrows a batch): it cost 3/4 of AddPage
// with 100 links and 33 admitted rows. A sorted bulk merge of many rows
// shares pages instead (bench/store_bench.cc has the figures).
// links are inserted in from_id order, so links_from_id is a cheap append.
constexpr char kSchema[] = R"sql(
CREATE TABLE pages(id INTEGER PRIMARY KEY,
  url TEXT, final_url TEXT, status TEXT, http_code INTEGER, content_type TEXT,
  charset TEXT, fetched_at INTEGER, depth INTEGER, parent_id INTEGER,
  anchor TEXT, content_hash TEXT, size INTEGER, relevance REAL, link_score REAL,
  title TEXT, error TEXT, explanation TEXT,
  warc_file TEXT, warc_offset INTEGER, warc_length INTEGER);
CREATE INDEX pages_url ON pages(url);
CREATE TABLE links(from_id INTEGER, to_url TEXT, anchor TEXT, context TEXT,
  score REAL, explanation TEXT);
CREATE INDEX links_from_id ON links(from_id);
CREATE TABLE frontier(url_id INTEGER PRIMARY KEY, url TEXT, depth INTEGER,
  parent_id INTEGER, anchor TEXT, score REAL, explanation TEXT, state INTEGER);
CREATE TABLE events(id INTEGER PRIMARY KEY, at INTEGER, kind TEXT, detail TEXT);
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE warc_files(name TEXT PRIMARY KEY, length INTEGER,
  created_at INTEGER);
CREATE TABLE frontier_log(url_id INTEGER, url TEXT, depth INTEGER,
  parent_id INTEGER, anchor TEXT, score REAL, explanation TEXT, state INTEGER);
)sql";

std::string ErrnoText(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

// lstat result: 0 missing, 1 directory, 2 regular file, 3 symlink, 4 other.
int PathKind(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return 0;
  if (S_ISLNK(st.st_mode)) return 3;
  if (S_ISDIR(st.st_mode)) return 1;
  if (S_ISREG(st.st_mode)) return 2;
  return 4;
}

Status MakeDirs(const std::string& dir) {
  std::string partial;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    partial = dir.substr(0, pos);
    if (partial.empty()) continue;
    if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
      return Status::Error(ErrnoText("cannot create directory", partial));
    }
  }
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Status::Error("not a directory: " + dir);
  }
  return Status::Ok();
}

int64_t FileSize(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

int64_t AsInt64(UrlId id) { return static_cast<int64_t>(id); }

}  // namespace

// The connection and its prepared statements.
class CrawlStore::Db {
 public:
  std::unique_ptr<SqliteDb> conn;
  SqliteStatement insert_page, insert_link, log_frontier, merge_log, clear_log;
  SqliteStatement insert_event, set_meta, upsert_warc_file;
  SqliteStatement begin, commit, rollback;

  Status Prepare() {
    struct Item {
      SqliteStatement* stmt;
      const char* sql;
    };
    const Item items[] = {
        {&insert_page,
         "INSERT INTO pages(id,url,final_url,status,http_code,content_type,"
         "charset,fetched_at,depth,parent_id,anchor,content_hash,size,"
         "relevance,link_score,title,error,explanation,warc_file,warc_offset,"
         "warc_length) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"},
        {&insert_link,
         "INSERT INTO links(from_id,to_url,anchor,context,score,explanation) "
         "VALUES(?,?,?,?,?,?)"},
        {&log_frontier,
         "INSERT INTO frontier_log(url_id,url,depth,parent_id,anchor,score,"
         "explanation,state) VALUES(?,?,?,?,?,?,?,?)"},
        // In url_id order; for one url_id the earliest row supplies the
        // columns (first admission wins) and state only grows (0 -> 1).
        // "WHERE true" resolves the INSERT ... SELECT ... ON CONFLICT
        // parsing ambiguity (sqlite.org/lang_upsert.html, 2.2).
        {&merge_log,
         "INSERT INTO frontier(url_id,url,depth,parent_id,anchor,score,"
         "explanation,state) SELECT url_id,url,depth,parent_id,anchor,score,"
         "explanation,state FROM frontier_log WHERE true "
         "ORDER BY url_id, rowid "
         "ON CONFLICT(url_id) DO UPDATE SET state=max(state,excluded.state)"},
        {&clear_log, "DELETE FROM frontier_log"},
        {&insert_event, "INSERT INTO events(at,kind,detail) VALUES(?,?,?)"},
        {&set_meta, "INSERT OR REPLACE INTO meta(key,value) VALUES(?,?)"},
        {&upsert_warc_file,
         "INSERT INTO warc_files(name,length,created_at) VALUES(?,?,?) "
         "ON CONFLICT(name) DO UPDATE SET length=max(length,excluded.length)"},
        {&begin, "BEGIN"},
        {&commit, "COMMIT"},
        {&rollback, "ROLLBACK"},
    };
    for (const Item& item : items) {
      StatusOr<SqliteStatement> s = conn->Prepare(item.sql);
      if (!s.ok()) return s.status();
      *item.stmt = std::move(s).value();
    }
    return Status::Ok();
  }
};

CrawlStore::CrawlStore(std::string dir, const CrawlStoreOptions& options)
    : dir_(std::move(dir)), options_(options) {}

CrawlStore::~CrawlStore() { (void)Close(); }

StatusOr<std::unique_ptr<CrawlStore>> CrawlStore::Open(
    const std::string& dir, OpenMode mode, const CrawlStoreOptions& options) {
  if (dir.empty()) return Status::Error("crawl directory name is empty");
  std::string clean = dir;
  while (clean.size() > 1 && clean.back() == '/') clean.pop_back();
  std::unique_ptr<CrawlStore> store(new CrawlStore(clean, options));
  if (Status s = store->Init(mode); !s.ok()) {
    store->error_ = s;  // the destructor must not commit a half-made store
    return s;
  }
  return store;
}

Status CrawlStore::Init(OpenMode mode) {
  const std::string db_path = dir_ + "/" + kDbName;
  const std::string warc_dir = dir_ + "/" + kWarcDir;
  if (mode == OpenMode::kCreate) {
    if (Status s = MakeDirs(dir_); !s.ok()) return s;
  } else {
    struct stat st;
    if (::stat(dir_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      return Status::Error("no crawl directory " + dir_);
    }
  }
  if (Status s = AcquireLock(); !s.ok()) return s;
  const int db_kind = PathKind(db_path);
  if (db_kind != 0 && db_kind != 2) {
    return Status::Error(db_path + " is not a regular file; refusing to use it");
  }
  if (mode == OpenMode::kCreate) {
    if (Status s = ClearInterruptedCreate(); !s.ok()) return s;
  } else if (db_kind == 0) {
    return Status::Error(dir_ + " holds no crawl (" + kDbName + " missing)");
  }
  if (Status s = OpenDatabase(mode == OpenMode::kCreate); !s.ok()) return s;
  if (mode == OpenMode::kCreate) {
    if (Status s = CreateSchema(); !s.ok()) return s;
  } else if (Status s = CheckSchema(); !s.ok()) {
    return s;
  }
  // The schema commits before warc/ exists: a crash in between leaves a
  // resumable crawl whose warc/ is made here.
  const int warc_kind = PathKind(warc_dir);
  if (warc_kind == 0 && ::mkdir(warc_dir.c_str(), 0755) != 0) {
    return Status::Error(ErrnoText("cannot create directory", warc_dir));
  }
  if (warc_kind != 0 && warc_kind != 1) {
    return Status::Error(warc_dir + " is not a directory; refusing to use it");
  }
  if (mode == OpenMode::kCreate) {
    warc_ = WarcWriter::New(warc_dir, 1, options_.warc, options_.clock);
    return Status::Ok();
  }
  StatusOr<std::optional<std::string>> max_id =
      db_->conn->QueryText("SELECT coalesce(max(id),0) FROM pages");
  if (!max_id.ok()) return max_id.status();
  next_page_id_ = std::stoll(max_id->value_or("0")) + 1;
  StatusOr<std::optional<std::string>> log_rows =
      db_->conn->QueryText("SELECT count(*) FROM frontier_log");
  if (!log_rows.ok()) return log_rows.status();
  log_rows_ = std::stoll(log_rows->value_or("0"));
  resumed_ = true;
  if (Status s = MergeFrontierLog(); !s.ok()) return s;
  return RepairWarcFiles();
}

Status CrawlStore::AcquireLock() {
  // One process per crawl directory; the lock dies with the process.
  const std::string lock_path = dir_ + "/LOCK";
  lock_fd_ = ::open(lock_path.c_str(),
                    O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) return Status::Error(ErrnoText("cannot open", lock_path));
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    return Status::Error(dir_ + " is in use by another topicrawl process");
  }
  return Status::Ok();
}

Status CrawlStore::ClearInterruptedCreate() {
  const std::string db_path = dir_ + "/" + kDbName;
  const std::string warc_dir = dir_ + "/" + kWarcDir;
  const std::string in_use = dir_ + " already holds a crawl; resume it or " +
                             "choose a new directory";
  if (PathKind(db_path) == 2) {
    // A database without a committed schema is what a crash during a
    // previous kCreate leaves; anything else is a crawl.
    StatusOr<std::unique_ptr<SqliteDb>> old = SqliteDb::Open(db_path, false);
    if (!old.ok()) return Status::Error(in_use);
    StatusOr<std::optional<std::string>> tables =
        (*old)->QueryText("SELECT count(*) FROM sqlite_master");
    if (!tables.ok() || tables->value_or("1") != "0") {
      return Status::Error(in_use);
    }
    old->reset();
    for (const char* suffix : {"", "-wal", "-shm"}) {
      const std::string path = db_path + suffix;
      if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
        return Status::Error(ErrnoText("cannot remove", path));
      }
    }
  }
  // An empty warc/ is harmless; one with files belongs to a crawl.
  if (PathKind(warc_dir) != 0 && ::rmdir(warc_dir.c_str()) != 0) {
    return Status::Error(in_use + " (" + warc_dir + " is not empty)");
  }
  return Status::Ok();
}

Status CrawlStore::OpenDatabase(bool create) {
  const std::string db_path = dir_ + "/" + kDbName;
  StatusOr<std::unique_ptr<SqliteDb>> conn = SqliteDb::Open(db_path, create);
  if (!conn.ok()) return conn.status();
  db_ = std::make_unique<Db>();
  db_->conn = std::move(conn).value();
  Status s = db_->conn->Exec(std::string("PRAGMA journal_mode=WAL;") +
                             "PRAGMA synchronous=" +
                             (options_.sync ? "FULL" : "NORMAL") + ";" +
                             "PRAGMA cache_size=-65536;" +
                             "PRAGMA temp_store=MEMORY;");
  if (!s.ok()) return Status::Error(db_path + ": " + s.message());
  return Status::Ok();
}

Status CrawlStore::CreateSchema() {
  if (Status s = db_->conn->Exec(std::string("BEGIN;") + kSchema); !s.ok()) {
    return s;
  }
  if (Status s = db_->Prepare(); !s.ok()) return s;
  in_batch_ = true;
  batch_started_ = options_.clock->Now();
  if (Status s = SetMeta("schema_version", kSchemaVersion); !s.ok()) return s;
  if (Status s = SetMeta("created_at",
                         std::to_string(options_.clock->UnixMillis()));
      !s.ok()) {
    return s;
  }
  if (Status s = AddEvent("created", dir_); !s.ok()) return s;
  return Commit();
}

Status CrawlStore::CheckSchema() {
  const std::string db_path = dir_ + "/" + kDbName;
  SqliteDb& db = *db_->conn;
  StatusOr<std::optional<std::string>> tables =
      db.QueryText("SELECT count(*) FROM sqlite_master");
  if (!tables.ok()) {
    return Status::Error(db_path + " is not a topicrawl crawl database (" +
                         tables.status().message() + ")");
  }
  if (tables->value_or("0") == "0") {
    return Status::Error(dir_ + " holds no crawl (its creation was " +
                         "interrupted; create it again)");
  }
  StatusOr<std::optional<std::string>> version =
      db.QueryText("SELECT value FROM meta WHERE key='schema_version'");
  if (!version.ok() || !version->has_value()) {
    return Status::Error(db_path + " is not a topicrawl crawl database");
  }
  if (**version != kSchemaVersion) {
    return Status::Error(db_path + " has schema version " + **version +
                         ", this build reads " + kSchemaVersion);
  }
  return db_->Prepare();
}

Status CrawlStore::RepairWarcFiles() {
  const std::string warc_dir = dir_ + "/" + kWarcDir;
  // Committed extent of every file: warc_files.length, or the end of its
  // last page if larger (never the case for files we wrote).
  std::map<std::string, int64_t> committed;
  {
    StatusOr<SqliteStatement> q = db_->conn->Prepare(
        "SELECT name, length FROM warc_files UNION ALL "
        "SELECT substr(warc_file, 6), max(warc_offset + warc_length) FROM pages "
        "WHERE warc_file IS NOT NULL GROUP BY warc_file");
    if (!q.ok()) return q.status();
    Status status;
    while (q->NextRow(&status)) {
      std::string name = q->Text(0);
      // Names come from a file on disk: never let one point elsewhere.
      if (!ParseWarcFileName(name, nullptr)) {
        return Status::Error("crawl.db names an invalid WARC file '" + name +
                             "'; refusing to touch it");
      }
      int64_t& end = committed[name];
      end = std::max(end, q->Int(1));
    }
    if (!status.ok()) return status;
  }
  uint32_t max_seq = 0;
  int truncated = 0, deleted = 0;
  int64_t dropped_bytes = 0;
  std::string problems;
  std::set<std::string> seen;
  DIR* d = ::opendir(warc_dir.c_str());
  if (d == nullptr) return Status::Error(ErrnoText("cannot list", warc_dir));
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) names.emplace_back(e->d_name);
  ::closedir(d);
  for (const std::string& name : names) {
    uint32_t seq = 0;
    if (!ParseWarcFileName(name, &seq)) continue;  // not ours: left alone
    max_seq = std::max(max_seq, seq);
    const std::string path = warc_dir + "/" + name;
    if (PathKind(path) != 2) {
      return Status::Error(path + " is not a regular file; refusing to touch it");
    }
    auto it = committed.find(name);
    const int64_t size = FileSize(path);
    if (it == committed.end()) {
      // Created by a session that never committed a page into it.
      if (::unlink(path.c_str()) != 0) {
        return Status::Error(ErrnoText("cannot delete", path));
      }
      ++deleted;
      dropped_bytes += size;
      continue;
    }
    seen.insert(name);
    if (size > it->second) {
      int fd = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0 || ::ftruncate(fd, it->second) != 0) {
        Status s = Status::Error(ErrnoText("cannot truncate", path));
        if (fd >= 0) ::close(fd);
        return s;
      }
      ::close(fd);
      ++truncated;
      dropped_bytes += size - it->second;
    } else if (size < it->second) {
      problems += " " + name + " is shorter (" + std::to_string(size) +
                  ") than committed (" + std::to_string(it->second) + ");";
    }
  }
  for (const auto& [name, end] : committed) {
    uint32_t seq = 0;
    ParseWarcFileName(name, &seq);
    max_seq = std::max(max_seq, seq);
    if (!seen.count(name)) problems += " " + name + " is missing;";
  }
  warc_ = WarcWriter::New(warc_dir, max_seq + 1, options_.warc, options_.clock);
  std::string detail = "truncated " + std::to_string(truncated) +
                       " WARC file(s), deleted " + std::to_string(deleted) +
                       ", dropped " + std::to_string(dropped_bytes) +
                       " uncommitted bytes; next page id " +
                       std::to_string(next_page_id_);
  if (Status s = AddEvent("resumed", detail); !s.ok()) return s;
  if (!problems.empty()) {
    if (Status s = AddEvent("warc_damaged", problems); !s.ok()) return s;
  }
  return Commit();
}

Status CrawlStore::Fail(Status s) {
  if (error_.ok()) error_ = s;
  if (in_batch_ && db_ != nullptr) {
    (void)db_->rollback.Run();
    in_batch_ = false;
  }
  return error_;
}

Status CrawlStore::BeginIfNeeded() {
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
  if (in_batch_) return Status::Ok();
  if (Status s = db_->begin.Run(); !s.ok()) return Fail(s);
  in_batch_ = true;
  batch_started_ = options_.clock->Now();
  batch_pages_ = 0;
  return Status::Ok();
}

Status CrawlStore::MaybeCommit() {
  if (!in_batch_) return Status::Ok();
  if (batch_pages_ >= options_.commit_max_pages ||
      options_.clock->Now() - batch_started_ >= options_.commit_interval) {
    return Commit();
  }
  return Status::Ok();
}

Status CrawlStore::Commit() {
  if (!error_.ok()) return error_;
  if (!in_batch_) return Status::Ok();
  // WARC bytes reach the OS before the rows that point at them commit.
  if (warc_ != nullptr) {
    if (Status s = warc_->Flush(options_.sync); !s.ok()) return Fail(s);
  }
  if (options_.frontier_merge_rows > 0 &&
      log_rows_ >= options_.frontier_merge_rows) {
    if (Status s = MergeFrontierLog(); !s.ok()) return s;
  }
  const int64_t now = options_.clock->UnixMillis();
  for (const auto& [name, end] : pending_warc_ends_) {
    SqliteStatement& st = db_->upsert_warc_file;
    st.BindText(1, name);
    st.BindInt(2, static_cast<int64_t>(end));
    st.BindInt(3, now);
    if (Status s = st.Run(); !s.ok()) return Fail(s);
  }
  if (Status s = db_->commit.Run(); !s.ok()) return Fail(s);
  pending_warc_ends_.clear();
  in_batch_ = false;
  batch_pages_ = 0;
  return Status::Ok();
}

StatusOr<PageId> CrawlStore::AddPage(PageRecord&& page) {
  if (Status s = BeginIfNeeded(); !s.ok()) return s;
  const PageId id = next_page_id_;
  std::vector<WarcRecord> records =
      BuildPageWarcRecords(page, id, warc_->rng());
  std::optional<WarcSpan> span;
  if (!records.empty()) {
    StatusOr<WarcSpan> written = warc_->Append(records);
    if (!written.ok()) return Fail(written.status());
    span = std::move(written).value();
    pending_warc_ends_[span->file] = span->offset + span->length;
  }
  if (Status s = WritePageRows(page, id, span ? &*span : nullptr); !s.ok()) {
    return Fail(s);
  }
  ++next_page_id_;
  ++batch_pages_;
  if (Status s = MaybeCommit(); !s.ok()) return s;
  return id;
}

Status CrawlStore::WritePageRows(const PageRecord& page, PageId id,
                                 const WarcSpan* span) {
  SqliteStatement& p = db_->insert_page;
  const std::string hash = !page.content_hash.empty() ? page.content_hash
                           : page.body.empty()        ? std::string()
                                                      : Hash64Hex(page.body);
  const std::string warc_file = span ? std::string(kWarcDir) + "/" + span->file
                                     : std::string();
  p.BindInt(1, id);
  p.BindText(2, page.url);
  p.BindText(3, page.final_url);
  p.BindText(4, FetchStatusName(page.status));
  p.BindInt(5, page.http_code);
  p.BindText(6, page.content_type);
  p.BindText(7, page.charset);
  p.BindInt(8, page.fetched_at);
  p.BindInt(9, page.depth);
  p.BindIdOrNull(10, page.parent_id);
  p.BindText(11, page.anchor);
  p.BindText(12, hash);
  p.BindInt(13, page.size >= 0 ? page.size : int64_t(page.body.size()));
  if (page.relevance) p.BindDouble(14, *page.relevance);
  p.BindDouble(15, page.link_score);
  p.BindText(16, page.title);
  p.BindText(17, page.error);
  p.BindText(18, page.explanation);
  if (span) {
    p.BindText(19, warc_file);
    p.BindInt(20, static_cast<int64_t>(span->offset));
    p.BindInt(21, static_cast<int64_t>(span->length));
  }
  if (Status s = p.Run(); !s.ok()) return s;

  SqliteStatement& l = db_->insert_link;
  for (const LinkRecord& link : page.links) {
    l.BindInt(1, id);
    l.BindText(2, link.to_url);
    l.BindText(3, link.anchor);
    l.BindText(4, link.context);
    l.BindDouble(5, link.score);
    l.BindText(6, link.explanation);
    if (Status s = l.Run(); !s.ok()) return s;
  }
  for (const FrontierRecord& row : page.admitted) {
    if (Status s = LogFrontier(row, 0); !s.ok()) return s;
  }
  FrontierRecord self;
  self.url_id = page.url_id;
  self.url = page.url;
  self.depth = page.depth;
  self.parent_id = page.parent_id;
  self.anchor = page.anchor;
  self.score = page.link_score;
  return LogFrontier(self, 1);
}

Status CrawlStore::LogFrontier(const FrontierRecord& row, int state) {
  SqliteStatement& f = db_->log_frontier;
  f.BindInt(1, AsInt64(row.url_id));
  f.BindText(2, row.url);
  f.BindInt(3, row.depth);
  f.BindIdOrNull(4, row.parent_id);
  f.BindText(5, row.anchor);
  f.BindDouble(6, row.score);
  f.BindText(7, row.explanation);
  f.BindInt(8, state);
  ++log_rows_;
  return f.Run();
}

Status CrawlStore::MergeFrontierLog() {
  if (log_rows_ == 0) return Status::Ok();
  if (Status s = BeginIfNeeded(); !s.ok()) return s;
  if (Status s = db_->merge_log.Run(); !s.ok()) return Fail(s);
  if (Status s = db_->clear_log.Run(); !s.ok()) return Fail(s);
  log_rows_ = 0;
  return Status::Ok();
}

Status CrawlStore::AddSeeds(const std::vector<FrontierRecord>& rows) {
  if (Status s = BeginIfNeeded(); !s.ok()) return s;
  for (const FrontierRecord& row : rows) {
    if (Status s = LogFrontier(row, 0); !s.ok()) return Fail(s);
  }
  return MaybeCommit();
}

Status CrawlStore::AddEvent(const std::string& kind, const std::string& detail) {
  if (Status s = BeginIfNeeded(); !s.ok()) return s;
  SqliteStatement& e = db_->insert_event;
  e.BindInt(1, options_.clock->UnixMillis());
  e.BindText(2, kind);
  e.BindText(3, detail);
  if (Status s = e.Run(); !s.ok()) return Fail(s);
  return MaybeCommit();
}

Status CrawlStore::SetMeta(const std::string& key, const std::string& value) {
  if (Status s = BeginIfNeeded(); !s.ok()) return s;
  SqliteStatement& m = db_->set_meta;
  m.BindText(1, key);
  m.BindText(2, value);
  if (Status s = m.Run(); !s.ok()) return Fail(s);
  return MaybeCommit();
}

StatusOr<std::optional<std::string>> CrawlStore::GetMeta(
    const std::string& key) {
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
  StatusOr<SqliteStatement> q =
      db_->conn->Prepare("SELECT value FROM meta WHERE key=?");
  if (!q.ok()) return q.status();
  q->BindText(1, key);
  Status status;
  if (q->NextRow(&status)) return std::optional<std::string>(q->Text(0));
  if (!status.ok()) return status;
  return std::optional<std::string>();
}

Status CrawlStore::SaveConfigSnapshot(const std::string& toml_text) {
  if (!error_.ok()) return error_;
  const std::string path = dir_ + "/config.toml";
  const std::string tmp = path + ".tmp";
  ::unlink(tmp.c_str());  // a leftover from a crash
  int fd = ::open(tmp.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error(ErrnoText("cannot create", tmp));
  const char* data = toml_text.data();
  size_t left = toml_text.size();
  while (left > 0) {
    ssize_t w = ::write(fd, data, left);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      Status s = Status::Error(ErrnoText("cannot write", tmp));
      ::close(fd);
      return s;
    }
    data += w;
    left -= static_cast<size_t>(w);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    return Status::Error(ErrnoText("cannot write", tmp));
  }
  // rename() replaces a symlink named config.toml, never its target.
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    return Status::Error(ErrnoText("cannot rename to", path));
  }
  return Status::Ok();
}

Status CrawlStore::CommitIfDue() {
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
  return MaybeCommit();
}

Status CrawlStore::Flush() {
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
  return Commit();
}

Status CrawlStore::Close() {
  if (closed_) return error_;
  Status s = error_;
  if (s.ok() && db_ != nullptr) s = MergeFrontierLog();
  if (s.ok() && db_ != nullptr) s = Commit();
  if (warc_ != nullptr) {
    Status w = warc_->Flush();
    if (s.ok()) s = w;
    warc_.reset();
  }
  db_.reset();
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
  lock_fd_ = -1;
  closed_ = true;
  if (!s.ok() && error_.ok()) error_ = s;
  return s;
}

Status CrawlStore::LoadFrontier(
    const std::function<bool(const FrontierRecord&)>& visit) {
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
  if (Status s = MergeFrontierLog(); !s.ok()) return s;
  StatusOr<SqliteStatement> q = db_->conn->Prepare(
      "SELECT url_id,url,depth,parent_id,anchor,score,explanation,state "
      "FROM frontier");
  if (!q.ok()) return q.status();
  Status status;
  FrontierRecord row;
  while (q->NextRow(&status)) {
    row.url_id = static_cast<UrlId>(q->Int(0));
    row.url = q->Text(1);
    row.depth = static_cast<uint32_t>(q->Int(2));
    row.parent_id = q->Int(3);
    row.anchor = q->Text(4);
    row.score = q->Double(5);
    row.explanation = q->Text(6);
    row.state = static_cast<int>(q->Int(7));
    if (!visit(row)) break;
  }
  return status;
}

Status CrawlStore::LoadPages(
    const std::function<bool(const PageSummary&)>& visit) {
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
  StatusOr<SqliteStatement> q = db_->conn->Prepare(
      "SELECT id,url,final_url,status,http_code,depth,parent_id,relevance,"
      "link_score FROM pages ORDER BY id");
  if (!q.ok()) return q.status();
  Status status;
  PageSummary page;
  while (q->NextRow(&status)) {
    page.id = q->Int(0);
    page.url = q->Text(1);
    page.final_url = q->Text(2);
    page.status = q->Text(3);
    page.http_code = static_cast<int>(q->Int(4));
    page.depth = static_cast<uint32_t>(q->Int(5));
    page.parent_id = q->Int(6);
    page.relevance = q->IsNull(7) ? std::nullopt
                                  : std::optional<double>(q->Double(7));
    page.link_score = q->Double(8);
    if (!visit(page)) break;
  }
  return status;
}

StatusOr<PageStats> CrawlStore::LoadPageStats() {
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
  if (Status s = MergeFrontierLog(); !s.ok()) return s;
  PageStats stats;
  StatusOr<SqliteStatement> q = db_->conn->Prepare(
      "SELECT status, count(*), max(id), total(relevance) FROM pages "
      "GROUP BY status");
  if (!q.ok()) return q.status();
  Status status;
  while (q->NextRow(&status)) {
    const std::string name = q->Text(0);
    const int64_t count = q->Int(1);
    stats.by_status[name] = count;
    stats.pages += count;
    stats.max_page_id = std::max(stats.max_page_id, q->Int(2));
    if (name == FetchStatusName(FetchStatus::kOk)) {
      stats.ok_pages = count;
      stats.relevance_sum = q->Double(3);
    }
  }
  if (!status.ok()) return status;
  StatusOr<SqliteStatement> f = db_->conn->Prepare(
      "SELECT count(*), total(state = 0) FROM frontier");
  if (!f.ok()) return f.status();
  if (f->NextRow(&status)) {
    stats.frontier_rows = f->Int(0);
    stats.frontier_queued = static_cast<int64_t>(f->Double(1));
  }
  if (!status.ok()) return status;
  return stats;
}

}  // namespace topicrawl
