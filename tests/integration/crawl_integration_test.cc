// End-to-end crawls of small marked sites served on 127.0.0.1 (port 0),
// asserting exactly which URLs were fetched, stored and refused, and why.
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "crawl/crawl_config.h"
#include "crawl/crawler.h"
#include "gtest/gtest.h"
#include "strategies/strategy_registry.h"
#include "support/loopback_crawl_config.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

using testing::ErrorResponse;
using testing::HtmlResponse;
using testing::RedirectResponse;
using testing::TestHttpServer;
using testing::TestResponse;
using testing::TextResponse;

namespace fs = std::filesystem;

std::string Page(const std::string& title, const std::string& body) {
  return "<!doctype html><html><head><title>" + title + "</title></head><body>" + body +
         "</body></html>";
}

// url -> (status, http_code) of every pages row.
std::map<std::string, std::pair<std::string, int>> PagesByUrl(const std::string& dir) {
  std::map<std::string, std::pair<std::string, int>> out;
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "SELECT url, status, http_code FROM pages ORDER BY id", -1, &st, nullptr);
  while (sqlite3_step(st) == SQLITE_ROW) {
    std::string url = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    EXPECT_EQ(out.count(url), 0u) << "stored twice: " << url;
    out[url] = {reinterpret_cast<const char*>(sqlite3_column_text(st, 1)),
                sqlite3_column_int(st, 2)};
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

int64_t QueryInt(const std::string& dir, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  int64_t v = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    v = sqlite3_column_int64(st, 0);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

// The output (stdout and stderr) and exit status of `topicrawl explain DIR URL`.
std::string Explain(const std::string& dir, const std::string& url, int* status) {
  std::string cmd = std::string(TOPICRAWL_BINARY) + " explain '" + dir + "' '" + url + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return "popen failed";
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof(buf), p)) out.append(buf, n);
  *status = pclose(p);
  return out;
}

class CrawlIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    dir_ = ::testing::TempDir() + "/crawl-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
           std::to_string(getpid());
    fs::remove_all(dir_);
  }

  CrawlConfig BaseConfig() {
    CrawlConfig c = testing::LoopbackCrawlConfig(server_.port(), dir_);
    return c;
  }

  // The marked site: every fate the crawler must record.
  void ServeMarkedSite() {
    server_.Set("/robots.txt", TextResponse("User-agent: *\nDisallow: /private/\n"));
    server_.Set("/", HtmlResponse(Page(
        "home",
        "<a href='/a.html'>a</a> <a href='b.html'>b</a> <a href='/private/x.html'>x</a>"
        "<a href='/missing.html'>gone</a> <a href='/redir'>r</a> <a href='/loop1'>l</a>"
        "<a href='/file.bin'>bin</a> <a href='/busy'>busy</a>"
        "<a href='javascript:void(0)'>js</a> <a rel='nofollow' href='/nofollow.html'>nf</a>"
        "<a href='http://site.test/a.html#frag'>dup</a>")));
    server_.Set("/a.html", HtmlResponse(Page("a", "<a href='/c.html'>c</a>")));
    server_.Set("/b.html", HtmlResponse(Page("b", "<a href='/'>home</a>")));
    server_.Set("/c.html", HtmlResponse(Page("c", "leaf")));
    server_.Set("/private/x.html", HtmlResponse(Page("x", "secret")));
    server_.Set("/missing.html", ErrorResponse(404));
    server_.Set("/redir", RedirectResponse(301, "/c2.html"));
    server_.Set("/c2.html", HtmlResponse(Page("c2", "redirect target")));
    server_.Set("/loop1", RedirectResponse(302, "/loop2"));
    server_.Set("/loop2", RedirectResponse(302, "/loop1"));
    server_.Set("/file.bin", TextResponse("binary", "application/octet-stream"));
    server_.Set("/busy", ErrorResponse(503, "0"));
    server_.Set("/nofollow.html", HtmlResponse(Page("nf", "never fetched")));
  }

  // A home page linking to /p0.html .. /p<n-1>.html (each with `body`),
  // no robots.txt.
  void ServeHomeLinkingTo(int n, const std::string& body) {
    std::string links;
    for (int i = 0; i < n; ++i) {
      std::string p = "/p" + std::to_string(i) + ".html";
      links += "<a href='" + p + "'>p</a>";
      server_.Set(p, HtmlResponse(Page("p", body)));
    }
    server_.Set("/robots.txt", ErrorResponse(404));
    server_.Set("/", HtmlResponse(Page("home", links)));
  }

  TestHttpServer server_;
  std::string dir_;
};

