// The frontier part of the store: appending admissions and state changes to
// frontier_log, and reading the frontier back (resume, rounds).
//
// Schemas 4-5 never merge: frontier_log is the frontier and LoadFrontier
// streams it in rowid (admission) order, keeping the first row of every
// url_id (first admission wins) with state = the maximum of its rows (and,
// schema 5, of its frontier_state rows). Why not SQL (the `frontier` view):
// a view query sorts every row (11.6 M rows at 10^6 pages; an external sort
// of ~2.5 GB). The stream costs one scan of the log (schema 4: two) and two
// in-memory hash sets instead: the url_ids marked done (one a fetched page)
// and the url_ids already visited (8 bytes a slot at <= 75 % load while it
// runs; freed afterwards). Schemas 1-3 keep their merged `frontier` table (merged on
// open, Close() and before reads, as before).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/crawl_store.h"
#include "store/crawl_store_internal.h"
#include "store/links_json.h"
#include "store/sqlite_db.h"

namespace topicrawl {

namespace {

int64_t AsInt64(UrlId id) { return static_cast<int64_t>(id); }

// An open-addressing set of 64-bit ids (linear probing; 0 marks an empty
// slot, the id 0 is kept aside). ~8-16 bytes an id, no allocation per id.
class IdSet {
 public:
  // Room for `n` ids without growing (each growth copies the table and holds
  // both copies for a moment: ~3x the final size at 10^7 ids).
  void Reserve(size_t n) {
    size_t slots = 1024;
    while (slots * 3 < n * 4 + 4) slots *= 2;
    if (slots > slots_.size()) {
      std::vector<uint64_t> old;
      old.swap(slots_);
      slots_.assign(slots, 0);
      size_ = 0;
      const bool zero = has_zero_;
      for (uint64_t id : old) {
        if (id != 0) Insert(id);
      }
      has_zero_ = zero;
    }
  }
  bool Contains(uint64_t id) const {
    if (id == 0) return has_zero_;
    if (slots_.empty()) return false;
    const size_t mask = slots_.size() - 1;
    for (size_t i = Mix(id) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == id) return true;
      if (slots_[i] == 0) return false;
    }
  }
  // True when `id` was not in the set (it is now).
  bool Insert(uint64_t id) {
    if (id == 0) {
      const bool added = !has_zero_;
      has_zero_ = true;
      return added;
    }
    if ((size_ + 1) * 4 > slots_.size() * 3) Grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = Mix(id) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == id) return false;
      if (slots_[i] == 0) {
        slots_[i] = id;
        ++size_;
        return true;
      }
    }
  }

 private:
  static size_t Mix(uint64_t x) {  // url_ids are hashes, but not all ids are
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return static_cast<size_t>(x);
  }
  void Grow() {
    std::vector<uint64_t> old(std::max<size_t>(1024, slots_.size() * 2), 0);
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (uint64_t id : old) {
      if (id == 0) continue;
      size_t i = Mix(id) & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = id;
    }
  }
  std::vector<uint64_t> slots_;
  size_t size_ = 0;
  bool has_zero_ = false;
};

}  // namespace

Status CrawlStore::LogFrontier(const FrontierRecord& row, int state,
                               std::string_view parent_url) {
  SqliteStatement& f = db_->log_frontier;
  f.BindInt(1, AsInt64(row.url_id));
  if (parent_url.empty()) {
    f.BindText(2, row.url);
  } else {
    // Bound SQLITE_STATIC: the text must outlive the statement's Run().
    CompactUrlInto(row.url, parent_url, &db_->cut_url);
    f.BindText(2, db_->cut_url);
  }
  f.BindInt(3, row.depth);
  f.BindIdOrNull(4, row.parent_id);
  f.BindText(5, row.anchor);
  f.BindDouble(6, row.score);
  db_->compact.clear();
  AppendCompactJsonNumbers(row.explanation, &db_->compact);
  f.BindText(7, db_->compact);
  f.BindInt(8, state);
  if (db_->schema_version < 4) ++log_rows_;  // schema 4 never merges
  return f.Run();
}

Status CrawlStore::LogState(UrlId url_id, int state, PageId page_id, int64_t reason,
                            int64_t at, int round) {
  SqliteStatement& f = db_->log_state;
  f.BindInt(1, AsInt64(url_id));
  f.BindInt(2, state);
  f.BindIdOrNull(3, page_id);
  if (db_->schema_version >= 6) {
    // NULLs on rows that are not refusals (one header byte each).
    f.BindIdOrNull(4, reason);
    if (reason != 0) {
      f.BindInt(5, at);
      f.BindInt(6, round);
    } else {
      f.BindNull(5);
      f.BindNull(6);
    }
  }
  return f.Run();
}

