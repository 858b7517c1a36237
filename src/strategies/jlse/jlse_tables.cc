#include "strategies/jlse/jlse_tables.h"

#include "store/sqlite_db.h"

namespace topicrawl {

Status WriteJlseTables(const std::string& db_path, const std::vector<JlseLinkRow>& links,
                       const std::vector<int64_t>& result_ids) {
  auto db = SqliteDb::Open(db_path, /*create=*/false);
  if (!db.ok()) return db.status();
  SqliteDb& d = **db;
  Status s = d.Exec(
      "PRAGMA busy_timeout=10000;"
      "CREATE TABLE IF NOT EXISTS LinkTable (ID INTEGER PRIMARY KEY, url TEXT NOT NULL, "
      "parentID INTEGER NOT NULL, depth INTEGER NOT NULL, anchorText TEXT NOT NULL);"
      "CREATE TABLE IF NOT EXISTS ResultTable (ID INTEGER PRIMARY KEY, urlID INTEGER NOT NULL "
      "REFERENCES LinkTable(ID));"
      "BEGIN IMMEDIATE; DELETE FROM ResultTable; DELETE FROM LinkTable;");
  if (!s.ok()) return s;
  auto ins = d.Prepare("INSERT INTO LinkTable VALUES (?1, ?2, ?3, ?4, ?5)");
  if (!ins.ok()) return ins.status();
  for (const auto& r : links) {
    ins->BindInt(1, r.id);
    ins->BindText(2, r.url);
    ins->BindInt(3, r.parent_id);
    ins->BindInt(4, r.depth);
    ins->BindText(5, r.anchor);
    s = ins->Run();
    if (!s.ok()) return s;
    ins->Reset();
  }
  auto res = d.Prepare("INSERT INTO ResultTable (ID, urlID) VALUES (?1, ?2)");
  if (!res.ok()) return res.status();
  int64_t n = 0;
  for (int64_t id : result_ids) {
    res->BindInt(1, ++n);
    res->BindInt(2, id);
    s = res->Run();
    if (!s.ok()) return s;
    res->Reset();
  }
  return d.Exec("COMMIT;");
}

Status ReadJlseTables(const std::string& db_path, std::vector<JlseLinkRow>* links,
                      std::vector<int64_t>* result_ids) {
  auto db = SqliteDb::Open(db_path, /*create=*/false);
  if (!db.ok()) return db.status();
  auto q = (*db)->Prepare("SELECT ID, url, parentID, depth, anchorText FROM LinkTable ORDER BY ID");
  if (!q.ok()) return q.status();
  Status s;
  while (q->NextRow(&s)) {
    links->push_back({q->Int(0), q->Text(1), q->Int(2), static_cast<uint32_t>(q->Int(3)),
                      q->Text(4)});
  }
  if (!s.ok()) return s;
  auto r = (*db)->Prepare("SELECT urlID FROM ResultTable ORDER BY ID");
  if (!r.ok()) return r.status();
  while (r->NextRow(&s)) result_ids->push_back(r->Int(0));
  return s;
}

}  // namespace topicrawl