TEST_F(CrawlIntegrationTest, BfsRecordsEveryFateExactlyOnce) {
  ServeMarkedSite();
  Crawler crawler(BaseConfig(), nullptr, MakeCrawlStrategy);
  Status s = crawler.Run();
  ASSERT_TRUE(s.ok()) << s.message();

  auto pages = PagesByUrl(dir_);
  std::map<std::string, std::pair<std::string, int>> want = {
      {"http://site.test/", {"ok", 200}},
      {"http://site.test/a.html", {"ok", 200}},
      {"http://site.test/b.html", {"ok", 200}},
      {"http://site.test/c.html", {"ok", 200}},
      {"http://site.test/private/x.html", {"robots_denied", 0}},
      {"http://site.test/missing.html", {"http_error", 404}},
      {"http://site.test/redir", {"ok", 200}},
      {"http://site.test/loop1", {"redirect_loop", 302}},
      {"http://site.test/file.bin", {"content_type_rejected", 200}},
      {"http://site.test/busy", {"http_error", 503}},
  };
  EXPECT_EQ(pages, want);
  EXPECT_EQ(crawler.stats().pages_ok, 5);

  // Robots-denied and nofollow URLs are never requested; the 503 is retried
  // once (max_retries = 1); robots.txt is fetched once.
  EXPECT_EQ(server_.RequestCount("/private/x.html"), 0);
  EXPECT_EQ(server_.RequestCount("/nofollow.html"), 0);
  EXPECT_EQ(server_.RequestCount("/robots.txt"), 1);
  EXPECT_EQ(server_.RequestCount("/busy"), 2);
  EXPECT_EQ(server_.RequestCount("/a.html"), 1);
  // The redirect is recorded with its final URL.
  EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM pages WHERE final_url = "
                           "'http://site.test/c2.html'"),
            1);
  // Every page links back to its seed through parent_id.
  EXPECT_EQ(QueryInt(dir_, "SELECT parent_id FROM pages WHERE url = 'http://site.test/c.html'"),
            QueryInt(dir_, "SELECT id FROM pages WHERE url = 'http://site.test/a.html'"));
  EXPECT_TRUE(fs::exists(dir_ + "/config.toml"));
  EXPECT_FALSE(fs::is_empty(dir_ + "/warc"));

  // `topicrawl explain` walks c.html back to its seed through a.html.
  int rc = -1;
  std::string out = Explain(dir_, "http://site.test/c.html", &rc);
  EXPECT_EQ(rc, 0) << out;
  size_t c = out.find("depth 2  http://site.test/c.html");
  size_t a = out.find("depth 1  http://site.test/a.html");
  size_t seed = out.find("depth 0  http://site.test/\n");
  EXPECT_NE(c, std::string::npos) << out;
  EXPECT_NE(a, std::string::npos) << out;
  EXPECT_NE(seed, std::string::npos) << out;
  EXPECT_LT(c, a);
  EXPECT_LT(a, seed);
}

TEST_F(CrawlIntegrationTest, MaxPagesStopsAtExactlyNOkPages) {
  ServeHomeLinkingTo(50, "x");
  CrawlConfig c = BaseConfig();
  c.max_pages = 20;
  Crawler crawler(c, nullptr, MakeCrawlStrategy);
  ASSERT_TRUE(crawler.Run().ok());
  EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM pages WHERE status = 'ok'"), 20);
}

