#include "store/crawl_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/hash.h"
#include "store/crawl_store_internal.h"
#include "store/sha1.h"
#include "store/warc_reader.h"
#include "store/links_json.h"
#include "store/page_warc.h"
#include "store/sqlite_db.h"

namespace topicrawl {

using store_internal::ErrnoText;
using store_internal::kWarcDir;

namespace {

int64_t AsInt64(UrlId id) { return static_cast<int64_t>(id); }

}  // namespace

Status CrawlStore::Db::Prepare() {
  struct Item {
    SqliteStatement* stmt;
    const char* sql;
  };
  const Item items[] = {
      // Schema 2: one JSON text a page; schema 1 (resumed old directories):
      // one links row a link.
      {&insert_links,
       schema_version >= 2
           ? "INSERT INTO page_links(from_id,links) VALUES(?,?)"
           : "INSERT INTO links(from_id,to_url,anchor,context,score,explanation) "
             "VALUES(?,?,?,?,?,?)"},
      {&insert_page,
       schema_version >= 3
           ? "INSERT INTO pages(id,url,final_url,status,http_code,content_type,"
             "charset,fetched_at,depth,parent_id,anchor,content_hash,size,"
             "relevance,link_score,title,error,explanation,warc_file,warc_offset,"
             "warc_length,round,near_dup_of) "
             "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
           : "INSERT INTO pages(id,url,final_url,status,http_code,content_type,"
             "charset,fetched_at,depth,parent_id,anchor,content_hash,size,"
             "relevance,link_score,title,error,explanation,warc_file,warc_offset,"
             "warc_length) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"},
      // Schema 3 only (the SQL of older schemas is a harmless no-op).
      // OR IGNORE: a URL is fetched at most once a round; should a second
      // fetch ever reach the store, the first one stays.
      {&insert_fetch,
       schema_version >= 3
           ? "INSERT OR IGNORE INTO fetches(url_id,round,at,state,http_code,bytes,"
             "page_id,digest,simhash,etag,last_modified,new_links,out_links,revisit) "
             "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
           : "SELECT 1"},
      {&version_page,
       "SELECT coalesce(nullif(final_url,''),url),fetched_at,warc_file,"
       "warc_offset FROM pages WHERE id=?"},
      {&log_frontier,
       "INSERT INTO frontier_log(url_id,url,depth,parent_id,anchor,score,"
       "explanation,state) VALUES(?,?,?,?,?,?,?,?)"},
      // A state change (LogState): schema 5 has a table for them; older
      // schemas log a frontier_log row (log_frontier, above).
      {&log_state,
       schema_version >= 6   ? "INSERT INTO frontier_state(url_id,state,page_id,reason,at,round) "
                               "VALUES(?,?,?,?,?,?)"
       : schema_version >= 5 ? "INSERT INTO frontier_state(url_id,state,page_id) VALUES(?,?,?)"
                             : "SELECT 1"},
      {&insert_reason,
       schema_version >= 6 ? "INSERT INTO refusal_reasons(id,status,error) VALUES(?,?,?)"
                           : "SELECT 1"},
      // In url_id order; for one url_id the earliest row supplies the
      // columns (first admission wins) and state only grows (0 -> 1).
      // "WHERE true" resolves the INSERT ... SELECT ... ON CONFLICT
      // parsing ambiguity (sqlite.org/lang_upsert.html, 2.2).
      {&merge_log,
       schema_version >= 4 ? "SELECT 1" :
       "INSERT INTO frontier(url_id,url,depth,parent_id,anchor,score,"
       "explanation,state) SELECT url_id,url,depth,parent_id,anchor,score,"
       "explanation,state FROM frontier_log WHERE true "
       "ORDER BY url_id, rowid "
       "ON CONFLICT(url_id) DO UPDATE SET state=max(state,excluded.state)"},
      {&clear_log, schema_version >= 4 ? "SELECT 1" : "DELETE FROM frontier_log"},
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

CrawlStore::CrawlStore(std::string dir, const CrawlStoreOptions& options)
    : dir_(std::move(dir)), options_(options) {}

CrawlStore::~CrawlStore() { (void)Close(); }

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

std::chrono::milliseconds CrawlStore::CommitInterval() const {
  if (next_page_id_ <= options_.long_commit_after_pages) return options_.commit_interval;
  // Proportional to the pages rows (the random-order trees' size), capped:
  // see CrawlStoreOptions::commit_interval_per_million_pages.
  const std::chrono::milliseconds grown(options_.commit_interval_per_million_pages.count() *
                                        next_page_id_ / 1000000);
  return std::max({options_.commit_interval, options_.long_commit_interval,
                   std::min(grown, options_.max_commit_interval)});
}

Status CrawlStore::MaybeCommit() {
  if (!in_batch_) return Status::Ok();
  const std::chrono::milliseconds interval = CommitInterval();
  // The row cap grows with the interval (a long batch is long on purpose).
  const size_t max_pages =
      options_.commit_max_pages *
      static_cast<size_t>(std::max<int64_t>(1, interval.count() / 1000));
  if (batch_pages_ >= max_pages || options_.clock->Now() - batch_started_ >= interval) {
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
  if (page.digest == 0 && !page.body.empty()) page.digest = Hash64(page.body);
  if (!page.store_version && db_->schema_version >= 3) {
    // A revisit that kept its version: records and a fetches row only.
    std::vector<WarcRecord> records =
        page.fetch_state == UrlState::kUnchanged &&
                page.revisit_profile != PageRecord::RevisitProfile::kNone
            ? BuildRevisitRecords(page)
            : BuildPageWarcRecords(page, page.version_id, warc_->rng());
    if (!records.empty()) {
      StatusOr<WarcSpan> written = warc_->Append(records);
      if (!written.ok()) return Fail(written.status());
      pending_warc_ends_[written->file] = written->offset + written->length;
    }
    const PageId version = page.fetch_state == UrlState::kGone ? 0 : page.version_id;
    if (Status s = WriteFetchRow(page, version); !s.ok()) return Fail(s);
    ++batch_pages_;
    if (Status s = MaybeCommit(); !s.ok()) return s;
    return page.version_id;
  }
  if (KeepsAsRefusal(page)) {
    // Schema 6: no pages row, no page id, no fetches row (see kSchema).
    StatusOr<int64_t> reason = ReasonId(page.status, page.error);
    if (!reason.ok()) return Fail(reason.status());
    if (Status s = LogState(page.url_id, 1, 0, *reason, page.fetched_at, page.round); !s.ok()) {
      return Fail(s);
    }
    ++batch_pages_;
    if (Status s = MaybeCommit(); !s.ok()) return s;
    return PageId{0};
  }
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
  if (db_->schema_version >= 3) {
    const bool version = page.fetch_state == UrlState::kNew ||
                         page.fetch_state == UrlState::kChanged ||
                         page.fetch_state == UrlState::kTriviallyChanged;
    const PageId valid = version                                ? id
                         : page.fetch_state == UrlState::kGone ? 0
                                                                : page.version_id;
    if (Status s = WriteFetchRow(page, valid); !s.ok()) return Fail(s);
  }
  ++next_page_id_;
  ++batch_pages_;
  if (Status s = MaybeCommit(); !s.ok()) return s;
  return id;
}

bool CrawlStore::KeepsAsRefusal(const PageRecord& page) const {
  return db_ != nullptr && db_->schema_version >= 6 && page.store_version &&
         page.status == FetchStatus::kTrapRefused && page.body.empty() &&
         page.request_head.empty() && page.response_head.empty() && page.links.empty() &&
         page.admitted.empty();
}

StatusOr<int64_t> CrawlStore::ReasonId(FetchStatus status, const std::string& error) {
  if (!db_->reasons_loaded) {
    StatusOr<SqliteStatement> q =
        db_->conn->Prepare("SELECT id, status, coalesce(error, '') FROM refusal_reasons");
    if (!q.ok()) return q.status();
    Status st;
    while (q->NextRow(&st)) {
      db_->reason_ids[q->Text(1) + '\n' + q->Text(2)] = q->Int(0);
      db_->next_reason_id = std::max(db_->next_reason_id, q->Int(0) + 1);
    }
    if (!st.ok()) return st;
    db_->reasons_loaded = true;
  }
  const std::string_view name = FetchStatusName(status);
  std::string key;
  key.reserve(name.size() + 1 + error.size());
  key.append(name).append(1, '\n').append(error);
  auto [it, added] = db_->reason_ids.try_emplace(std::move(key), 0);
  if (!added) return it->second;
  // Ids in first-use order after the largest one stored.
  it->second = db_->next_reason_id++;
  SqliteStatement& r = db_->insert_reason;
  r.BindInt(1, it->second);
  r.BindText(2, name);  // a view of a static name: valid until Run()
  r.BindText(3, error);
  if (Status s = r.Run(); !s.ok()) return s;
  return it->second;
}

Status CrawlStore::WritePageRows(const PageRecord& page, PageId id,
                                 const WarcSpan* span) {
  if (Status s = InsertPageRow(page, id, span); !s.ok()) return s;
  if (Status s = InsertLinkRows(page, id); !s.ok()) return s;
  return LogPageFrontier(page, id);
}

Status CrawlStore::InsertPageRow(const PageRecord& page, PageId id, const WarcSpan* span) {
  SqliteStatement& p = db_->insert_page;
  std::string hash = page.content_hash;
  if (hash.empty() && !page.body.empty()) {
    char buf[17];
    std::snprintf(buf, sizeof(buf), "%016llx",
                  static_cast<unsigned long long>(page.digest ? page.digest
                                                              : Hash64(page.body)));
    hash = buf;
  }
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
  db_->compact.clear();
  AppendCompactJsonNumbers(page.explanation, &db_->compact);
  p.BindText(18, db_->compact);
  if (span) {
    p.BindText(19, warc_file);
    p.BindInt(20, static_cast<int64_t>(span->offset));
    p.BindInt(21, static_cast<int64_t>(span->length));
  }
  if (db_->schema_version >= 3) {
    p.BindInt(22, page.round);
    p.BindIdOrNull(23, page.near_duplicate_of);
  }
  return p.Run();
}

// Schema 2 on: one links row a page (its links as JSON); before, a row a
// link.
Status CrawlStore::InsertLinkRows(const PageRecord& page, PageId id) {
  SqliteStatement& l = db_->insert_links;
  if (db_->schema_version >= 2) {
    if (page.links.empty()) return Status::Ok();
    std::string& json = db_->links_json;
    json.clear();
    if (db_->schema_version >= 4) {
      AppendCompactLinksJson(page.links, page.url, &json);
    } else {
      AppendLinksJson(page.links, &json);
    }
    l.BindInt(1, id);
    l.BindText(2, json);
    if (Status s = l.Run(); !s.ok()) return s;
    // A huge page must not pin its buffer for the rest of the crawl.
    if (json.capacity() > (4u << 20)) std::string().swap(json);
    return Status::Ok();
  }
  for (const LinkRecord& link : page.links) {
    l.BindInt(1, id);
    l.BindText(2, link.to_url);
    l.BindText(3, link.anchor);
    l.BindText(4, link.context);
    l.BindDouble(5, link.score);
    l.BindText(6, link.explanation);
    if (Status s = l.Run(); !s.ok()) return s;
  }
  return Status::Ok();
}

// The frontier log: the links the page admitted, then the page's own URL
// as fetched.
Status CrawlStore::LogPageFrontier(const PageRecord& page, PageId id) {
  for (const FrontierRecord& row : page.admitted) {
    // Schema 5: the URL cut from this page's (~25 of a row's ~105 bytes;
    // the view and LoadFrontier join it back by parent_id). Rows with an
    // explanation (--link-details) keep theirs whole: `explain` and
    // `serve` find them by URL.
    const bool cut = db_->schema_version >= 5 && row.parent_id == id &&
                     row.explanation.empty();
    if (Status s = LogFrontier(row, 0, cut ? std::string_view(page.url) : std::string_view());
        !s.ok()) {
      return s;
    }
  }
  if (db_->schema_version >= 5) return LogState(page.url_id, 1, id);
  FrontierRecord self;
  self.url_id = page.url_id;
  self.url = page.url;
  self.depth = page.depth;
  self.parent_id = page.parent_id;
  self.anchor = page.anchor;
  self.score = page.link_score;
  return LogFrontier(self, 1);
}

Status CrawlStore::WriteFetchRow(const PageRecord& page, PageId version) {
  SqliteStatement& f = db_->insert_fetch;
  f.BindInt(1, AsInt64(page.url_id));
  f.BindInt(2, page.round);
  f.BindInt(3, page.fetched_at);
  f.BindInt(4, static_cast<int>(page.fetch_state));
  f.BindInt(5, page.http_code);
  f.BindInt(6, static_cast<int64_t>(page.body.size()));
  f.BindIdOrNull(7, version);
  f.BindInt(8, static_cast<int64_t>(page.digest));
  f.BindInt(9, static_cast<int64_t>(page.simhash));
  if (!page.etag.empty()) f.BindText(10, page.etag);
  if (!page.last_modified.empty()) f.BindText(11, page.last_modified);
  f.BindInt(12, static_cast<int64_t>(page.admitted.size()));
  f.BindInt(13, static_cast<int64_t>(page.out_links >= 0 ? page.out_links
                                                          : static_cast<int64_t>(page.links.size())));
  f.BindInt(14, page.revisit ? 1 : 0);
  return f.Run();
}

std::vector<WarcRecord> CrawlStore::BuildRevisitRecords(const PageRecord& page) {
  // WARC/1.1 section 6.7: a revisit record holds the HTTP head of the new
  // response and points at the record that holds the (identical) payload.
  std::vector<WarcRecord> records;
  std::string head = NormalizeHttpHead(page.response_head);
  if (head.empty()) return records;
  const std::string& target = page.final_url.empty() ? page.url : page.final_url;
  WarcRecord revisit;
  revisit.type = "revisit";
  revisit.record_id = NewWarcRecordId(warc_->rng());
  revisit.date_unix_ms = page.fetched_at;
  revisit.target_uri = target;
  revisit.content_type = "application/http; msgtype=response";
  const bool not_modified =
      page.revisit_profile == PageRecord::RevisitProfile::kServerNotModified;
  revisit.headers.push_back(
      {"WARC-Profile", not_modified
                           ? "http://netpreserve.org/warc/1.1/revisit/server-not-modified"
                           : "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"});
  // The original: its pages row, and its response record for the record id
  // and payload digest (a 304 carries no payload to digest).
  std::string refers_id, refers_digest;
  SqliteStatement& v = db_->version_page;
  v.BindInt(1, page.version_id);
  Status status;
  if (page.version_id != 0 && v.NextRow(&status)) {
    revisit.headers.push_back({"WARC-Refers-To-Target-URI", v.Text(0)});
    revisit.headers.push_back({"WARC-Refers-To-Date", WarcDate(v.Int(1))});
    const std::string file = v.Text(2);
    const int64_t offset = v.Int(3);
    const std::string prefix = std::string(kWarcDir) + "/";
    if (file.rfind(prefix, 0) == 0 && ParseWarcFileName(file.substr(prefix.size()), nullptr)) {
      StatusOr<ParsedWarcRecord> original =
          ReadWarcRecordAt(dir_ + "/" + file, static_cast<uint64_t>(offset));
      if (original.ok()) {
        refers_id = std::string(original->Header("WARC-Record-ID"));
        refers_digest = std::string(original->Header("WARC-Payload-Digest"));
      }
    }
  }
  v.Reset();
  if (!refers_id.empty()) revisit.headers.push_back({"WARC-Refers-To", refers_id});
  if (!not_modified && options_.warc.payload_digest) {
    refers_digest = WarcSha1Digest(page.body);  // equal by construction
  }
  if (!refers_digest.empty()) revisit.headers.push_back({"WARC-Payload-Digest", refers_digest});
  revisit.block = std::move(head);
  const std::string revisit_id = revisit.record_id;
  records.push_back(std::move(revisit));
  std::string request_head = NormalizeHttpHead(page.request_head);
  if (!request_head.empty()) {
    WarcRecord request;
    request.type = "request";
    request.date_unix_ms = page.fetched_at;
    request.target_uri = target;
    request.content_type = "application/http; msgtype=request";
    request.headers.push_back({"WARC-Concurrent-To", revisit_id});
    request.block = std::move(request_head);
    records.push_back(std::move(request));
  }
  return records;
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

Status CrawlStore::AddHostFile(const std::string& host_key, const std::string& name,
                               int http_code, const std::string& body) {
  if (Status s = BeginIfNeeded(); !s.ok()) return s;
  SqliteStatement& f = db_->insert_host_file;
  if (!db_->host_files_ready) {
    if (Status s = db_->conn->Exec(
            "CREATE TABLE IF NOT EXISTS host_files(host TEXT, name TEXT, at INTEGER, "
            "http_code INTEGER, body BLOB)");
        !s.ok()) {
      return Fail(s);
    }
    StatusOr<SqliteStatement> st = db_->conn->Prepare(
        "INSERT INTO host_files(host,name,at,http_code,body) VALUES(?,?,?,?,?)");
    if (!st.ok()) return Fail(st.status());
    f = std::move(st).value();
    db_->host_files_ready = true;
  }
  f.BindText(1, host_key);
  f.BindText(2, name);
  f.BindInt(3, options_.clock->UnixMillis());
  f.BindInt(4, http_code);
  f.BindText(5, body);
  if (Status s = f.Run(); !s.ok()) return Fail(s);
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
  page_facts_.reset();  // statements before their connection
  page_link_urls_.reset();
  db_.reset();
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
  lock_fd_ = -1;
  closed_ = true;
  if (!s.ok() && error_.ok()) error_ = s;
  return s;
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

int CrawlStore::schema_version() const {
  return db_ ? db_->schema_version : store_internal::kSchemaVersion;
}

Status CrawlStore::RequireRounds() const {
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
  if (db_->schema_version < 3) {
    return Status::Error(dir_ + " was made by an older topicrawl (schema " +
                         std::to_string(db_->schema_version) +
                         "): it has no round history; crawl it again to recrawl it");
  }
  return Status::Ok();
}

StatusOr<int64_t> CrawlStore::CountRelevantPages(double beta) {
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
  StatusOr<SqliteStatement> q = db_->conn->Prepare(
      "SELECT count(*) FROM pages WHERE status = 'ok' AND relevance >= ?1");
  if (!q.ok()) return q.status();
  q->BindDouble(1, beta);
  Status status;
  int64_t n = q->NextRow(&status) ? q->Int(0) : 0;
  if (!status.ok()) return status;
  return n;
}

StatusOr<PageStats> CrawlStore::LoadPageStats() {
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
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
  StatusOr<SqliteStatement> types = db_->conn->Prepare(
      "SELECT coalesce(content_type, ''), count(*) FROM pages WHERE status = ?1 "
      "GROUP BY 1");
  if (!types.ok()) return types.status();
  types->BindText(1, FetchStatusName(FetchStatus::kOk));
  while (types->NextRow(&status)) stats.ok_by_content_type[types->Text(0)] += types->Int(1);
  if (!status.ok()) return status;
  if (db_->schema_version >= 6) {
    // Refusals without a pages row count among the stored fates.
    StatusOr<SqliteStatement> r = db_->conn->Prepare(
        "SELECT r.status, count(*) FROM frontier_state AS s "
        "JOIN refusal_reasons AS r ON r.id = s.reason GROUP BY r.status");
    if (!r.ok()) return r.status();
    while (r->NextRow(&status)) {
      const int64_t count = r->Int(1);
      stats.by_status[r->Text(0)] += count;
      stats.pages += count;
      stats.refusals += count;
    }
    if (!status.ok()) return status;
  }
  return stats;
}

}  // namespace topicrawl
