// End to end: `topicrawl crawl --serve` on a loopback site; the live API
// while it runs (seeds added through POST /api/seeds), /metrics parsed
// strictly and compared with crawl.db at the end, stop through the API;
// then export, index and search on the finished directory, and the CLI's
// answer to an unknown command.
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "server/prometheus_text.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

using nlohmann::json;
using testing::ErrorResponse;
using testing::HtmlResponse;
using testing::TestHttpServer;
using testing::TestResponse;
namespace fs = std::filesystem;

std::string Page(const std::string& title, const std::string& body) {
  return "<!doctype html><html><head><meta charset=\"utf-8\"><title>" + title +
         "</title></head><body>" + body + "</body></html>";
}

int64_t QueryInt(const std::string& dir, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  int64_t v = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    v = sqlite3_column_int64(st, 0);
  } else {
    ADD_FAILURE() << dir << ": " << sql << ": " << sqlite3_errmsg(db);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

// Runs a shell command; returns (exit code, stdout + stderr).
std::pair<int, std::string> Shell(const std::string& cmd) {
  FILE* p = popen(("(" + cmd + ") 2>&1").c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

class ServeIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    base_ = ::testing::TempDir() + "/serve-it-" + std::to_string(getpid());
    fs::remove_all(base_);
    fs::create_directories(base_);
    dir_ = base_ + "/crawl";
  }
  void TearDown() override {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    fs::remove_all(base_);
  }
  TestHttpServer server_;
  std::string base_, dir_;
  pid_t pid_ = -1;
};

TEST_F(ServeIntegrationTest, LiveApiSeedsMetricsStopExportSearch) {
  // A home page with 30 links; the home answers after 1.5 s so that the
  // crawl is still running when the test posts a seed.
  std::string links;
  for (int i = 0; i < 30; ++i) {
    const bool net = i % 3 != 0;
    const std::string p = "/p" + std::to_string(i);
    links += "<a href=\"" + p + "\">page " + std::to_string(i) + "</a> ";
    server_.Set(p, HtmlResponse(Page(net ? "Firewall rules " + std::to_string(i) : "Soup recipe",
                                     net ? "<p>firewall router packet tcp routing 防火墙</p>"
                                         : "<p>tomato soup salt</p>")));
  }
  server_.Set("/gone", ErrorResponse(404));
  links += "<a href=\"/gone\">gone</a>";
  TestResponse home = HtmlResponse(Page("Networking home", "<p>firewall router</p>" + links));
  home.delay = std::chrono::milliseconds(1500);
  server_.Set("/", home);
  server_.Set("/extra", HtmlResponse(Page("Extra firewall page", "<p>firewall extra</p>")));
  server_.Set("/robots.txt", ErrorResponse(404));
  std::ofstream(base_ + "/seeds.txt") << "http://site.test/\n";
  std::ofstream(base_ + "/topic.txt") << "firewall\t1.0\nrouter\t0.8\npacket\t0.7\n";
  const std::string connect = "site.test:80:127.0.0.1:" + std::to_string(server_.port());
  const std::string log = base_ + "/crawl.log";
  const std::string bin = TOPICRAWL_BINARY;

  pid_ = fork();
  ASSERT_GE(pid_, 0);
  if (pid_ == 0) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    execl(bin.c_str(), bin.c_str(), "crawl", "--seeds", (base_ + "/seeds.txt").c_str(), "--topic",
          (base_ + "/topic.txt").c_str(), "--strategy", "best-first", "--delay", "0",
          "--connect-to", connect.c_str(), "--serve", "127.0.0.1:0", "--serve-linger", "60",
          "--out", dir_.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // The dashboard URL is printed as the crawl starts.
  int port = 0;
  for (int i = 0; i < 200 && port == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream in(log);
    std::stringstream ss;
    ss << in.rdbuf();
    std::smatch m;
    const std::string text = ss.str();
    if (std::regex_search(text, m, std::regex("dashboard: http://127\\.0\\.0\\.1:(\\d+)/"))) {
      port = std::stoi(m[1]);
    }
  }
  ASSERT_GT(port, 0) << "no dashboard URL printed";
  httplib::Client api("127.0.0.1", port);

  // Seeds through the API while the crawl waits for its home page.
  auto posted = api.Post("/api/seeds", R"({"urls": ["http://site.test/extra"]})",
                         "application/json");
  ASSERT_TRUE(posted);
  EXPECT_EQ(posted->status, 202) << posted->body;

  // Wait for the end of the crawl (the server lingers).
  json status;
  for (int i = 0; i < 600; ++i) {
    auto r = api.Get("/api/status");
    ASSERT_TRUE(r);
    status = json::parse(r->body);
    if (status["state"] == "finished") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(status["state"], "finished") << status.dump();
  EXPECT_EQ(status["live"], true);

  // /metrics: strict format, counters equal to crawl.db.
  auto m = api.Get("/metrics");
  ASSERT_TRUE(m);
  auto families = ParsePrometheusText(m->body);
  ASSERT_TRUE(families.ok()) << families.status().message() << "\n" << m->body;
  auto metric = [&](const std::string& name) {
    return families->at(name).samples.at(0).value;
  };
  const int64_t ok = QueryInt(dir_, "SELECT count(*) FROM pages WHERE status = 'ok'");
  EXPECT_EQ(ok, 32);  // home + 30 + extra
  EXPECT_EQ(metric("topicrawl_pages_ok_total"), ok);
  EXPECT_EQ(metric("topicrawl_pages_failed_total"),
            QueryInt(dir_, "SELECT count(*) FROM pages WHERE status != 'ok'"));
  ASSERT_EQ(QueryInt(dir_, "SELECT count(*) FROM meta WHERE key = 'beta'"), 1)
      << "the best-first crawl records its beta";
  EXPECT_EQ(metric("topicrawl_pages_relevant_total"),
            QueryInt(dir_,
                     "SELECT count(*) FROM pages WHERE status = 'ok' AND relevance >= "
                     "(SELECT CAST(value AS REAL) FROM meta WHERE key = 'beta')"));
  EXPECT_EQ(metric("topicrawl_robots_denied_total"),
            QueryInt(dir_, "SELECT count(*) FROM pages WHERE status = 'robots_denied'"));
  EXPECT_EQ(metric("topicrawl_crawl_running"), 0);
  // The API seed was stored as a frontier row and fetched.
  EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM pages WHERE url = 'http://site.test/extra'"), 1);
  EXPECT_EQ(QueryInt(dir_, "SELECT count(*) FROM events WHERE kind = 'api_seeds'"), 1);

  // The hosts table of the live crawl.
  auto hosts = api.Get("/api/hosts");
  ASSERT_TRUE(hosts);
  json h = json::parse(hosts->body);
  ASSERT_EQ(h["hosts"].size(), 1u);
  EXPECT_EQ(h["hosts"][0]["host"], "site.test");
  EXPECT_EQ(h["hosts"][0]["fetched"], ok);

  // POST /api/stop ends the linger; the finished crawl exits 0.
  auto stop = api.Post("/api/stop", "{}", "application/json");
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->status, 202);
  int wstatus = 0;
  ASSERT_EQ(waitpid(pid_, &wstatus, 0), pid_);
  pid_ = -1;
  ASSERT_TRUE(WIFEXITED(wstatus));
  EXPECT_EQ(WEXITSTATUS(wstatus), 0);

  // Export: one JSON object per ok page.
  auto [code, out] = Shell(bin + " export " + dir_ + " --format jsonl --fields url,title,text,parent_url 2>/dev/null");
  ASSERT_EQ(code, 0) << out;
  std::istringstream lines(out);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    json j = json::parse(line);
    EXPECT_EQ(j.size(), 4u) << line;
    if (j["url"] == "http://site.test/p1") {
      EXPECT_EQ(j["title"], "Firewall rules 1");
      EXPECT_NE(j["text"].get<std::string>().find("firewall router"), std::string::npos);
      EXPECT_EQ(j["parent_url"], "http://site.test/");
    }
    ++n;
  }
  EXPECT_EQ(n, ok);
  auto rel = Shell(bin + " export " + dir_ + " --relevant-only --fields url 2>/dev/null");
  EXPECT_EQ(std::count(rel.second.begin(), rel.second.end(), '\n'),
            metric("topicrawl_pages_relevant_total"));
  EXPECT_EQ(Shell(bin + " export " + dir_ + " --fields nosuch").first, 2);

  // Index and search from the CLI, English and Chinese.
  auto indexed = Shell(bin + " index " + dir_);
  ASSERT_EQ(indexed.first, 0) << indexed.second;
  auto found = Shell(bin + " search " + dir_ + " firewall --limit 50");
  ASSERT_EQ(found.first, 0) << found.second;
  EXPECT_NE(found.second.find("http://site.test/p1\n"), std::string::npos) << found.second;
  EXPECT_EQ(found.second.find("Soup recipe"), std::string::npos);
  auto zh = Shell(bin + " search " + dir_ + " 防火墙 --limit 50");
  EXPECT_NE(zh.second.find("http://site.test/p2\n"), std::string::npos) << zh.second;
}

TEST_F(ServeIntegrationTest, NonLoopbackListenerNeedsAToken) {
  std::ofstream(base_ + "/seeds.txt") << "http://site.test/\n";
  auto r = Shell(std::string(TOPICRAWL_BINARY) + " crawl --seeds " + base_ +
               "/seeds.txt --serve 0.0.0.0:0 --out " + dir_);
  EXPECT_NE(r.first, 0);
  EXPECT_NE(r.second.find("requires --token"), std::string::npos) << r.second;
  auto s = Shell(std::string(TOPICRAWL_BINARY) + " serve " + dir_ + " --listen 0.0.0.0:0");
  EXPECT_EQ(s.first, 2);
  EXPECT_NE(s.second.find("requires --token"), std::string::npos) << s.second;
}

TEST_F(ServeIntegrationTest, UnknownCommandIsNamedAndListed) {
  for (const char* extra : {"", " --help"}) {
    auto r = Shell(std::string(TOPICRAWL_BINARY) + " nosuch" + extra);
    EXPECT_EQ(r.first, 2) << extra;
    EXPECT_NE(r.second.find("unknown command 'nosuch'"), std::string::npos) << r.second;
    EXPECT_NE(r.second.find("  crawl\n"), std::string::npos) << r.second;
    EXPECT_NE(r.second.find("  serve\n"), std::string::npos) << r.second;
  }
  EXPECT_EQ(Shell(std::string(TOPICRAWL_BINARY) + " --help").first, 0);
}

}  // namespace
}  // namespace topicrawl