// The progress figures: ok pages by media type (parameters and case
// dropped; the PDF and the text file are refused by type and, like the
// 404, not counted) and, at the budget, an ETA of 0.
TEST_F(CrawlIntegrationTest, StatsCountOkPagesByContentTypeAndReachTheBudget) {
  server_.Set("/robots.txt", ErrorResponse(404));
  server_.Set("/", HtmlResponse(Page("home",
      "<a href='/a.html'>a</a><a href='/doc.pdf'>pdf</a><a href='/notes.txt'>t</a>"
      "<a href='/gone.html'>g</a><a href='/x.xhtml'>x</a>")));
  server_.Set("/a.html", TextResponse(Page("a", "x"), "Text/HTML; charset=ISO-8859-1"));
  server_.Set("/doc.pdf", TextResponse("%PDF-1.4 not really", "application/pdf"));
  server_.Set("/notes.txt", TextResponse("plain notes", "text/plain"));
  server_.Set("/gone.html", ErrorResponse(404));
  server_.Set("/x.xhtml", TextResponse(Page("x", "y"), "application/xhtml+xml"));
  CrawlConfig c = BaseConfig();
  c.max_pages = 100;
  Crawler crawler(c, nullptr, MakeCrawlStrategy);
  ASSERT_TRUE(crawler.Run().ok());
  const CrawlStats& st = crawler.stats();
  const std::map<std::string, int64_t> types = st.content_types;
  int64_t sum = 0;
  for (const auto& [t, n] : types) sum += n;
  EXPECT_EQ(sum, st.pages_ok);
  EXPECT_EQ(types, (std::map<std::string, int64_t>{{"application/xhtml+xml", 1},
                                                    {"text/html", 2}}));
  EXPECT_EQ(st.pages_failed, 3);
  EXPECT_EQ(st.max_pages, 100);

  // Resumed with a budget already reached: the counts come back from the
  // store and the ETA is 0.
  CrawlConfig again = BaseConfig();
  again.resume = true;
  again.max_pages = st.pages_ok;
  Crawler resumed(again, nullptr, MakeCrawlStrategy);
  ASSERT_TRUE(resumed.Run().ok());
  EXPECT_EQ(resumed.stats().content_types, types);
  EXPECT_EQ(resumed.stats().eta_s, 0.0);
}

