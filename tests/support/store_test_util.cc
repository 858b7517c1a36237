#include "support/store_test_util.h"

#include <dirent.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "core/hash.h"
#include "store/warc_reader.h"

namespace topicrawl::testing {

std::string MakeTempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") +
                      "/topicrawl_store_XXXXXX";
  char* made = ::mkdtemp(templ.data());
  return made ? std::string(made) : std::string();
}

void RemoveTree(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

std::string TestPageUrl(int64_t k) {
  return "http://h" + std::to_string(k % 5) + ".test/p" + std::to_string(k);
}

PageRecord MakeTestPage(int64_t k, int links, int admitted, size_t body_bytes) {
  PageRecord p;
  p.url = TestPageUrl(k);
  p.url_id = Hash64(p.url);
  p.fetched_at = 1'700'000'000'000 + k;
  p.depth = static_cast<uint32_t>(k % 4);
  p.parent_id = k > 1 ? k / 2 : 0;
  p.anchor = "anchor " + std::to_string(k);
  p.link_score = 0.25;
  p.remote_ip = "127.0.0.1";
  p.request_head = "GET /p" + std::to_string(k) + " HTTP/1.1\r\nHost: h" +
                   std::to_string(k % 5) + ".test\r\nUser-Agent: t\r\n\r\n";
  if (k % 7 == 0) {
    p.status = FetchStatus::kRobotsDenied;
    p.error = "disallowed by robots.txt";
    p.request_head.clear();
    return p;
  }
  std::string html = "<html><title>Page " + std::to_string(k) + "</title>";
  while (html.size() < body_bytes) {
    html += "<p>focused crawling text " + std::to_string(k) + " " +
            std::to_string(html.size() * 2654435761u) + "</p>\n";
  }
  p.body = html + "</html>";
  p.content_type = "text/html; charset=utf-8";
  p.charset = "UTF-8";
  if (k % 11 == 0) {
    p.status = FetchStatus::kHttpError;
    p.http_code = 404;
    p.response_head = "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n"
                      "Content-Length: 999\r\n\r\n";
    return p;
  }
  p.status = FetchStatus::kOk;
  p.http_code = 200;
  p.final_url = p.url;
  p.title = "Page " + std::to_string(k);
  p.relevance = (k % 10) / 10.0;
  p.response_head =
      "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
      "Content-Encoding: gzip\r\nContent-Length: 123\r\nServer: test\r\n\r\n";
  for (int i = 0; i < links; ++i) {
    p.links.push_back({"http://h" + std::to_string(i % 5) + ".test/l" +
                           std::to_string(k) + "_" + std::to_string(i),
                       "link " + std::to_string(i),
                       "context words around link " + std::to_string(i),
                       i / 10.0, "bm25=0.1"});
  }
  for (int i = 0; i < admitted; ++i) {
    FrontierRecord row;
    // The first two admit later pages (p2k, p2k+1), so storing those pages
    // flips an existing frontier row to done.
    row.url = i < 2 ? TestPageUrl(2 * k + i)
              : p.links.empty() ? p.url + "/a" + std::to_string(i)
                                : p.links[i % p.links.size()].to_url;
    row.url_id = Hash64(row.url);
    row.depth = p.depth + 1;
    row.parent_id = 0;  // filled with the page id by callers that know it
    row.anchor = "link";
    row.score = 0.5;
    row.explanation = "admitted";
    p.admitted.push_back(std::move(row));
  }
  return p;
}

namespace {

struct Db {
  sqlite3* db = nullptr;
  ~Db() { sqlite3_close(db); }
};

struct Group {
  std::string type;
  std::string page_id;  // from the metadata record
  uint64_t end = 0;     // end offset of the last member of the group
  int members = 0;
  std::string target;
  std::string outlinks;
};

Status Fail(const std::string& what) { return Status::Error(what); }

// Runs a script on DIR/crawl.db (created when missing); `what` names it in
// the error.
Status ExecOnCrawlDb(const std::string& dir, const char* sql, const std::string& what) {
  Db db;
  if (sqlite3_open((dir + "/crawl.db").c_str(), &db.db) != SQLITE_OK) {
    return Status::Error("cannot open " + dir + "/crawl.db");
  }
  char* err = nullptr;
  if (sqlite3_exec(db.db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    Status s = Status::Error(what + ": " + (err ? err : "?"));
    sqlite3_free(err);
    return s;
  }
  return Status::Ok();
}

}  // namespace

Status CheckCrawlDir(const std::string& dir, CrawlDirReport* report) {
  *report = {};
  // 1. Every WARC file parses; group records by their response record.
  std::map<std::pair<std::string, uint64_t>, Group> groups;  // by response
  std::map<std::string, std::pair<std::string, uint64_t>> by_id;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/warc")) {
    files.push_back(e.path().filename().string());
  }
  for (const std::string& file : files) {
    ++report->warc_files;
    bool first = true;
    Status inner;
    Status s = ReadWarcFile(dir + "/warc/" + file, [&](ParsedWarcRecord& r) {
      ++report->warc_records;
      std::string type(r.Header("WARC-Type"));
      if (first && type != "warcinfo") {
        inner = Fail(file + " does not start with warcinfo");
        return false;
      }
      if (!first && type == "warcinfo") {
        inner = Fail(file + " has a second warcinfo");
        return false;
      }
      if (r.version != "WARC/1.1") {
        inner = Fail(file + " record version " + r.version);
        return false;
      }
      first = false;
      if (type == "response") {
        Group& g = groups[{file, r.offset}];
        g.type = type;
        g.end = r.offset + r.length;
        g.members = 1;
        g.target = std::string(r.Header("WARC-Target-URI"));
        by_id[std::string(r.Header("WARC-Record-ID"))] = {file, r.offset};
      } else if (type == "request" || type == "metadata") {
        auto it = by_id.find(std::string(r.Header("WARC-Concurrent-To")));
        if (it == by_id.end()) {
          inner = Fail(file + ": " + type + " not concurrent to a response");
          return false;
        }
        Group& g = groups[it->second];
        if (g.end != r.offset) {
          inner = Fail(file + ": group of response at " +
                       std::to_string(it->second.second) + " not contiguous");
          return false;
        }
        g.end = r.offset + r.length;
        ++g.members;
        if (type == "metadata") {
          for (size_t pos = 0; pos < r.block.size();) {
            size_t eol = r.block.find("\r\n", pos);
            std::string line = r.block.substr(pos, eol - pos);
            pos = eol + 2;
            if (line.rfind("topicrawl-page-id: ", 0) == 0) g.page_id = line.substr(19);
            if (line.rfind("outlinks: ", 0) == 0) g.outlinks = line.substr(10);
          }
        }
      }
      return true;
    });
    if (!s.ok()) return s;
    if (!inner.ok()) return inner;
  }
  // 2. The database agrees with the WARC files.
  Db db;
  if (sqlite3_open_v2((dir + "/crawl.db").c_str(), &db.db, SQLITE_OPEN_READONLY,
                      nullptr) != SQLITE_OK) {
    return Fail("cannot open crawl.db");
  }
  sqlite3_stmt* q = nullptr;
  sqlite3_prepare_v2(db.db,
                     "SELECT p.id, p.url, p.final_url, p.warc_file, "
                     "p.warc_offset, p.warc_length, f.state, "
                     "(SELECT count(*) FROM links l WHERE l.from_id = p.id) "
                     "FROM pages p LEFT JOIN frontier f ON f.url = p.url "
                     "ORDER BY p.id",
                     -1, &q, nullptr);
  if (q == nullptr) return Fail(sqlite3_errmsg(db.db));
  std::set<std::string> urls;
  int64_t expected_id = 1;
  Status result;
  while (sqlite3_step(q) == SQLITE_ROW && result.ok()) {
    auto text = [&](int c) {
      const auto* t = sqlite3_column_text(q, c);
      return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
    };
    const int64_t id = sqlite3_column_int64(q, 0);
    const std::string url = text(1);
    ++report->pages;
    if (id != expected_id++) result = Fail("page ids not contiguous at " + std::to_string(id));
    if (!urls.insert(url).second) result = Fail("url stored twice: " + url);
    if (sqlite3_column_type(q, 6) == SQLITE_NULL || sqlite3_column_int(q, 6) != 1) {
      result = Fail("frontier state of stored page " + url + " is not 1");
    }
    if (sqlite3_column_type(q, 3) == SQLITE_NULL) continue;
    ++report->pages_with_warc;
    std::string file = text(3);
    if (file.rfind("warc/", 0) != 0) result = Fail("bad warc_file " + file);
    file = file.substr(5);
    const uint64_t offset = sqlite3_column_int64(q, 4);
    const uint64_t length = sqlite3_column_int64(q, 5);
    auto it = groups.find({file, offset});
    if (it == groups.end()) {
      result = Fail("page " + std::to_string(id) + " has no response record");
      continue;
    }
    Group& g = it->second;
    const std::string target = text(2).empty() ? url : text(2);
    if (g.page_id != std::to_string(id) || g.end - offset != length ||
        g.target != target || g.members < 2 ||
        g.outlinks != std::to_string(sqlite3_column_int64(q, 7))) {
      result = Fail("WARC group of page " + std::to_string(id) +
                    " disagrees with the database");
    }
    g.type = "seen";
  }
  sqlite3_finalize(q);
  if (!result.ok()) return result;
  // No URL is marked done without a stored page; nothing is left unmerged
  // after a clean close (schemas 1-3: schema 4's frontier_log is the
  // frontier).
  // Schema 6: refusals are done without a pages row.
  const bool refusals =
      sqlite3_exec(db.db, "SELECT 1 FROM refusal_reasons LIMIT 0", nullptr, nullptr, nullptr) ==
      SQLITE_OK;
  const std::string done_without_page =
      std::string("SELECT count(*) FROM frontier WHERE state = 1 AND url NOT IN "
                  "(SELECT url FROM pages)") +
      (refusals ? " AND url_id NOT IN (SELECT url_id FROM refusals)" : "");
  for (const char* sql :
       {done_without_page.c_str(),
        "SELECT count(*) FROM frontier_log WHERE "
        "(SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'schema_version') < 4"}) {
    sqlite3_stmt* c = nullptr;
    sqlite3_prepare_v2(db.db, sql, -1, &c, nullptr);
    if (c == nullptr) return Fail(sqlite3_errmsg(db.db));
    const int64_t n = sqlite3_step(c) == SQLITE_ROW ? sqlite3_column_int64(c, 0) : -1;
    sqlite3_finalize(c);
    if (n != 0) return Fail(std::string("expected 0 from: ") + sql);
  }
  for (const auto& [key, g] : groups) {
    if (g.type != "seen") {
      return Fail("response record in " + key.first + " at " +
                  std::to_string(key.second) + " belongs to no page");
    }
  }
  return Status::Ok();
}

Status CreateSchemaV1CrawlDir(const std::string& dir) {
  // crawl_store_open.cc's kSchema at schema version 1 (commit aad6b1e).
  static constexpr char kSchemaV1[] = R"sql(
PRAGMA journal_mode=WAL;
BEGIN;
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
INSERT INTO meta(key,value) VALUES('schema_version','1'),
  ('created_at','1700000000000');
INSERT INTO events(at,kind,detail) VALUES(1700000000000,'created','v1');
COMMIT;
)sql";
  std::error_code ec;
  std::filesystem::create_directories(dir + "/warc", ec);
  if (ec) return Status::Error("cannot create " + dir + "/warc: " + ec.message());
  return ExecOnCrawlDb(dir, kSchemaV1, "schema 1");
}

