#include "cluster/crawl_merge.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "store/crawl_store.h"
#include "store/sqlite_db.h"
#include "store/warc_writer.h"

namespace topicrawl {
namespace {

namespace fs = std::filesystem;

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// Round bookkeeping (crawl/rounds): round_started_at.N is the earliest of
// the inputs', round_finished.N the latest, kept only when every input has
// it.
std::string RoundMetaSql(size_t inputs) {
  std::string all;
  for (size_t k = 0; k < inputs; ++k) {
    all += std::string(k ? " UNION ALL " : "") + "SELECT key, value FROM s" + std::to_string(k) +
           ".meta WHERE substr(key, 1, 17) = 'round_started_at.' OR "
           "substr(key, 1, 15) = 'round_finished.'";
  }
  return "INSERT OR REPLACE INTO meta(key, value) SELECT key, CASE WHEN substr(key, 1, 17) = "
         "'round_started_at.' THEN min(CAST(value AS INTEGER)) ELSE max(CAST(value AS INTEGER)) "
         "END FROM (" + all + ") GROUP BY key HAVING count(*) = " + std::to_string(inputs) + ";";
}

// "%05u", as in the store's WARC names.
std::string Seq5(uint32_t seq) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%05u", seq);
  return buf;
}

// Links (or copies) the input's WARC file under the merged name.
Status LinkWarcFile(const fs::path& file, const fs::path& target, const MergeOptions& options) {
  std::error_code ec;
  if (options.symlink_warc) {
    fs::create_symlink(fs::absolute(file), target, ec);
    if (ec) return Status::Error("merge: cannot link " + file.string() + ": " + ec.message());
    return Status::Ok();
  }
  fs::create_hard_link(file, target, ec);
  if (ec) {
    ec.clear();
    fs::copy_file(file, target, ec);
    if (ec) return Status::Error("merge: cannot link or copy " + file.string() + ": " + ec.message());
  }
  return Status::Ok();
}

// Input k: attached as s<k>, its pages as winner candidates, its WARC files
// under new names that keep the store's pattern (topicrawl-<time>-<seq>,
// seq numbered across all inputs), so the merged directory can be resumed
// (recrawl) like any crawl.
Status AttachInput(SqliteDb& db, const std::string& out, size_t k, const std::string& input,
                   const MergeOptions& options, uint32_t* warc_seq, MergeStats* stats) {
  const std::string src = std::to_string(k);
  Status s = db.Exec("ATTACH " + Quote(input + "/crawl.db") + " AS s" + src + ";" +
                     "INSERT INTO cand SELECT " + src + ", id, url, status = 'ok', fetched_at FROM s" +
                     src + ".pages;");
  if (!s.ok()) return s;
  fs::create_directories(out + "/warc");
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(input + "/warc", ec)) {
    uint32_t seq = 0;
    if (e.is_regular_file() && ParseWarcFileName(e.path().filename().string(), &seq)) {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    const std::string name = file.filename().string();  // topicrawl-<14 digits>-<seq>
    const bool zstd = name.size() > 9 && name.substr(name.size() - 9) == ".warc.zst";
    const std::string renamed = name.substr(0, 25) + Seq5(++*warc_seq) +
                                (zstd ? ".warc.zst" : ".warc.gz");
    s = db.Exec("INSERT INTO warcmap VALUES(" + src + ", " + Quote(name) + ", " +
                Quote(renamed) + ");");
    if (!s.ok()) return s;
    if (s = LinkWarcFile(file, fs::path(out) / "warc" / renamed, options); !s.ok()) return s;
    ++stats->warc_files;
  }
  return db.Exec("INSERT OR REPLACE INTO warc_files(name, length, created_at) SELECT m.new, "
                 "w.length, w.created_at FROM s" + src + ".warc_files w JOIN warcmap m ON m.src = " +
                 src + " AND m.old = w.name;");
}

// Input k's winning pages, their links and fetches, its frontier and (schema
// 6) its refusals, under the merged ids (idmap) and WARC names (warcmap).
Status CopyInputRows(SqliteDb& db, size_t k) {
  const std::string src = std::to_string(k), sp = "s" + src;
  // page_links of schema 4 (store/links_json.h) is copied as it is (its
  // short URLs are cut from the page's URL, which the merge keeps);
  // older inputs' JSON is rewritten into that form from their view.
  auto version = db.QueryText("SELECT value FROM " + sp + ".meta WHERE key = 'schema_version'");
  const int schema = version.ok() && version->has_value() ? std::atoi((*version)->c_str()) : 0;
  const bool compact_links = schema >= 4;
  const std::string links_sql =
      compact_links
          ? "INSERT INTO page_links SELECT m.new, l.links FROM " + sp + ".page_links l "
            "JOIN idmap m ON m.src = " + src + " AND m.old = l.from_id;"
          : "INSERT INTO page_links SELECT m.new, (SELECT json_group_array(json_array("
            "x.to_url, x.anchor, x.score, x.context, x.explanation)) FROM (SELECT * FROM " +
                sp + ".links x WHERE x.from_id = l.from_id ORDER BY x.ord) x) FROM " + sp +
                ".page_links l JOIN idmap m ON m.src = " + src + " AND m.old = l.from_id;";
  Status s = db.Exec(
      "INSERT INTO pages SELECT m.new, p.url, p.final_url, p.status, p.http_code, "
      "p.content_type, p.charset, p.fetched_at, p.depth, "
      "(SELECT new FROM idmap WHERE src = " + src + " AND old = p.parent_id), p.anchor, "
      "p.content_hash, p.size, p.relevance, p.link_score, p.title, p.error, p.explanation, "
      "CASE WHEN p.warc_file IS NULL OR p.warc_file = '' THEN p.warc_file ELSE "
      "(SELECT 'warc/' || new FROM warcmap WHERE src = " + src + " AND old = "
      "substr(p.warc_file, 6)) END, p.warc_offset, p.warc_length, "
      "p.round, (SELECT new FROM idmap WHERE src = " + src + " AND old = p.near_dup_of) "
      "FROM " + sp + ".pages p JOIN idmap m ON m.src = " + src + " AND m.old = p.id;" +
      links_sql +
      "INSERT INTO fetches SELECT f.url_id, f.round, f.at, f.state, f.http_code, f.bytes, "
      "m.new, f.digest, f.simhash, f.etag, f.last_modified, f.new_links, f.out_links, "
      "f.revisit FROM " + sp + ".fetches f JOIN idmap m ON m.src = " + src +
      " AND m.old = f.page_id WHERE 1 ON CONFLICT DO NOTHING;"
      "INSERT OR IGNORE INTO frontier SELECT url_id, url, depth, 0, anchor, score, "
      "explanation, max(state) FROM (SELECT * FROM " + sp + ".frontier" +
      // Schemas 4-5: the view already reads the log (and schema 5's log
      // rows hold URLs cut from their parent page's, which only the view
      // joins back); schemas 1-3: the table plus the unmerged log.
      (compact_links ? std::string() : " UNION ALL SELECT * FROM " + sp + ".frontier_log") +
      ") GROUP BY url_id;");
  if (!s.ok() || schema < 6) return s;
  // Schema 6 inputs keep URL-trap refusals as reasons on frontier_state
  // rows (no pages row): their reasons are interned again here, and a URL
  // some input stored as a page is not a refusal of the merged crawl.
  return db.Exec(
      "INSERT INTO refusal_reasons(status, error) SELECT DISTINCT r.status, r.error FROM " +
      sp + ".refusal_reasons r WHERE NOT EXISTS (SELECT 1 FROM refusal_reasons o "
      "WHERE o.status = r.status AND o.error IS r.error);"
      "INSERT INTO frontier_state(url_id, state, reason, at, round) "
      "SELECT x.url_id, 1, o.id, x.at, x.round FROM " +
      sp + ".frontier_state x JOIN " + sp + ".refusal_reasons r ON r.id = x.reason "
      "JOIN refusal_reasons o ON o.status = r.status AND o.error IS r.error "
      "WHERE x.url_id NOT IN (SELECT url_id FROM fetches WHERE page_id IS NOT NULL);");
}

// An empty crawl directory at `out`, its event naming the merge.
Status CreateMergedStore(const std::string& out, size_t inputs) {
  auto created = CrawlStore::Open(out, OpenMode::kCreate);
  if (!created.ok()) return created.status();
  if (Status s = (*created)->AddEvent("merge", std::to_string(inputs) + " inputs"); !s.ok()) {
    return s;
  }
  return (*created)->Close();
}

}  // namespace