// --queue-in-ram: a frontier of 2 links in RAM (per host and overall) spills
// the rest and still serves every page once; the default keeps this small
// site in RAM.
TEST_F(CrawlIntegrationTest, QueueInRamSpillsTheRestAndStillFetchesEveryPageOnce) {
  ServeHomeLinkingTo(120, "<a href='/'>home</a>");
  for (int64_t in_ram : {int64_t{2}, int64_t{1'000'000}}) {
    SCOPED_TRACE("queue_in_ram " + std::to_string(in_ram));
    fs::remove_all(dir_);
    std::vector<int> before;
    for (int i = 0; i < 120; ++i) {
      before.push_back(server_.RequestCount("/p" + std::to_string(i) + ".html"));
    }
    CrawlConfig c = BaseConfig();
    c.queue_in_ram = in_ram;
    c.queue_in_ram_per_host = std::min<int64_t>(in_ram, 10'000);
    Crawler crawler(c, nullptr, MakeCrawlStrategy);
    ASSERT_TRUE(crawler.Run().ok());
    EXPECT_EQ(crawler.stats().pages_ok, 121);
    EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM pages WHERE status = 'ok'"), 121);
    for (int i = 0; i < 120; ++i) {
      EXPECT_EQ(server_.RequestCount("/p" + std::to_string(i) + ".html") - before[i], 1) << i;
    }
    if (in_ram == 2) {
      EXPECT_GE(crawler.stats().links_spilled, 100);  // all but the RAM's few
    } else {
      EXPECT_EQ(crawler.stats().links_spilled, 0);
    }
  }
}

// A session-id trap with fan-out: every /s page links to 4 new /s?sid=N
// URLs. With a budget of 5 URLs per pattern, the first 5 found are queued
// and fetched; the links found after that are not queued at all, only
// counted per pattern (the trap_pattern and trap_links events, the summary
// counter, `explain`).
TEST_F(CrawlIntegrationTest, SpentTrapPatternsAreNotQueued) {
  auto next_sid = std::make_shared<std::atomic<int>>(0);
  server_.SetPrefix("/s", [next_sid](const testing::RecordedRequest&) {
    std::string links;
    for (int i = 0; i < 4; ++i) links += "<a href='/s?sid=" + std::to_string(++*next_sid) + "'>s</a>";
    return HtmlResponse(Page("s", links));
  });
  server_.Set("/robots.txt", ErrorResponse(404));
  server_.Set("/", HtmlResponse(Page("home", "<a href='/s?sid=0'>s</a> <a href='/a.html'>a</a>")));
  server_.Set("/a.html", HtmlResponse(Page("a", "leaf")));
  CrawlConfig c = BaseConfig();
  c.max_urls_per_pattern = 5;
  c.concurrency = 1;  // one page at a time: the counts below are exact
  Crawler crawler(c, nullptr, MakeCrawlStrategy);
  ASSERT_TRUE(crawler.Run().ok());
  int fetched = 0;
  for (const auto& req : server_.Requests()) fetched += req.target.rfind("/s?", 0) == 0;
  EXPECT_EQ(fetched, 5);
  const int64_t not_queued = crawler.stats().links_trap_not_queued;
  // Every sid link found (1 + 4 a fetched page) is fetched or not queued;
  // only the fetched are rows of the store, and nothing is refused.
  EXPECT_EQ(fetched + not_queued, 1 + 4 * 5);
  EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM frontier WHERE url LIKE '%/s?sid=%'"), 5);
  EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM refusals"), 0);
  EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM frontier WHERE state = 0"), 0);
  EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM pages WHERE url = 'http://site.test/a.html' "
                           "AND status = 'ok'"),
            1);
  EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM events WHERE kind = 'trap_pattern' AND "
                           "detail LIKE 'site.test/s?sid: 5 URLs admitted%'"),
            1);
  EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM events WHERE kind = 'trap_links' AND detail = '" +
                               std::to_string(not_queued) +
                               " new links not queued (URL-trap pattern budget spent): "
                               "site.test/s?sid " +
                               std::to_string(not_queued) + ";'"),
            1);
  // `explain` says why a link found after that has no row.
  int rc = -1;
  std::string out = Explain(dir_, "http://site.test/s?sid=20", &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("not queued: http://site.test/s?sid=20\n  its URL-trap pattern had spent "
                     "its budget before a link to it was found: site.test/s?sid: 5 URLs admitted"),
            std::string::npos)
      << out;
}

TEST_F(CrawlIntegrationTest, ResumeContinuesWithoutRefetching) {
  ServeHomeLinkingTo(30, "x");
  CrawlConfig c = BaseConfig();
  c.max_pages = 10;
  {
    Crawler crawler(c, nullptr, MakeCrawlStrategy);
    ASSERT_TRUE(crawler.Run().ok());
  }
  c.resume = true;
  c.max_pages = 0;
  {
    Crawler crawler(c, nullptr, MakeCrawlStrategy);
    Status s = crawler.Run();
    ASSERT_TRUE(s.ok()) << s.message();
  }
  auto pages = PagesByUrl(dir_);  // asserts no URL stored twice
  EXPECT_EQ(pages.size(), 31u);
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(server_.RequestCount("/p" + std::to_string(i) + ".html"), 1) << i;
  }
}

