// Opening a crawl directory: create (schema), resume (schema check, WARC
// repair), the lock, and the path checks that keep the store inside DIR.
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <set>

#include "store/crawl_store.h"
#include "store/crawl_store_internal.h"

namespace topicrawl {

namespace store_internal {

std::string ErrnoText(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace store_internal

using store_internal::ErrnoText;
using store_internal::kDbName;
using store_internal::kOldestSchemaVersion;
using store_internal::kSchemaVersion;
using store_internal::kWarcDir;

namespace {

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
// Schema 2 (kSchemaVersion) keeps a page's outlinks as one JSON text in
// page_links(from_id, links) (store/links_json.h), and `links` is a view
// that expands it with json_each() into the documented columns (plus ord,
// the link's position on the page). Why: a dev-web page has ~230 links;
// as rows they were ~85% of the database and half of the store thread's
// CPU (0.16 ms a page, bench/crawl_throughput/pages_per_second.sh: one B-tree insert per link,
// even 64 rows per statement and WITHOUT ROWID), as one row they are one
// insert of ~30 KB. Reading through the view costs a JSON parse per page,
// and `WHERE from_id = ?` still uses page_links' primary key. Schema 1
// directories (links as rows) keep their layout when resumed
// (Db::schema_version picks the statements).
//
// Schema 3 adds rounds (issue 11; docs/guides/rounds.md):
//   pages.round        the round that stored this version (a URL has one
//                      pages row per version: its first fetch, and every
//                      revisit that found new content)
//   pages.near_dup_of  id of an earlier page whose SimHash is within 3 bits
//   fetches            one row per (URL, round) fetched: state (UrlState),
//                      HTTP code, bytes, the version valid afterwards
//                      (page_id), content digest, SimHash, validators, new
//                      links admitted, outlinks of the version. WITHOUT ROWID with the key (url_id,
//                      round): a URL's history is one contiguous range, the
//                      version of a URL in round K one seek, and no index.
//                      Integers only but for the validators (NULL when the
//                      server sent none); no URL text (frontier has it).
//   revisits           the current round's plan: url_id -> priority.
// A revisit that kept the version (304, equal digest, gone, failed) writes
// no pages row: only its fetches row and WARC records.
//
// Schema 4 (issue 12: a crawl that ends within seconds, a compact store):
//   frontier_log  is the frontier: every admission and every state change,
//                 appended in rowid order and never merged (a rowid table
//                 without an index: appends touch the last B-tree page
//                 only). Schema 3's merge at close rewrote a url_id-keyed
//                 table (~20 s at 2 M rows, growing with the crawl).
//   frontier      a view with the documented columns: one row per url_id,
//                 the columns of its first row (first admission wins), state
//                 the maximum over its rows; INSTEAD OF triggers turn an
//                 INSERT or a state UPDATE into an appended row (crawl
//                 merge writes through it). A view query sorts the whole
//                 log; the store's own readers stream the log instead
//                 (CrawlStore::LoadFrontier).
//   page_links    compact JSON (store/links_json.h AppendCompactLinksJson):
//                 URLs in the page's directory as ".rest", other same-origin
//                 URLs as paths, 6-digit scores, no empty trailing fields;
//                 `links` joins pages for the page URL they are cut from.
//
// Schema 5 (issue 12: resume and bytes at 10^7 admitted URLs):
//   frontier_state  a URL's state changes (a fetched page's "done", an
//                 UPDATE through the view): (url_id, state, page_id: the
//                 stored page, NULL through the view), appended. In
//                 schema 4 each was a frontier_log row repeating the URL,
//                 anchor, depth, parent and score (~100 bytes; 3 a stored
//                 page on the synthetic web, whose refusals are pages too):
//                 now ~17 bytes. frontier_log keeps the admissions only, and
//                 a resume reads the done url_ids from this small table
//                 instead of a scan of the whole log.
//   frontier_log  a URL admitted by a stored page (parent_id) is kept cut
//                 from that page's URL like page_links' ("." + the rest in
//                 its directory, its path on the same origin; ~25 of a
//                 row's ~105 bytes); the view joins it back. Seeds and rows
//                 with an explanation keep the whole URL.
//   frontier      the view takes the columns from the URL's first
//                 frontier_log row and state = the maximum over both tables;
//                 a URL stored without an admission row (a page stored by a
//                 caller that did not queue it) takes them from its page.
//
// Schema 6 (issue 12: bytes per stored page at 10^6 pages):
//   refusals      a URL the crawler refused before any fetch (a URL-trap
//                 rule: FetchStatus kTrapRefused) gets no pages row: its
//                 frontier_state done row carries `reason`, an id into
//                 refusal_reasons(id, status, error), where each distinct
//                 (status, error) text is stored once, plus `at` and
//                 `round` (NULL on other state rows). The URL, depth,
//                 parent, anchor and score are its admission row's. Nor
//                 does it get a fetches row (~45 bytes): nothing was
//                 fetched, and rounds plan revisits of stored versions
//                 only (a refused URL has none either way). At 10^6
//                 pages of the synthetic web there are ~2 refusals an ok
//                 page, and each was a ~220-byte pages row (URL, a ~100-byte
//                 reason naming the URL pattern, anchor) plus a ~75-byte
//                 pages_url entry: ~0.6 KB an ok page of 3.2 KB. The view
//                 `refusals` gives them back with their reason (one join of
//                 frontier_log by url_id: SQLite builds a transient index).
//                 Other failures (robots, HTTP errors, host_failed...) stay
//                 pages rows, as does every refusal of schemas 1-5.
//
// Schema 7 (issue 12: speed that does not decay with the store's size):
//   fetches       a rowid table, appended in fetch order, plus the UNIQUE
//                 index fetches_key(url_id, round) (same lookups, same
//                 INSERT OR IGNORE conflict). Schemas 3-6 keyed the whole
//                 row (~60 bytes) by (url_id, round) WITHOUT ROWID: url_id
//                 is a random hash, so at 10^6 pages a 1 s batch dirtied
//                 nearly every one of the table's ~1,000 64 KiB leaves and
//                 each commit wrote them all to the WAL (and the checkpoint
//                 again), a cost per page that grew with the crawl. Now the
//                 random-order tree is the index (~20 bytes an entry: ~1/3
//                 of the leaves) and the rows go to the table's last leaf.
//                 A URL's history is still one index range.
constexpr char kSchema[] = R"sql(
CREATE TABLE pages(id INTEGER PRIMARY KEY,
  url TEXT, final_url TEXT, status TEXT, http_code INTEGER, content_type TEXT,
  charset TEXT, fetched_at INTEGER, depth INTEGER, parent_id INTEGER,
  anchor TEXT, content_hash TEXT, size INTEGER, relevance REAL, link_score REAL,
  title TEXT, error TEXT, explanation TEXT,
  warc_file TEXT, warc_offset INTEGER, warc_length INTEGER,
  round INTEGER, near_dup_of INTEGER);
CREATE TABLE fetches(url_id INTEGER, round INTEGER, at INTEGER,
  state INTEGER, http_code INTEGER, bytes INTEGER, page_id INTEGER,
  digest INTEGER, simhash INTEGER, etag TEXT, last_modified TEXT,
  new_links INTEGER, out_links INTEGER, revisit INTEGER);
CREATE UNIQUE INDEX fetches_key ON fetches(url_id, round);
CREATE TABLE revisits(url_id INTEGER PRIMARY KEY, priority REAL)
  WITHOUT ROWID;
CREATE INDEX pages_url ON pages(url);
CREATE TABLE page_links(from_id INTEGER PRIMARY KEY, links TEXT NOT NULL);
CREATE TABLE frontier_log(url_id INTEGER, url TEXT, depth INTEGER,
  parent_id INTEGER, anchor TEXT, score REAL, explanation TEXT, state INTEGER);
CREATE VIEW links(from_id, ord, to_url, anchor, context, score, explanation) AS
  SELECT p.from_id, j.key,
         CASE substr(j.value->>0, 1, 1)
           WHEN '/' THEN substr(g.url, 1, instr(substr(g.url, 9), '/') + 7) || (j.value->>0)
           WHEN '.' THEN rtrim(g.url, replace(g.url, '/', '')) || substr(j.value->>0, 2)
           ELSE j.value->>0 END,
         j.value->>1, coalesce(j.value->>3, ''), j.value->>2, coalesce(j.value->>4, '')
  FROM page_links AS p JOIN pages AS g ON g.id = p.from_id, json_each(p.links) AS j;
CREATE TABLE frontier_state(url_id INTEGER, state INTEGER, page_id INTEGER,
  reason INTEGER, at INTEGER, round INTEGER);
CREATE TABLE refusal_reasons(id INTEGER PRIMARY KEY, status TEXT, error TEXT);
CREATE VIEW refusals(url_id, url, status, error, at, round, depth, parent_id,
                     anchor, score) AS
  SELECT s.url_id,
         CASE substr(f.url, 1, 1)
           WHEN '/' THEN substr(pp.url, 1, instr(substr(pp.url, 9), '/') + 7) || f.url
           WHEN '.' THEN rtrim(pp.url, replace(pp.url, '/', '')) || substr(f.url, 2)
           ELSE f.url END,
         r.status, r.error, s.at, s.round, f.depth, f.parent_id, f.anchor, f.score
  FROM frontier_state AS s JOIN refusal_reasons AS r ON r.id = s.reason
  JOIN frontier_log AS f ON f.url_id = s.url_id
  LEFT JOIN pages AS pp ON pp.id = f.parent_id;
CREATE VIEW frontier(url_id, url, depth, parent_id, anchor, score, explanation,
                     state) AS
  SELECT f.url_id,
         CASE WHEN f.k = 1 THEN g.url
              WHEN substr(f.url, 1, 1) = '/' THEN
                substr(pp.url, 1, instr(substr(pp.url, 9), '/') + 7) || f.url
              WHEN substr(f.url, 1, 1) = '.' THEN
                rtrim(pp.url, replace(pp.url, '/', '')) || substr(f.url, 2)
              ELSE f.url END,
         coalesce(f.depth, g.depth),
         iif(f.k = 0, f.parent_id, g.parent_id), coalesce(f.anchor, g.anchor),
         coalesce(f.score, g.link_score), coalesce(f.explanation, ''), f.state
  FROM (
    SELECT k, url_id, url, depth, parent_id, anchor, score, explanation, page_id,
           max(state) OVER w AS state, row_number() OVER w AS n
    FROM (SELECT 0 AS k, rowid AS r, url_id, url, depth, parent_id, anchor,
                 score, explanation, state, NULL AS page_id FROM frontier_log
          UNION ALL
          SELECT 1, rowid, url_id, NULL, NULL, NULL, NULL, NULL, NULL, state,
                 page_id FROM frontier_state)
    WINDOW w AS (PARTITION BY url_id ORDER BY k, r
                 ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)) AS f
  LEFT JOIN pages AS g ON f.k = 1 AND g.id = f.page_id
  LEFT JOIN pages AS pp ON f.k = 0 AND pp.id = f.parent_id
  WHERE f.n = 1;
CREATE TRIGGER frontier_insert INSTEAD OF INSERT ON frontier BEGIN
  INSERT INTO frontier_log(url_id, url, depth, parent_id, anchor, score,
                           explanation, state)
  VALUES(new.url_id, new.url, new.depth, new.parent_id, new.anchor, new.score,
         new.explanation, coalesce(new.state, 0));
END;
CREATE TRIGGER frontier_update INSTEAD OF UPDATE OF state ON frontier
  WHEN new.state > old.state BEGIN
  INSERT INTO frontier_state(url_id, state) VALUES(old.url_id, new.state);
END;
CREATE TABLE events(id INTEGER PRIMARY KEY, at INTEGER, kind TEXT, detail TEXT);
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE warc_files(name TEXT PRIMARY KEY, length INTEGER,
  created_at INTEGER);
)sql";

// Page size of new databases. Bigger pages cut SQLite's per-page work (B-tree
// splits, WAL frame headers and checksums, one pwrite per frame on commit
// and a pread + pwrite per page on checkpoint): with 230 links rows a page,
// 16 KiB pages took 351 us of CPU a page vs 4 KiB's ~400 us
// (bench/store_bench.cc, realistic case); 32 KiB gained nothing more in CPU.
// 64 KiB because of the bytes: page_links rows (a page's outlinks) of a few
// KiB left 8 % of 16 KiB pages unused; at 10^6 pages (bench/large_crawl/million_page_crawl.sh,
// idle, one run each) crawl.db is 2,464 B per ok page vs 2,544 at 16 KiB,
// CPU 551 vs 560 s, resume 38.5 vs 35.4 s. The price: a random page read
// (explain, recrawl's page facts) reads 64 KiB, and the WAL reaches 64 MB
// before its automatic checkpoint (1,000 pages). It only applies to a new
// file: older databases keep their page size.
constexpr int kPageSize = 65536;

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

}  // namespace

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
  resumed_ = true;
  if (db_->schema_version < 4) {
    // Schemas 1-3 keep their merged frontier table: merged here as before.
    StatusOr<std::optional<std::string>> log_rows =
        db_->conn->QueryText("SELECT count(*) FROM frontier_log");
    if (!log_rows.ok()) return log_rows.status();
    log_rows_ = std::stoll(log_rows->value_or("0"));
    if (Status s = MergeFrontierLog(); !s.ok()) return s;
  }
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
  // page_size must precede the first write (journal_mode=WAL writes).
  const std::string page_size =
      create ? "PRAGMA page_size=" + std::to_string(kPageSize) + ";" : "";
  Status s = db_->conn->Exec(page_size + "PRAGMA journal_mode=WAL;" +
                             "PRAGMA synchronous=" +
                             (options_.sync ? "FULL" : "NORMAL") + ";" +
                             // 256 MiB: the random-order trees (pages_url,
                             // fetches: ~130 MB at 10^6 pages) and a 1 s
                             // batch's dirty leaves stay in the cache; with
                             // 64 MiB each insert past ~4 x 10^5 pages read
                             // its leaf back (pread of 64 KiB) and a batch
                             // spilled dirty pages to the WAL mid-transaction.
                             // The cache only fills as the file grows.
                             "PRAGMA cache_size=-262144;" +
                             // Not MEMORY: the close's frontier merge sorts
                             // every logged row, and an in-memory sorter grew
                             // by ~2 KB a crawled page (heaptrack, issue 12);
                             // on disk it spills past the cache size.
                             "PRAGMA temp_store=FILE;");
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
  if (Status s = SetMeta("schema_version", std::to_string(kSchemaVersion));
      !s.ok()) {
    return s;
  }
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
  int number = 0;
  const std::string& text = **version;
  const auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || end != text.data() + text.size() ||
      number < kOldestSchemaVersion || number > kSchemaVersion) {
    const bool newer = ec == std::errc() && end == text.data() + text.size() &&
                       number > kSchemaVersion;
    return Status::Error(db_path + " has schema version " + text +
                         ", this build reads " +
                         std::to_string(kOldestSchemaVersion) + " to " +
                         std::to_string(kSchemaVersion) +
                         (newer ? " (the crawl was made by a newer topicrawl; "
                                  "nothing was changed)"
                                : ""));
  }
  db_->schema_version = number;
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

}  // namespace topicrawl