Status ConvertToSchema3(const std::string& dir) {
  if (Status s = ConvertToSchema5(dir); !s.ok()) return s;
  static constexpr char kToSchema3[] = R"sql(
BEGIN;
CREATE TEMP TABLE merged AS SELECT * FROM frontier;
CREATE TEMP TABLE old_links AS SELECT p.from_id AS from_id,
  (SELECT json_group_array(json_array(to_url, anchor, context, score, explanation))
   FROM (SELECT * FROM links l WHERE l.from_id = p.from_id ORDER BY ord)) AS links
  FROM page_links p;
DROP VIEW frontier;
CREATE TABLE frontier(url_id INTEGER PRIMARY KEY, url TEXT, depth INTEGER,
  parent_id INTEGER, anchor TEXT, score REAL, explanation TEXT, state INTEGER);
INSERT INTO frontier SELECT * FROM temp.merged;
DELETE FROM frontier_log;
DROP TABLE IF EXISTS frontier_state;
DROP VIEW links;
DELETE FROM page_links;
INSERT INTO page_links SELECT from_id, links FROM temp.old_links;
CREATE VIEW links(from_id, ord, to_url, anchor, context, score, explanation) AS
  SELECT p.from_id, j.key, j.value->>0, j.value->>1, j.value->>2, j.value->>3,
         j.value->>4
  FROM page_links AS p, json_each(p.links) AS j;
UPDATE meta SET value = '3' WHERE key = 'schema_version';
COMMIT;
)sql";
  return ExecOnCrawlDb(dir, kToSchema3, "to schema 3");
}