// Issue 12: a resumed crawl's summary counts the directory's relevant pages
// (it said 0) and its rate covers only its own pages (it divided every stored
// page by the resume's few seconds).
TEST_F(CrawlIntegrationTest, ResumedSummaryCountsRelevantPagesAndItsOwnRate) {
  std::string links;
  for (int i = 0; i < 30; ++i) {
    std::string p = "/p" + std::to_string(i) + ".html";
    links += "<a href='" + p + "'>p</a>";
    server_.Set(p, HtmlResponse(Page(i % 2 ? "firewall" : "soup",
                                     i % 2 ? "firewall router packet exploit" : "tomato salt")));
  }
  server_.Set("/robots.txt", ErrorResponse(404));
  server_.Set("/", HtmlResponse(Page("firewall home", "firewall router " + links)));
  std::ofstream(dir_ + "-topic.txt") << "firewall\t1.0\nrouter\t0.8\npacket\t0.7\n";
  CrawlConfig c = BaseConfig();
  c.strategy = "best-first";
  c.topic_file = dir_ + "-topic.txt";
  c.max_pages = 12;
  int64_t first_relevant = 0;
  {
    Crawler crawler(c, nullptr, MakeCrawlStrategy);
    ASSERT_TRUE(crawler.Run().ok());
    first_relevant = crawler.stats().relevant;
    EXPECT_EQ(crawler.stats().pages_ok_before, 0);
    EXPECT_NEAR(crawler.stats().RunRate() * crawler.stats().elapsed_s, 12, 1e-6);
  }
  ASSERT_GT(first_relevant, 0) << "the topic marks some pages relevant";
  // A resume with nothing left to fetch: every figure is the directory's,
  // the rate is 0 (no page of its own).
  c.resume = true;
  {
    Crawler crawler(c, nullptr, MakeCrawlStrategy);
    ASSERT_TRUE(crawler.Run().ok());
    EXPECT_EQ(crawler.stats().pages_ok, 12);
    EXPECT_EQ(crawler.stats().pages_ok_before, 12);
    EXPECT_EQ(crawler.stats().relevant, first_relevant);
    EXPECT_EQ(crawler.stats().RunRate(), 0.0);
  }
  // A resume that fetches the rest: relevant grows from the stored count,
  // the rate covers the 19 new pages only.
  c.max_pages = 0;
  {
    Crawler crawler(c, nullptr, MakeCrawlStrategy);
    ASSERT_TRUE(crawler.Run().ok());
    const CrawlStats& st = crawler.stats();
    EXPECT_EQ(st.pages_ok, 31);
    EXPECT_EQ(st.pages_ok_before, 12);
    EXPECT_EQ(st.relevant, QueryInt(dir_, "SELECT count(*) FROM pages WHERE status = 'ok' AND "
                                          "relevance >= (SELECT value FROM meta WHERE key = 'beta')"));
    EXPECT_GT(st.relevant, first_relevant);
    EXPECT_NEAR(st.RunRate() * st.elapsed_s, 19, 1e-6);
  }
  std::filesystem::remove(dir_ + "-topic.txt");
}

