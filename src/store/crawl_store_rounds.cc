// The rounds part of the store (schema 3+; issue 11): starting a round,
// its pending revisits, the fetches history and the versions of a URL.
#include <cstdlib>

#include "store/crawl_store.h"
#include "store/crawl_store_internal.h"
#include "store/sqlite_db.h"

namespace topicrawl {

namespace {

int64_t AsInt64(UrlId id) { return static_cast<int64_t>(id); }

}  // namespace

StatusOr<int> CrawlStore::CurrentRound() {
  if (Status s = RequireRounds(); !s.ok()) return s;
  auto v = GetMeta("round");
  if (!v.ok()) return v.status();
  if (!v->has_value()) return 0;
  return std::atoi((*v)->c_str());
}

Status CrawlStore::StartRound(int round, const std::vector<std::pair<UrlId, double>>& revisits,
                              const std::vector<FrontierRecord>& seeds) {
  if (Status s = RequireRounds(); !s.ok()) return s;
  if (Status s = Flush(); !s.ok()) return s;
  if (Status s = BeginIfNeeded(); !s.ok()) return s;
  if (Status s = db_->conn->Exec("DELETE FROM revisits"); !s.ok()) return Fail(s);
  StatusOr<SqliteStatement> ins =
      db_->conn->Prepare("INSERT OR REPLACE INTO revisits(url_id,priority) VALUES(?,?)");
  if (!ins.ok()) return Fail(ins.status());
  for (const auto& [id, priority] : revisits) {
    ins->BindInt(1, AsInt64(id));
    ins->BindDouble(2, priority);
    if (Status s = ins->Run(); !s.ok()) return Fail(s);
  }
  for (const FrontierRecord& row : seeds) {
    if (Status s = LogFrontier(row, 0); !s.ok()) return Fail(s);
  }
  if (Status s = SetMeta("round", std::to_string(round)); !s.ok()) return s;
  if (Status s = SetMeta("round_started_at." + std::to_string(round),
                         std::to_string(options_.clock->UnixMillis()));
      !s.ok()) {
    return s;
  }
  if (Status s = AddEvent("round", std::to_string(round) + ": " +
                                       std::to_string(revisits.size()) + " revisits, " +
                                       std::to_string(seeds.size()) + " new seeds");
      !s.ok()) {
    return s;
  }
  return Commit();
}

Status CrawlStore::LoadPendingRevisits(
    int round, const std::function<bool(const RevisitRecord&)>& visit) {
  if (Status s = RequireRounds(); !s.ok()) return s;
  if (Status s = MergeFrontierLog(); !s.ok()) return s;
  StatusOr<SqliteStatement> q = db_->conn->Prepare(
      "SELECT r.url_id, f.url, f.depth, f.parent_id, f.anchor, r.priority, "
      "h.page_id, h.digest, h.simhash, h.etag, h.last_modified, h.out_links "
      "FROM revisits r JOIN frontier f ON f.url_id = r.url_id "
      "LEFT JOIN fetches h ON h.url_id = r.url_id AND h.round = "
      "  (SELECT max(x.round) FROM fetches x WHERE x.url_id = r.url_id AND x.round < ?1) "
      "WHERE NOT EXISTS (SELECT 1 FROM fetches k WHERE k.url_id = r.url_id AND k.round = ?1)");
  if (!q.ok()) return q.status();
  q->BindInt(1, round);
  Status status;
  RevisitRecord r;
  while (q->NextRow(&status)) {
    r.url_id = static_cast<UrlId>(q->Int(0));
    r.url = q->Text(1);
    r.depth = static_cast<uint32_t>(q->Int(2));
    r.parent_id = q->Int(3);
    r.anchor = q->Text(4);
    r.priority = q->Double(5);
    r.version_id = q->Int(6);
    r.digest = static_cast<uint64_t>(q->Int(7));
    r.simhash = static_cast<uint64_t>(q->Int(8));
    r.etag = q->Text(9);
    r.last_modified = q->Text(10);
    r.out_links = static_cast<uint32_t>(q->Int(11));
    if (!visit(r)) break;
  }
  return status;
}

Status CrawlStore::ForEachFetch(int round, const std::function<bool(const FetchRow&)>& visit) {
  if (Status s = RequireRounds(); !s.ok()) return s;
  std::string sql =
      "SELECT url_id,round,at,state,http_code,bytes,page_id,digest,simhash,etag,"
      "last_modified,new_links,revisit,out_links FROM fetches";
  if (round >= 0) sql += " WHERE round=" + std::to_string(round);
  StatusOr<SqliteStatement> q = db_->conn->Prepare(sql);
  if (!q.ok()) return q.status();
  Status status;
  FetchRow f;
  while (q->NextRow(&status)) {
    f.url_id = static_cast<UrlId>(q->Int(0));
    f.round = static_cast<int>(q->Int(1));
    f.at = q->Int(2);
    f.state = static_cast<UrlState>(q->Int(3));
    f.http_code = static_cast<int>(q->Int(4));
    f.bytes = q->Int(5);
    f.page_id = q->Int(6);
    f.digest = static_cast<uint64_t>(q->Int(7));
    f.simhash = static_cast<uint64_t>(q->Int(8));
    f.etag = q->Text(9);
    f.last_modified = q->Text(10);
    f.new_links = static_cast<uint32_t>(q->Int(11));
    f.revisit = q->Int(12) != 0;
    f.out_links = static_cast<uint32_t>(q->Int(13));
    if (!visit(f)) break;
  }
  return status;
}

Status CrawlStore::ForEachUrlHistory(
    const std::function<bool(const FrontierRecord&, const std::vector<FetchRow>&)>& visit) {
  if (Status s = RequireRounds(); !s.ok()) return s;
  if (Status s = MergeFrontierLog(); !s.ok()) return s;
  StatusOr<SqliteStatement> q = db_->conn->Prepare(
      "SELECT f.url_id, f.url, f.depth, f.parent_id, f.anchor, f.score, f.state, "
      "h.round, h.at, h.state, h.http_code, h.bytes, h.page_id, h.digest, h.simhash, "
      "h.new_links, h.revisit, h.out_links, h.last_modified FROM frontier f "
      "LEFT JOIN fetches h ON h.url_id = f.url_id "
      "ORDER BY f.url_id, h.round");
  if (!q.ok()) return q.status();
  Status status;
  FrontierRecord row;
  std::vector<FetchRow> fetches;
  bool have = false;
  while (q->NextRow(&status)) {
    const auto id = static_cast<UrlId>(q->Int(0));
    if (!have || id != row.url_id) {
      if (have && !visit(row, fetches)) return Status::Ok();
      have = true;
      fetches.clear();
      row.url_id = id;
      row.url = q->Text(1);
      row.depth = static_cast<uint32_t>(q->Int(2));
      row.parent_id = q->Int(3);
      row.anchor = q->Text(4);
      row.score = q->Double(5);
      row.state = static_cast<int>(q->Int(6));
    }
    if (q->IsNull(7)) continue;
    FetchRow f;
    f.url_id = id;
    f.round = static_cast<int>(q->Int(7));
    f.at = q->Int(8);
    f.state = static_cast<UrlState>(q->Int(9));
    f.http_code = static_cast<int>(q->Int(10));
    f.bytes = q->Int(11);
    f.page_id = q->Int(12);
    f.digest = static_cast<uint64_t>(q->Int(13));
    f.simhash = static_cast<uint64_t>(q->Int(14));
    f.new_links = static_cast<uint32_t>(q->Int(15));
    f.revisit = q->Int(16) != 0;
    f.out_links = static_cast<uint32_t>(q->Int(17));
    if (!q->IsNull(18)) f.last_modified = q->Text(18);
    fetches.push_back(std::move(f));
  }
  if (!status.ok()) return status;
  if (have) visit(row, fetches);
  return Status::Ok();
}

Status CrawlStore::LoadPageLinkUrls(PageId id, std::vector<std::string>* urls) {
  urls->clear();
  if (!error_.ok()) return error_;
  if (closed_) return Status::Error("crawl store " + dir_ + " is closed");
  if (db_->schema_version < 2) return Status::Error("links of schema 1 are not supported here");
  if (!page_link_urls_) {
    StatusOr<SqliteStatement> q = db_->conn->Prepare(
        "SELECT to_url FROM links WHERE from_id = ? ORDER BY ord");
    if (!q.ok()) return q.status();
    page_link_urls_ = std::make_unique<SqliteStatement>(std::move(q).value());
  }
  SqliteStatement& q = *page_link_urls_;
  q.BindInt(1, id);
  Status status;
  while (q.NextRow(&status)) urls->push_back(q.Text(0));
  q.Reset();
  return status;
}

Status CrawlStore::LoadSimhashes(const std::function<bool(PageId, UrlId, uint64_t)>& visit) {
  if (Status s = RequireRounds(); !s.ok()) return s;
  // A URL's newest fetches row decides its version. One seek of the
  // (url_id, round) key a row (the index fetches_key in schema 7, the
  // table's own key in 3-6) instead of a sort: the rows come in storage
  // order, and most URLs have one row.
  StatusOr<SqliteStatement> q = db_->conn->Prepare(
      "SELECT f.page_id, f.url_id, f.simhash FROM fetches f "
      "WHERE f.page_id != 0 AND f.simhash != 0 "
      "AND f.round = (SELECT max(x.round) FROM fetches x WHERE x.url_id = f.url_id)");
  if (!q.ok()) return q.status();
  Status status;
  while (q->NextRow(&status)) {
    if (!visit(q->Int(0), static_cast<UrlId>(q->Int(1)), static_cast<uint64_t>(q->Int(2)))) {
      break;
    }
  }
  return status;
}

StatusOr<std::optional<CrawlStore::PageFacts>> CrawlStore::LoadPageFacts(PageId id) {
  if (Status s = RequireRounds(); !s.ok()) return s;
  if (!page_facts_) {
    StatusOr<SqliteStatement> q = db_->conn->Prepare(
        "SELECT size, relevance, 0, near_dup_of, url FROM pages p WHERE id = ?");
    if (!q.ok()) return q.status();
    page_facts_ = std::make_unique<SqliteStatement>(std::move(q).value());
  }
  SqliteStatement& q = *page_facts_;
  q.BindInt(1, id);
  Status status;
  std::optional<PageFacts> out;
  if (q.NextRow(&status)) {
    PageFacts f;
    f.size = q.Int(0);
    if (!q.IsNull(1)) f.relevance = q.Double(1);
    f.near_dup_of = q.Int(3);
    f.url = q.Text(4);
    out = std::move(f);
  }
  q.Reset();
  if (!status.ok()) return status;
  return out;
}

StatusOr<std::optional<PageVersion>> CrawlStore::VersionAt(UrlId url_id, int round) {
  if (Status s = RequireRounds(); !s.ok()) return s;
  // The newest fetch up to `round` that decided the version: failed fetches
  // keep the version before them (their page_id carries it forward).
  StatusOr<SqliteStatement> q = db_->conn->Prepare(
      "SELECT f.page_id, f.round, f.state, p.warc_file, p.warc_offset FROM fetches f "
      "LEFT JOIN pages p ON p.id = f.page_id "
      "WHERE f.url_id = ? AND f.round <= ? ORDER BY f.round DESC LIMIT 1");
  if (!q.ok()) return q.status();
  q->BindInt(1, AsInt64(url_id));
  q->BindInt(2, round);
  Status status;
  std::optional<PageVersion> out;
  if (q->NextRow(&status)) {
    PageVersion v;
    v.page_id = q->Int(0);
    v.fetched_round = static_cast<int>(q->Int(1));
    v.state = static_cast<UrlState>(q->Int(2));
    v.warc_file = q->Text(3);
    v.warc_offset = q->Int(4);
    out = std::move(v);
  }
  if (!status.ok()) return status;
  return out;
}

}  // namespace topicrawl