Status ConvertToSchema6(const std::string& dir) {
  // Schema 6's fetches (crawl_store_open.cc at commit 641ac3b).
  static constexpr char kToSchema6[] = R"sql(
BEGIN;
CREATE TEMP TABLE old_fetches AS SELECT * FROM fetches;
DROP TABLE fetches;
CREATE TABLE fetches(url_id INTEGER, round INTEGER, at INTEGER,
  state INTEGER, http_code INTEGER, bytes INTEGER, page_id INTEGER,
  digest INTEGER, simhash INTEGER, etag TEXT, last_modified TEXT,
  new_links INTEGER, out_links INTEGER, revisit INTEGER,
  PRIMARY KEY(url_id, round)) WITHOUT ROWID;
INSERT INTO fetches SELECT * FROM temp.old_fetches;
UPDATE meta SET value = '6' WHERE key = 'schema_version';
COMMIT;
)sql";
  return ExecOnCrawlDb(dir, kToSchema6, "to schema 6");
}

Status ConvertToSchema5(const std::string& dir) {
  if (Status s = ConvertToSchema6(dir); !s.ok()) return s;
  // Schema 5 (crawl_store_open.cc at commit 1e7261f): a refusal is a pages
  // row like any failure (taking the next ids), frontier_state has no
  // reason, at or round column, and there is no refusal_reasons table or
  // refusals view. (Schema 5 also gave a refusal a fetches row; not made
  // here.)
  static constexpr char kToSchema5[] = R"sql(
BEGIN;
INSERT INTO pages(url, status, http_code, fetched_at, depth, parent_id, anchor,
                  size, link_score, error, round)
  SELECT url, status, 0, at, depth, parent_id, anchor, 0, score, error, round
  FROM refusals ORDER BY at, url_id;
CREATE TEMP TABLE refused AS SELECT s.rowid AS r, p.id AS page_id FROM frontier_state s
  JOIN refusals f ON f.url_id = s.url_id JOIN pages p ON p.url = f.url
  WHERE s.reason IS NOT NULL;
UPDATE frontier_state SET page_id = (SELECT x.page_id FROM temp.refused AS x
                                     WHERE x.r = frontier_state.rowid)
  WHERE reason IS NOT NULL;
DROP VIEW refusals;
DROP TABLE refusal_reasons;
ALTER TABLE frontier_state DROP COLUMN reason;
ALTER TABLE frontier_state DROP COLUMN at;
ALTER TABLE frontier_state DROP COLUMN round;
UPDATE meta SET value = '5' WHERE key = 'schema_version';
COMMIT;
)sql";
  return ExecOnCrawlDb(dir, kToSchema5, "to schema 5");
}

