#include "store/announce_store.h"

#include <sqlite3.h>

#include <filesystem>

#include "store/sqlite_db.h"

namespace topicrawl {
namespace {

constexpr char kSchema[] =
    "CREATE TABLE IF NOT EXISTS announcements(round INTEGER NOT NULL, url TEXT NOT NULL, "
    "host TEXT NOT NULL, source INTEGER NOT NULL, lastmod INTEGER NOT NULL, "
    "published INTEGER NOT NULL, changefreq INTEGER NOT NULL, priority REAL NOT NULL, "
    "title TEXT NOT NULL DEFAULT '', document TEXT NOT NULL DEFAULT '', "
    "PRIMARY KEY(round, url)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS announced_queue(round INTEGER NOT NULL, rank INTEGER NOT NULL, "
    "url TEXT NOT NULL, title TEXT NOT NULL, document TEXT NOT NULL, floor REAL NOT NULL, "
    "PRIMARY KEY(round, rank)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS announce_fetches(round INTEGER NOT NULL, url TEXT NOT NULL, "
    "kind TEXT NOT NULL, status TEXT NOT NULL, http_code INTEGER NOT NULL, "
    "entries INTEGER NOT NULL, rejected INTEGER NOT NULL, bytes INTEGER NOT NULL, "
    "problems TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS host_trust(round INTEGER NOT NULL, host TEXT NOT NULL, "
    "trust REAL NOT NULL, agree INTEGER NOT NULL, disagree INTEGER NOT NULL, "
    "state TEXT NOT NULL, reason TEXT NOT NULL, PRIMARY KEY(round, host)) WITHOUT ROWID;";

// Tables written before the title and document columns: add them.
Status AddMissingColumns(SqliteDb* db) {
  auto has = db->QueryText(
      "SELECT name FROM pragma_table_info('announcements') WHERE name = 'document'");
  if (!has.ok()) return has.status();
  if (has->has_value()) return Status::Ok();
  return db->Exec(
      "ALTER TABLE announcements ADD COLUMN title TEXT NOT NULL DEFAULT '';"
      "ALTER TABLE announcements ADD COLUMN document TEXT NOT NULL DEFAULT '';");
}

std::string RoundFilter(int round) {
  return round < 0 ? std::string() : " WHERE round = " + std::to_string(round);
}

}  // namespace

AnnounceStore::AnnounceStore(std::unique_ptr<SqliteDb> db) : db_(std::move(db)) {}
AnnounceStore::~AnnounceStore() = default;

StatusOr<std::unique_ptr<AnnounceStore>> AnnounceStore::Open(const std::string& crawl_dir) {
  auto db = SqliteDb::Open(crawl_dir + "/crawl.db", /*create=*/false);
  if (!db.ok()) return db.status();
  sqlite3_busy_timeout((*db)->raw(), 10000);
  if (Status s = (*db)->Exec(kSchema); !s.ok()) return s;
  if (Status s = AddMissingColumns(db->get()); !s.ok()) return s;
  return std::unique_ptr<AnnounceStore>(new AnnounceStore(std::move(db).value()));
}

Status AnnounceStore::WriteRound(int round, const std::vector<AnnouncementRow>& rows,
                                 const std::vector<AnnounceFetchRow>& fetches) {
  const std::string r = std::to_string(round);
  if (Status s = db_->Exec("BEGIN IMMEDIATE; DELETE FROM announcements WHERE round = " + r +
                           "; DELETE FROM announce_fetches WHERE round = " + r + ";");
      !s.ok()) {
    return s;
  }
  auto fail = [&](Status s) {
    db_->Exec("ROLLBACK");
    return s;
  };
  auto ins = db_->Prepare(
      "INSERT OR REPLACE INTO announcements(round, url, host, source, lastmod, published, "
      "changefreq, priority, title, document) VALUES(?,?,?,?,?,?,?,?,?,?)");
  if (!ins.ok()) return fail(ins.status());
  for (const AnnouncementRow& a : rows) {
    ins->BindInt(1, round);
    ins->BindText(2, a.url);
    ins->BindText(3, a.host);
    ins->BindInt(4, a.source);
    ins->BindInt(5, a.lastmod_ms);
    ins->BindInt(6, a.published_ms);
    ins->BindInt(7, a.changefreq);
    ins->BindDouble(8, a.priority);
    ins->BindText(9, a.title);
    ins->BindText(10, a.document);
    if (Status s = ins->Run(); !s.ok()) return fail(s);
  }
  auto fin = db_->Prepare("INSERT INTO announce_fetches VALUES(?,?,?,?,?,?,?,?,?)");
  if (!fin.ok()) return fail(fin.status());
  for (const AnnounceFetchRow& f : fetches) {
    fin->BindInt(1, round);
    fin->BindText(2, f.url);
    fin->BindText(3, f.kind);
    fin->BindText(4, f.status);
    fin->BindInt(5, f.http_code);
    fin->BindInt(6, f.entries);
    fin->BindInt(7, f.rejected);
    fin->BindInt(8, f.bytes);
    fin->BindText(9, f.problems);
    if (Status s = fin->Run(); !s.ok()) return fail(s);
  }
  return db_->Exec("COMMIT");
}

Status AnnounceStore::WriteHostTrust(int round, const std::vector<HostTrustRow>& rows) {
  if (Status s = db_->Exec("BEGIN IMMEDIATE; DELETE FROM host_trust WHERE round = " +
                           std::to_string(round) + ";");
      !s.ok()) {
    return s;
  }
  auto ins = db_->Prepare("INSERT OR REPLACE INTO host_trust VALUES(?,?,?,?,?,?,?)");
  if (!ins.ok()) {
    db_->Exec("ROLLBACK");
    return ins.status();
  }
  for (const HostTrustRow& h : rows) {
    ins->BindInt(1, round);
    ins->BindText(2, h.host);
    ins->BindDouble(3, h.trust);
    ins->BindInt(4, h.agree);
    ins->BindInt(5, h.disagree);
    ins->BindText(6, h.state);
    ins->BindText(7, h.reason);
    if (Status s = ins->Run(); !s.ok()) {
      db_->Exec("ROLLBACK");
      return s;
    }
  }
  return db_->Exec("COMMIT");
}

Status AnnounceStore::ForEachAnnouncement(
    int round, const std::function<bool(int, const AnnouncementRow&)>& visit) {
  auto q = db_->Prepare(
      "SELECT round, url, host, source, lastmod, published, changefreq, priority, title, "
      "document FROM announcements" + RoundFilter(round) + " ORDER BY round, url");
  if (!q.ok()) return q.status();
  Status st;
  AnnouncementRow a;
  while (q->NextRow(&st)) {
    a.url = q->Text(1);
    a.host = q->Text(2);
    a.source = static_cast<int>(q->Int(3));
    a.lastmod_ms = q->Int(4);
    a.published_ms = q->Int(5);
    a.changefreq = static_cast<int>(q->Int(6));
    a.priority = q->Double(7);
    a.title = q->Text(8);
    a.document = q->Text(9);
    if (!visit(static_cast<int>(q->Int(0)), a)) break;
  }
  q->Reset();
  return st;
}

Status AnnounceStore::ForEachFetch(int round,
                                   const std::function<bool(int, const AnnounceFetchRow&)>& visit) {
  auto q = db_->Prepare(
      "SELECT round, url, kind, status, http_code, entries, rejected, bytes, problems FROM "
      "announce_fetches" + RoundFilter(round) + " ORDER BY round, rowid");
  if (!q.ok()) return q.status();
  Status st;
  AnnounceFetchRow f;
  while (q->NextRow(&st)) {
    f.url = q->Text(1);
    f.kind = q->Text(2);
    f.status = q->Text(3);
    f.http_code = static_cast<int>(q->Int(4));
    f.entries = q->Int(5);
    f.rejected = q->Int(6);
    f.bytes = q->Int(7);
    f.problems = q->Text(8);
    if (!visit(static_cast<int>(q->Int(0)), f)) break;
  }
  q->Reset();
  return st;
}

Status AnnounceStore::ForEachHostTrust(int round,
                                       const std::function<bool(int, const HostTrustRow&)>& visit) {
  auto q = db_->Prepare("SELECT round, host, trust, agree, disagree, state, reason FROM host_trust" +
                        RoundFilter(round) + " ORDER BY round, host");
  if (!q.ok()) return q.status();
  Status st;
  HostTrustRow h;
  while (q->NextRow(&st)) {
    h.host = q->Text(1);
    h.trust = q->Double(2);
    h.agree = q->Int(3);
    h.disagree = q->Int(4);
    h.state = q->Text(5);
    h.reason = q->Text(6);
    if (!visit(static_cast<int>(q->Int(0)), h)) break;
  }
  q->Reset();
  return st;
}

Status AnnounceStore::WriteQueue(int round, const std::vector<QueuedAnnouncement>& rows) {
  if (Status s = db_->Exec("BEGIN IMMEDIATE; DELETE FROM announced_queue WHERE round = " +
                           std::to_string(round) + ";");
      !s.ok()) {
    return s;
  }
  auto ins = db_->Prepare("INSERT INTO announced_queue VALUES(?,?,?,?,?,?)");
  if (!ins.ok()) {
    db_->Exec("ROLLBACK");
    return ins.status();
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    ins->BindInt(1, round);
    ins->BindInt(2, static_cast<int64_t>(i));
    ins->BindText(3, rows[i].url);
    ins->BindText(4, rows[i].title);
    ins->BindText(5, rows[i].document);
    ins->BindDouble(6, rows[i].floor);
    if (Status s = ins->Run(); !s.ok()) {
      db_->Exec("ROLLBACK");
      return s;
    }
  }
  return db_->Exec("COMMIT");
}

Status AnnounceStore::ForEachQueued(int round,
                                    const std::function<bool(const QueuedAnnouncement&)>& visit) {
  auto q = db_->Prepare("SELECT url, title, document, floor FROM announced_queue" +
                        RoundFilter(round) + " ORDER BY rank");
  if (!q.ok()) return q.status();
  Status st;
  QueuedAnnouncement a;
  while (q->NextRow(&st)) {
    a.url = q->Text(0);
    a.title = q->Text(1);
    a.document = q->Text(2);
    a.floor = q->Double(3);
    if (!visit(a)) break;
  }
  q->Reset();
  return st;
}

bool HasAnnouncements(const std::string& crawl_dir) {
  std::error_code ec;
  if (!std::filesystem::exists(crawl_dir + "/crawl.db", ec)) return false;
  auto db = SqliteDb::Open(crawl_dir + "/crawl.db", /*create=*/false);
  if (!db.ok()) return false;
  auto v = (*db)->QueryText(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'announcements'");
  return v.ok() && v->has_value();
}

}  // namespace topicrawl