StatusOr<MergeStats> MergeCrawls(const std::string& out, const std::vector<std::string>& inputs,
                                 const MergeOptions& options) {
  if (inputs.empty()) return Status::Error("merge: no input directories");
  for (const auto& in : inputs) {
    if (!fs::exists(in + "/crawl.db")) return Status::Error("merge: no crawl in '" + in + "'");
  }
  if (Status s = CreateMergedStore(out, inputs.size()); !s.ok()) return s;
  auto opened = SqliteDb::Open(out + "/crawl.db", false);
  if (!opened.ok()) return opened.status();
  SqliteDb& db = **opened;
  MergeStats stats;
  uint32_t warc_seq = 0;
  Status s = db.Exec(
      "CREATE TEMP TABLE cand(src INTEGER, id INTEGER, url TEXT, ok INTEGER, at INTEGER);"
      "CREATE TEMP TABLE idmap(src INTEGER, old INTEGER, new INTEGER, "
      "PRIMARY KEY(src, old));"
      "CREATE TEMP TABLE warcmap(src INTEGER, old TEXT, new TEXT, PRIMARY KEY(src, old));");
  if (!s.ok()) return s;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (s = AttachInput(db, out, k, inputs[k], options, &warc_seq, &stats); !s.ok()) return s;
  }
  // The winner of each URL: ok first, then the latest fetch, then input order.
  s = db.Exec(
      "CREATE TEMP TABLE win AS SELECT src, id, url FROM (SELECT *, row_number() OVER "
      "(PARTITION BY url ORDER BY ok DESC, at DESC, src, id) AS rn FROM cand) WHERE rn = 1 "
      "ORDER BY src, id;"
      "INSERT INTO idmap SELECT src, id, row_number() OVER (ORDER BY src, id) FROM win;");
  if (!s.ok()) return s;
  s = db.Exec("BEGIN;");
  if (!s.ok()) return s;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (s = CopyInputRows(db, k); !s.ok()) return s;
  }
  s = db.Exec("UPDATE frontier SET state = 1 WHERE url IN (SELECT url FROM pages);"
              "INSERT OR REPLACE INTO meta(key, value) SELECT key, value FROM s0.meta "
              "WHERE key IN ('strategy', 'rng_seed', 'beta', 'started_at');"
              // A round is finished in the merged crawl when every worker
              // finished it (a killed one did not: `recrawl OUT --resume`
              // continues it in one process).
              + RoundMetaSql(inputs.size()) +
              "INSERT OR REPLACE INTO meta(key, value) VALUES('merged_from', " +
              Quote(std::to_string(inputs.size()) + " crawl directories") + ");"
              "COMMIT;");
  if (!s.ok()) return s;
  auto count = [&db](const std::string& sql) -> int64_t {
    auto v = db.QueryText(sql);
    return v.ok() && v->has_value() ? std::stoll(**v) : -1;
  };
  stats.input_rows = count("SELECT count(*) FROM cand");
  stats.pages = count("SELECT count(*) FROM pages");
  stats.ok = count("SELECT count(*) FROM pages WHERE status = 'ok'");
  // The config snapshot of the first input describes the crawl.
  std::error_code ec;
  fs::copy_file(inputs[0] + "/config.toml", out + "/config.toml",
                fs::copy_options::overwrite_existing, ec);
  return stats;
}

}  // namespace topicrawl