Status ConvertToSchema4(const std::string& dir) {
  // Schema 4's frontier (crawl_store_open.cc at commit 682f55c): a state
  // change is a frontier_log row repeating the URL's columns.
  if (Status s = ConvertToSchema5(dir); !s.ok()) return s;
  static constexpr char kToSchema4[] = R"sql(
BEGIN;
CREATE TEMP TABLE done AS SELECT s.rowid AS r, f.url_id, f.url, f.depth,
  f.parent_id, f.anchor, f.score, s.state
  FROM frontier_state s JOIN frontier f ON f.url_id = s.url_id;
DROP VIEW frontier;
DROP TABLE frontier_state;
INSERT INTO frontier_log(url_id, url, depth, parent_id, anchor, score,
                         explanation, state)
  SELECT url_id, url, depth, parent_id, anchor, score, '', state
  FROM temp.done ORDER BY r;
CREATE VIEW frontier(url_id, url, depth, parent_id, anchor, score, explanation,
                     state) AS
  SELECT url_id, url, depth, parent_id, anchor, score, explanation, state FROM (
    SELECT url_id, url, depth, parent_id, anchor, score, explanation,
           max(state) OVER w AS state, row_number() OVER w AS n
    FROM frontier_log
    WINDOW w AS (PARTITION BY url_id ORDER BY rowid
                 ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
  WHERE n = 1;
CREATE TRIGGER frontier_insert INSTEAD OF INSERT ON frontier BEGIN
  INSERT INTO frontier_log(url_id, url, depth, parent_id, anchor, score,
                           explanation, state)
  VALUES(new.url_id, new.url, new.depth, new.parent_id, new.anchor, new.score,
         new.explanation, coalesce(new.state, 0));
END;
CREATE TRIGGER frontier_update INSTEAD OF UPDATE OF state ON frontier
  WHEN new.state > old.state BEGIN
  INSERT INTO frontier_log(url_id, url, depth, parent_id, anchor, score,
                           explanation, state)
  VALUES(old.url_id, old.url, old.depth, old.parent_id, old.anchor, old.score,
         '', new.state);
END;
UPDATE meta SET value = '4' WHERE key = 'schema_version';
COMMIT;
)sql";
  return ExecOnCrawlDb(dir, kToSchema4, "to schema 4");
}

int RunCommand(const std::string& command) {
  int rc = std::system(command.c_str());
  if (rc == -1 || !WIFEXITED(rc)) return -1;
  return WEXITSTATUS(rc);
}

}  // namespace topicrawl::testing