TEST_F(CrawlIntegrationTest, KillNineAtAnyMomentLosesNothingStoresNothingTwice) {
  // The real binary, killed with SIGKILL mid-crawl, then resumed.
  std::string links;
  for (int i = 0; i < 400; ++i) {
    std::string p = "/k" + std::to_string(i) + ".html";
    links += "<a href='" + p + "'>k</a>";
    TestResponse r = HtmlResponse(Page("k", "page " + std::to_string(i)));
    r.delay = std::chrono::milliseconds(10);
    server_.Set(p, r);
  }
  server_.Set("/robots.txt", ErrorResponse(404));
  server_.Set("/", HtmlResponse(Page("home", links)));
  std::string seeds = dir_ + "-seeds.txt";
  std::ofstream(seeds) << "http://site.test/\n";
  std::string connect = "site.test:80:127.0.0.1:" + std::to_string(server_.port());
  const std::string bin = TOPICRAWL_BINARY;

  for (int round = 0; round < 4; ++round) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, 1);
      dup2(devnull, 2);
      if (round == 0) {
        execl(bin.c_str(), bin.c_str(), "crawl", "--seeds", seeds.c_str(), "--out",
              dir_.c_str(), "--delay", "0", "--concurrency", "4", "--connect-to",
              connect.c_str(), "--max-pages", "0", static_cast<char*>(nullptr));
      } else {
        execl(bin.c_str(), bin.c_str(), "crawl", "--resume", dir_.c_str(),
              static_cast<char*>(nullptr));
      }
      _exit(127);
    }
    if (round == 0) {
      // The first kill lands once the seeds are committed (the directory is
      // resumable from then on; a kill before that leaves a directory that
      // `--resume` refuses as an interrupted creation: crawl_store_open_test).
      // On a loaded machine the start alone can take longer than a fixed
      // wait.
      for (int i = 0; i < 600 && QueryInt(dir_, "SELECT count(*) FROM frontier") <= 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      if (QueryInt(dir_, "SELECT count(*) FROM frontier") <= 0) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        FAIL() << "the crawl committed no seeds within 60 s";
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(round == 0 ? 300 : 200 + 130 * round));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
  }
  // Final resume runs to completion.
  std::string cmd = bin + " crawl --resume " + dir_ + " > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  auto pages = PagesByUrl(dir_);  // asserts no URL stored twice
  EXPECT_EQ(pages.size(), 401u);
  for (const auto& [url, fate] : pages) EXPECT_EQ(fate.first, "ok") << url;
  EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM frontier WHERE state = 0"), 0);
}

}  // namespace
}  // namespace topicrawl

namespace topicrawl {
namespace {

std::vector<std::string> UrlsInOrder(const std::string& dir) {
  std::vector<std::string> out;
  sqlite3* db = nullptr;
  sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "SELECT url FROM pages ORDER BY id", -1, &st, nullptr);
  while (sqlite3_step(st) == SQLITE_ROW) {
    out.push_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

TEST_F(CrawlIntegrationTest, DeterministicModeReplaysTheSameCrawl) {
  // A small graph whose discovery order depends on which page is processed
  // first; deterministic mode must replay it exactly.
  server_.Set("/robots.txt", ErrorResponse(404));
  std::string home;
  for (int i = 0; i < 8; ++i) {
    home += "<a href='/d" + std::to_string(i) + ".html'>d</a>";
    std::string body;
    for (int j = 0; j < 3; ++j) {
      body += "<a href='/e" + std::to_string((i * 7 + j * 3) % 20) + ".html'>e</a>";
    }
    TestResponse r = HtmlResponse(Page("d", body));
    r.delay = std::chrono::milliseconds((i * 37) % 11);
    server_.Set("/d" + std::to_string(i) + ".html", r);
  }
  for (int k = 0; k < 20; ++k) {
    server_.Set("/e" + std::to_string(k) + ".html", HtmlResponse(Page("e", "leaf")));
  }
  server_.Set("/", HtmlResponse(Page("home", home)));
  std::vector<std::vector<std::string>> runs;
  for (int run = 0; run < 2; ++run) {
    CrawlConfig c = BaseConfig();
    c.out_dir = dir_ + "-det" + std::to_string(run);
    fs::remove_all(c.out_dir);
    c.deterministic = true;
    c.max_pages = 15;
    Crawler crawler(c, nullptr, MakeCrawlStrategy);
    ASSERT_TRUE(crawler.Run().ok());
    runs.push_back(UrlsInOrder(c.out_dir));
  }
  ASSERT_EQ(runs[0].size(), 15u);
  EXPECT_EQ(runs[0], runs[1]);
}

}  // namespace
}  // namespace topicrawl