Status CrawlStore::MergeFrontierLog() {
  if (log_rows_ == 0 || db_->schema_version >= 4) return Status::Ok();
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

Status CrawlStore::LoadFrontier(
    const std::function<bool(const FrontierRecord&)>& visit) {
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
  if (Status s = MergeFrontierLog(); !s.ok()) return s;
  const bool log_only = db_->schema_version >= 4;
  // Schemas 4-5: the done url_ids first. Schema 5 reads them from
  // frontier_state (~17 bytes a row); schema 4 from the log's state rows,
  // a scan of the whole log. A hash set, not a sorted vector: the lookup of
  // every queued row was a binary search of ~22 cache misses at 3 M done.
  IdSet done;
  size_t done_count = 0;
  if (db_->schema_version >= 5) {
    StatusOr<std::optional<std::string>> rows =
        db_->conn->QueryText("SELECT coalesce(max(rowid), 0) FROM frontier_state");
    if (!rows.ok()) return rows.status();
    done.Reserve(static_cast<size_t>(std::stoll(rows->value_or("0"))));
  }
  if (log_only) {
    StatusOr<SqliteStatement> d = db_->conn->Prepare(
        db_->schema_version >= 5 ? "SELECT url_id FROM frontier_state WHERE state > 0"
                                 : "SELECT url_id FROM frontier_log WHERE state > 0");
    if (!d.ok()) return d.status();
    Status status;
    while (d->NextRow(&status)) done_count += done.Insert(static_cast<uint64_t>(d->Int(0)));
    if (!status.ok()) return status;
  }
  StatusOr<SqliteStatement> q = db_->conn->Prepare(
      std::string("SELECT url_id,url,depth,parent_id,anchor,score,explanation,state FROM ") +
      (log_only ? "frontier_log" : "frontier"));
  if (!q.ok()) return q.status();
  // Schema 5 cuts an admission row's URL from its parent page's URL: the
  // parent's rows are contiguous in the log, so one lookup a parent.
  StatusOr<SqliteStatement> parent_q =
      db_->conn->Prepare("SELECT url FROM pages WHERE id = ?");
  if (!parent_q.ok()) return parent_q.status();
  PageId parent_id = -1;
  std::string parent_url;
  IdSet visited;
  if (log_only) {
    // The log's rowids count its rows (never deleted): one allocation.
    StatusOr<std::optional<std::string>> rows =
        db_->conn->QueryText("SELECT coalesce(max(rowid), 0) FROM frontier_log");
    if (!rows.ok()) return rows.status();
    visited.Reserve(static_cast<size_t>(std::stoll(rows->value_or("0"))));
  }
  Status status;
  FrontierRecord row;
  size_t done_seen = 0;  // done url_ids met in the log
  while (q->NextRow(&status)) {
    row.url_id = static_cast<UrlId>(q->Int(0));
    if (log_only && !visited.Insert(row.url_id)) continue;  // not its first row
    // Views into the row, copied into row's reused buffers: no allocation
    // a row once they have grown.
    const std::string_view url = q->TextView(1);
    row.depth = static_cast<uint32_t>(q->Int(2));
    row.parent_id = q->Int(3);
    row.anchor.assign(q->TextView(4));
    row.score = q->Double(5);
    row.explanation.assign(q->TextView(6));
    row.state = static_cast<int>(q->Int(7));
    if (IsCompactUrl(url) && db_->schema_version >= 5) {
      if (row.parent_id != parent_id) {
        parent_id = row.parent_id;
        parent_q->BindInt(1, parent_id);
        Status ps;
        if (parent_q->NextRow(&ps)) {
          parent_url.assign(parent_q->TextView(0));
        } else {
          parent_url.clear();
        }
        parent_q->Reset();
        if (!ps.ok()) return ps;
      }
      ExpandCompactUrlInto(url, parent_url, &row.url);
    } else {
      row.url.assign(url);
    }
    if (log_only && done.Contains(static_cast<uint64_t>(row.url_id))) {
      row.state = std::max(row.state, 1);
      ++done_seen;
    }
    if (!visit(row)) return status;
  }
  if (!status.ok() || db_->schema_version < 5 || done_seen == done_count) return status;
  // Schema 5: done URLs without an admission row (pages stored by a caller
  // that never queued them; the crawler does not) take their columns from
  // their page. Rare, so a second pass over the small frontier_state only
  // when the counts say there are some.
  StatusOr<SqliteStatement> o = db_->conn->Prepare(
      "SELECT s.url_id, p.url, p.depth, p.parent_id, p.anchor, p.link_score "
      "FROM frontier_state s LEFT JOIN pages p ON p.id = s.page_id WHERE s.state > 0");
  if (!o.ok()) return o.status();
  row = FrontierRecord();
  row.state = 1;
  while (o->NextRow(&status)) {
    row.url_id = static_cast<UrlId>(o->Int(0));
    if (!visited.Insert(row.url_id)) continue;
    row.url = o->Text(1);
    row.depth = static_cast<uint32_t>(o->Int(2));
    row.parent_id = o->Int(3);
    row.anchor = o->Text(4);
    row.score = o->Double(5);
    if (!visit(row)) break;
  }
  return status;
}

Status CrawlStore::CountFrontier(int64_t* rows, int64_t* queued) {
  *rows = *queued = 0;
  return LoadFrontier([&](const FrontierRecord& r) {
    ++*rows;
    *queued += r.state == 0;
    return true;
  });
}

}  // namespace topicrawl
