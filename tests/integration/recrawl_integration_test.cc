// Incremental crawling end to end (issue 11): the real binary crawls a site
// on 127.0.0.1, the test edits the site, `topicrawl recrawl` runs the next
// round. Asserts the state the store records for every URL, the WARC
// revisit records (project reader and warcio from npm), eval's per-round
// metrics, and that kill -9 in the middle of a round followed by
// `recrawl --resume` gives the same store as an uninterrupted round.
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "store/warc_reader.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

using testing::ErrorResponse;
using testing::HtmlResponse;
using testing::TestHttpServer;
using testing::TestResponse;

namespace fs = std::filesystem;

std::string Page(const std::string& title, const std::string& body) {
  return "<!doctype html><html><head><title>" + title + "</title></head><body>" + body +
         "</body></html>";
}

// Deterministic filler text of `n` words.
std::string Words(int n, int seed) {
  std::string s;
  uint64_t x = static_cast<uint64_t>(seed) * 2654435761u + 1;
  for (int i = 0; i < n; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    s += "w" + std::to_string((x >> 33) % 3000) + " ";
  }
  return s;
}

std::vector<std::string> Rows(const std::string& dir, const std::string& sql) {
  std::vector<std::string> out;
  sqlite3* db = nullptr;
  sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << sqlite3_errmsg(db) << " in " << sql;
  }
  while (st && sqlite3_step(st) == SQLITE_ROW) {
    std::string row;
    for (int c = 0; c < sqlite3_column_count(st); ++c) {
      if (c) row += "|";
      const auto* t = sqlite3_column_text(st, c);
      row += t ? reinterpret_cast<const char*>(t) : "NULL";
    }
    out.push_back(row);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

std::string One(const std::string& dir, const std::string& sql) {
  auto rows = Rows(dir, sql);
  return rows.empty() ? "<none>" : rows[0];
}

// One value, or "" while the database cannot be read yet (a crawl process
// starting up): for polling, where an error is not a test failure.
std::string PollOne(const std::string& dir, const std::string& sql) {
  std::string out;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
      SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
      const auto* t = sqlite3_column_text(st, 0);
      if (t) out = reinterpret_cast<const char*>(t);
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return out;
}

// path -> state name of every fetch of `round`.
std::map<std::string, std::string> States(const std::string& dir, int round) {
  static const char* kNames[] = {"not_fetched", "new",  "changed", "trivially_changed",
                                 "unchanged",   "gone", "failed"};
  std::map<std::string, std::string> out;
  for (const std::string& row :
       Rows(dir, "SELECT f.url, h.state FROM fetches h JOIN frontier f USING(url_id) "
                 "WHERE h.round = " + std::to_string(round))) {
    const size_t bar = row.rfind('|');
    std::string url = row.substr(0, bar);
    url = url.substr(url.find('/', 8));  // path
    out[url] = kNames[std::stoi(row.substr(bar + 1))];
  }
  return out;
}

int Sh(const std::string& cmd) {
  int rc = std::system((cmd + " > /dev/null 2>&1").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

class RecrawlIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    base_ = ::testing::TempDir() + "/recrawl-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
            std::to_string(getpid());
    fs::remove_all(base_);
    fs::create_directories(base_);
    seeds_ = base_ + "/seeds.txt";
    std::ofstream(seeds_) << "http://site.test/\n";
    server_.Set("/robots.txt", ErrorResponse(404));
  }
  void TearDown() override { fs::remove_all(base_); }

  std::string Flags() const {
    return " --delay 0 --concurrency 4 --connect-to site.test:80:127.0.0.1:" +
           std::to_string(server_.port());
  }
  std::string Crawl(const std::string& dir) const {
    return bin_ + " crawl --seeds " + seeds_ + " --out " + dir + " --max-pages 0" + Flags();
  }
  std::string Recrawl(const std::string& dir, const std::string& extra = "") const {
    return bin_ + " recrawl " + dir + " " + extra + Flags();
  }

  TestHttpServer server_;
  std::string base_, seeds_;
  const std::string bin_ = TOPICRAWL_BINARY;
};

TEST_F(RecrawlIntegrationTest, RoundsRecordEveryStateAndRevisitRecords) {
  const std::string common = Words(400, 7);
  auto home = [&](bool with_f) {
    std::string links;
    for (const char* p : {"a", "b", "c", "d", "e", "g", "h"}) {
      links += std::string("<a href='/") + p + ".html'>" + p + "</a> ";
    }
    if (with_f) links += "<a href='/f.html'>f</a>";
    return HtmlResponse(Page("home", "<p>" + Words(50, with_f ? 11 : 1) + "</p>" + links));
  };
  TestResponse a = HtmlResponse(Page("a", "<p>" + Words(200, 2) + "</p>"));
  a.headers.push_back({"ETag", "\"a1\""});
  server_.Set("/", home(false));
  server_.Set("/a.html", a);
  server_.Set("/b.html", HtmlResponse(Page("b", "<p>" + Words(200, 3) + "</p>")));
  server_.Set("/c.html", HtmlResponse(Page("c", "<p>" + Words(200, 4) + "</p>")));
  server_.Set("/d.html", HtmlResponse(Page("d", "<p>" + common + "</p><p>release 15.18</p>")));
  server_.Set("/e.html", HtmlResponse(Page("e", "<p>" + Words(200, 5) + "</p>")));
  // g and h: the same text under two URLs (near-duplicates).
  server_.Set("/g.html", HtmlResponse(Page("g", "<p>" + Words(300, 6) + "</p>")));
  server_.Set("/h.html", HtmlResponse(Page("h", "<p>" + Words(300, 6) + " extra</p>")));
  server_.Set("/f.html", HtmlResponse(Page("f", "<p>" + Words(200, 8) + "</p>")));
  const std::string dir = base_ + "/crawl";
  ASSERT_EQ(Sh(Crawl(dir)), 0);
  auto r0 = States(dir, 0);
  EXPECT_EQ(r0.size(), 8u);
  for (const auto& [path, state] : r0) EXPECT_EQ(state, "new") << path;
  EXPECT_EQ(One(dir, "SELECT count(*) FROM pages WHERE near_dup_of IS NOT NULL"), "1");
  // A finished round cannot be resumed; the next one is planned instead.
  EXPECT_EQ(Sh(Recrawl(dir, "--resume")), 2);
  EXPECT_EQ(Sh(Recrawl(dir, "--policy nope")), 2);

  // Round 1: the web evolves.
  server_.Set("/", home(true));
  server_.Set("/c.html", HtmlResponse(Page("c", "<p>" + Words(200, 9) + "</p>")));
  server_.Set("/d.html", HtmlResponse(Page("d", "<p>" + common + "</p><p>release 15.20</p>")));
  server_.Set("/e.html", ErrorResponse(410));
  server_.ClearLog();
  ASSERT_EQ(Sh(Recrawl(dir, "--policy full")), 0);
  auto r1 = States(dir, 1);
  const std::map<std::string, std::string> want1 = {
      {"/", "changed"},           {"/a.html", "unchanged"}, {"/b.html", "unchanged"},
      {"/c.html", "changed"},     {"/d.html", "trivially_changed"},
      {"/e.html", "gone"},        {"/f.html", "new"},       {"/g.html", "unchanged"},
      {"/h.html", "unchanged"}};
  EXPECT_EQ(r1, want1);
  // Conditional GET: a got If-None-Match and answered 304 without a body.
  bool conditional = false;
  for (const auto& req : server_.Requests()) {
    if (req.target == "/a.html") conditional = req.Header("If-None-Match") == "\"a1\"";
  }
  EXPECT_TRUE(conditional);
  EXPECT_EQ(One(dir, "SELECT http_code || ':' || bytes FROM fetches h JOIN frontier f "
                     "USING(url_id) WHERE h.round = 1 AND f.url LIKE '%/a.html'"),
            "304:0");
  // New versions only: home, c, d, f in round 1; unchanged and gone pages
  // add no pages rows; gone e keeps its round-0 version.
  EXPECT_EQ(One(dir, "SELECT count(*) FROM pages WHERE round = 1"), "4");
  EXPECT_EQ(One(dir, "SELECT count(*) FROM pages WHERE url LIKE '%/e.html'"), "1");

  // Revisit records: a (304) and b, g, h (equal digests), readable by the
  // project's strict reader.
  std::map<std::string, int> profiles;
  int records = 0;
  for (const auto& e : fs::directory_iterator(dir + "/warc")) {
    Status s = ReadWarcFile(e.path().string(), [&](ParsedWarcRecord& r) {
      ++records;
      if (r.Header("WARC-Type") == "revisit") {
        ++profiles[std::string(r.Header("WARC-Profile"))];
        EXPECT_FALSE(r.Header("WARC-Refers-To-Target-URI").empty());
        EXPECT_FALSE(r.Header("WARC-Refers-To-Date").empty());
        EXPECT_FALSE(r.Header("WARC-Payload-Digest").empty());
        EXPECT_FALSE(r.Header("WARC-Refers-To").empty());
      }
      return true;
    });
    EXPECT_TRUE(s.ok()) << s.message();
  }
  EXPECT_EQ(profiles["http://netpreserve.org/warc/1.1/revisit/server-not-modified"], 1);
  EXPECT_EQ(profiles["http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"], 3);

  // warcio (npm, installed by scripts/setup) reads every file too.
  const std::string node_modules = std::string(TOPICRAWL_SOURCE_DIR) + "/third_party_data/node/node_modules";
  if (fs::exists(node_modules + "/warcio") && Sh("node --version") == 0) {
    const std::string out = base_ + "/warcio.txt";
    std::string cmd = "NODE_PATH=" + node_modules + " node " + TOPICRAWL_SOURCE_DIR +
                      "/tests/integration/warcio_count.cjs";
    for (const auto& e : fs::directory_iterator(dir + "/warc")) cmd += " " + e.path().string();
    ASSERT_EQ(std::system((cmd + " > " + out).c_str()), 0) << cmd;
    std::ifstream in(out);
    std::string line;
    int lines = 0, revisits = 0;
    while (std::getline(in, line)) {
      ++lines;
      if (line.rfind("revisit\t", 0) == 0) {
        ++revisits;
        EXPECT_NE(line.find("http://site.test/"), std::string::npos) << line;
        EXPECT_NE(line.find("sha1:"), std::string::npos) << line;
      }
    }
    EXPECT_EQ(lines, records);
    EXPECT_EQ(revisits, 4);
  } else {
    ADD_FAILURE() << "warcio is not installed (run scripts/setup): " << node_modules;
  }

  // Round 2 over an unchanged web: everything unchanged, e (gone) is not
  // asked again, no new version, and eval's per-round metrics agree.
  ASSERT_EQ(Sh(Recrawl(dir)), 0);
  auto r2 = States(dir, 2);
  EXPECT_EQ(r2.size(), 8u);
  EXPECT_EQ(r2.count("/e.html"), 0u);
  for (const auto& [path, state] : r2) EXPECT_EQ(state, "unchanged") << path;
  EXPECT_EQ(One(dir, "SELECT count(*) FROM pages WHERE round = 2"), "0");
  EXPECT_EQ(One(dir, "SELECT count(*) FROM (SELECT url, round FROM pages GROUP BY url, round "
                     "HAVING count(*) > 1)"),
            "0");

  // Truth of the three rounds (the web evolve format) -> eval --truth-dir.
  const std::string truth = base_ + "/evo";
  fs::create_directories(truth + "/truth");
  std::ofstream(truth + "/evolve.tsv") << "format\ttopicrawl-evolved-web-1\nrounds\t2\n";
  auto url = [](const std::string& p) { return "http://site.test/" + p; };
  std::ofstream t0(truth + "/truth/round-0.tsv");
  t0 << "url\tstate\n";
  for (const char* p : {"a.html", "b.html", "c.html", "d.html", "e.html", "g.html", "h.html",
                        "index.html"}) {
    t0 << url(p) << "\tnew\n";
  }
  t0.close();
  std::ofstream(truth + "/truth/round-1.tsv")
      << "url\tstate\n" << url("a.html") << "\tunchanged\n" << url("b.html") << "\tunchanged\n"
      << url("c.html") << "\tchanged\n" << url("d.html") << "\tchanged\n" << url("e.html")
      << "\tgone\n" << url("f.html") << "\tnew\n" << url("g.html") << "\tunchanged\n"
      << url("h.html") << "\tunchanged\n" << url("index.html") << "\tchanged\n";
  std::ofstream t2(truth + "/truth/round-2.tsv");
  t2 << "url\tstate\n";
  for (const char* p : {"a.html", "b.html", "c.html", "d.html", "f.html", "g.html", "h.html",
                        "index.html"}) {
    t2 << url(p) << "\tunchanged\n";
  }
  t2.close();
  for (int k = 0; k < 3; ++k) {
    std::ofstream(truth + "/truth/hubs-" + std::to_string(k) + ".tsv") << "url\tnew_links\n";
  }
  const std::string json = base_ + "/eval.json";
  ASSERT_EQ(std::system((bin_ + " eval " + dir + " --truth-dir " + truth + " --json > " + json +
                         " --plot " + base_ + "/rounds.svg")
                            .c_str()),
            0);
  std::ifstream in(json);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto has = [&](const std::string& s) { return text.find(s) != std::string::npos; };
  EXPECT_TRUE(has("\"changed_found\": 3")) << text;
  EXPECT_TRUE(has("\"changed_total\": 3")) << text;
  EXPECT_TRUE(has("\"changed_as_trivial\": 1")) << text;
  EXPECT_TRUE(has("\"gone_found\": 1")) << text;
  EXPECT_TRUE(has("\"new_found\": 1")) << text;
  EXPECT_TRUE(has("\"not_modified\": 1")) << text;
  EXPECT_TRUE(has("\"freshness\": 1.0")) << text;
  EXPECT_TRUE(fs::file_size(base_ + "/rounds.svg") > 1000);
  // Bad input: a directory that is not a crawl; truth of other hosts.
  EXPECT_NE(Sh(Recrawl(base_ + "/evo")), 0);
  EXPECT_NE(Sh(bin_ + " eval " + truth + " --truth-dir " + truth), 0);
}

TEST_F(RecrawlIntegrationTest, KillNineMidRoundThenResumeEqualsAnUninterruptedRound) {
  // 240 pages, slow enough that a round takes ~1.5 s at 4 transfers.
  auto serve = [&](int round) {
    std::string links;
    for (int i = 0; i < 240; ++i) {
      const std::string p = "/k" + std::to_string(i) + ".html";
      if (round == 1 && i % 24 == 5) {  // gone
        server_.Set(p, ErrorResponse(404));
      } else {
        const int version = round == 1 && i % 3 == 0 ? 1 : 0;  // a third changes
        TestResponse r = HtmlResponse(Page("k", "<p>" + Words(80, i * 10 + version) + "</p>"));
        r.delay = std::chrono::milliseconds(20);
        server_.Set(p, r);
      }
      links += "<a href='" + p + "'>k</a>";
    }
    if (round == 1) {
      for (int i = 0; i < 20; ++i) {
        const std::string p = "/n" + std::to_string(i) + ".html";
        links += "<a href='" + p + "'>n</a>";
        server_.Set(p, HtmlResponse(Page("n", "<p>" + Words(80, 5000 + i) + "</p>")));
      }
    }
    server_.Set("/", HtmlResponse(Page("home", links)));
  };
  serve(0);
  const std::string a = base_ + "/a", b = base_ + "/b";
  ASSERT_EQ(Sh(Crawl(a)), 0);
  ASSERT_EQ(Sh(Crawl(b)), 0);
  serve(1);
  ASSERT_EQ(Sh(Recrawl(a)), 0);  // uninterrupted

  // b: killed twice in the middle of round 1, then resumed to the end.
  for (int attempt = 0; attempt < 3; ++attempt) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, 1);
      dup2(devnull, 2);
      const std::string cmd = attempt == 0 ? Recrawl(b) : Recrawl(b, "--resume");
      execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    // Kill only once round 1 has begun storing (a fixed delay alone lost the
    // race on a loaded machine: the kill landed before the round started).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline &&
           PollOne(b, "SELECT count(*) > 0 FROM pages WHERE round = 1") != "1") {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(attempt == 0 ? 300 : 400));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
  }
  ASSERT_EQ(One(b, "SELECT value FROM meta WHERE key = 'round'"), "1");
  ASSERT_EQ(Sh(Recrawl(b, "--resume")), 0);

  auto sa = States(a, 1), sb = States(b, 1);
  EXPECT_EQ(sa.size(), 261u);  // home + 240 + 20 new
  EXPECT_EQ(sa, sb);
  int changed = 0, gone = 0, fresh = 0, unchanged = 0;
  for (const auto& [p, s] : sa) {
    changed += s == "changed" || s == "trivially_changed";
    gone += s == "gone";
    fresh += s == "new";
    unchanged += s == "unchanged";
  }
  EXPECT_EQ(changed, 1 + 80);  // home + every third page (none of them gone)
  EXPECT_EQ(gone, 10);
  EXPECT_EQ(fresh, 20);
  EXPECT_EQ(unchanged, 240 - 80 - 10);
  // The same versions: one pages row per (url, round), same counts.
  for (const std::string& d : {a, b}) {
    EXPECT_EQ(One(d, "SELECT count(*) FROM pages WHERE round = 1"), "101") << d;
    EXPECT_EQ(One(d, "SELECT count(*) FROM (SELECT url, round FROM pages GROUP BY url, round "
                     "HAVING count(*) > 1)"),
              "0")
        << d;
    EXPECT_EQ(One(d, "SELECT count(*) FROM frontier WHERE state = 0"), "0") << d;
  }
}

}  // namespace
// Seed 003 end to end: three section directories of six pages each; in
// round 1 one section gains a page. `collect-hubs` labels from the truth
// files and from the link graph; `recrawl --policy hubs` (no model file: it
// trains one on the crawl's own structural labels) revisits the sections,
// not the content pages, and finds the new page.
TEST_F(RecrawlIntegrationTest, HubsPolicyRevisitsTheSectionsAndFindsTheirNewPage) {
  auto section = [&](const std::string& s, int pages) {
    std::string links;
    for (int n = 1; n <= pages; ++n) {
      links += "<li><a href='/docs/" + s + "/p" + std::to_string(n) + ".html'>Page " +
               std::to_string(n) + "</a></li>";
    }
    return HtmlResponse(Page("section " + s, "<ul>" + links + "</ul>"));
  };
  std::string home_links;
  for (const std::string s : {"a", "b", "c"}) {
    home_links += "<a href='/docs/" + s + "/'>Section " + s + "</a> ";
    server_.Set("/docs/" + s + "/", section(s, 6));
    for (int n = 1; n <= 7; ++n) {
      server_.Set("/docs/" + s + "/p" + std::to_string(n) + ".html",
                  HtmlResponse(Page(s + std::to_string(n),
                                    "<p>" + Words(120, n * 7 + s[0]) + "</p><a href='/docs/" + s +
                                        "/'>up</a>")));
    }
  }
  server_.Set("/", HtmlResponse(Page("home", home_links)));
  const std::string dir = base_ + "/crawl";
  ASSERT_EQ(Sh(Crawl(dir)), 0);
  ASSERT_EQ(States(dir, 0).size(), 22u);  // home, 3 sections, 18 pages

  // Labels from the truth of an evolving web (hand-written here): the
  // section that gains a page in round 1 is the hub.
  const std::string truth = base_ + "/truth";
  fs::create_directories(truth + "/truth");
  std::ofstream(truth + "/evolve.tsv") << "format\ttopicrawl-evolved-web-1\nrounds\t1\n";
  std::ofstream(truth + "/truth/round-1.tsv") << "url\tstate\nhttp://site.test/docs/a/p7.html\tnew\n";
  std::ofstream(truth + "/truth/hubs-1.tsv") << "url\tnew_links\nhttp://site.test/docs/a/\t1\n";
  const std::string tsv = base_ + "/hubs.tsv";
  ASSERT_EQ(Sh(bin_ + " collect-hubs " + dir + " --truth-dir " + truth + " --out " + tsv), 0);
  auto labels = [&]() {
    std::map<std::string, std::string> out;  // url -> its `label` column
    std::ifstream in(tsv);
    std::string line, cell;
    std::getline(in, line);
    std::vector<std::string> header;
    for (std::istringstream h(line); std::getline(h, cell, '\t');) header.push_back(cell);
    const size_t col = std::find(header.begin(), header.end(), "label") - header.begin();
    EXPECT_LT(col, header.size()) << line;
    while (std::getline(in, line)) {
      std::vector<std::string> cells;
      for (std::istringstream r(line); std::getline(r, cell, '\t');) cells.push_back(cell);
      if (col < cells.size()) out[cells[0]] = cells[col];
    }
    return out;
  };
  auto truth_labels = labels();
  ASSERT_EQ(truth_labels.size(), 22u);
  for (const auto& [url, label] : truth_labels) {
    EXPECT_EQ(label, url == "http://site.test/docs/a/" ? "1" : "0") << url;
  }
  ASSERT_EQ(Sh(bin_ + " collect-hubs " + dir + " --structural --out " + tsv), 0);
  for (const auto& [url, label] : labels()) {
    const bool is_section = url.find("/docs/") != std::string::npos && url.back() == '/';
    EXPECT_EQ(label, is_section ? "1" : "0") << url;
  }
  EXPECT_EQ(Sh(bin_ + " collect-hubs " + dir + " --structural --truth-dir " + truth +
               " --out " + tsv),
            2);

  // A site-relative model (train hub-svm --features url-site) on these
  // labels: `hub` and the policy read the feature reading from the file.
  const std::string model = base_ + "/site.model";
  ASSERT_EQ(Sh(bin_ + " train hub-svm --data " + tsv + " --all --features url-site --folds 3 " +
               "--log2c -1:3:2 --log2g -3:1:2 --threads 1 --out " + model),
            0);
  const std::string scores = base_ + "/scores.txt";
  ASSERT_EQ(Sh("(" + bin_ + " hub --model " + model +
               " http://site.test/docs/a/ http://site.test/docs/a/p1.html > " + scores + ")"),
            0);
  {
    std::ifstream in(scores);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("url_length_site_pct="), std::string::npos) << text;
    EXPECT_NE(text.find("http://site.test/docs/a/p1.html"), std::string::npos) << text;
  }
  const std::string site_dir = base_ + "/crawl-site";
  fs::copy(dir, site_dir, fs::copy_options::recursive);

  // Round 1: section a links to its new page p7.
  server_.Set("/docs/a/", section("a", 7));
  // The site-relative model with a budget of 5 revisits: the new page too.
  ASSERT_EQ(Sh(Recrawl(site_dir, "--policy hubs --budget 5 --model " + model)), 0);
  EXPECT_EQ(States(site_dir, 1)["/docs/a/p7.html"], "new");
  ASSERT_EQ(Sh(Recrawl(dir, "--policy hubs")), 0);
  auto r1 = States(dir, 1);
  EXPECT_EQ(r1["/docs/a/p7.html"], "new");
  EXPECT_EQ(r1["/docs/a/"], "trivially_changed");
  for (const auto& [path, state] : r1) {
    const bool content = path.find(".html") != std::string::npos;
    if (content) {
      EXPECT_EQ(path, "/docs/a/p7.html") << "content page revisited";
    }
  }
  EXPECT_LE(r1.size(), 6u);  // sections, home (seed) and the new page; full: 23
}

}  // namespace topicrawl
