// Scale-out (issue 16): real `topicrawl crawl --cluster` worker processes
// against a real redis-server (both on 127.0.0.1, free ports) crawling a
// 12-host test site. (a) 3 workers store the same set as one process,
// (b) no host is contacted closer than the delay across workers, also the
// robots.txt Crawl-delay across a shard hand-over, (c) kill -9 of a worker
// mid-crawl loses nothing, (d) a conflicting worker is refused. Also: eval,
// search and export read the workers' directories as the merged crawl, and
// recrawl refuses a worker's directory.
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/redis_test_server.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

using testing::HtmlResponse;
using testing::RecordedRequest;
using testing::TestHttpServer;
using testing::TestResponse;

constexpr int kHosts = 12;
constexpr int kPagesPerHost = 10;

std::string HostName(int h) { return "h" + std::to_string(h) + ".test"; }

// Every page's URL the crawl can reach, and its expected status.
std::map<std::string, std::string> SiteUrls() {
  std::map<std::string, std::string> urls;
  for (int h = 0; h < kHosts; ++h) {
    urls["http://" + HostName(h) + "/"] = "ok";
    for (int p = 0; p < kPagesPerHost; ++p) {
      urls["http://" + HostName(h) + "/p" + std::to_string(p)] = "ok";
    }
    urls["http://" + HostName(h) + "/missing"] = "http_error";
  }
  return urls;
}

// `crawl_delay` (seconds, "" for none): every host's robots.txt asks for it.
TestResponse SitePage(const RecordedRequest& req, int delay_ms, const std::string& crawl_delay) {
  std::string host = req.Header("Host");
  if (size_t colon = host.find(':'); colon != std::string::npos) host.resize(colon);
  int h = -1;
  for (int i = 0; i < kHosts; ++i) {
    if (host == HostName(i)) h = i;
  }
  if (h < 0) return testing::ErrorResponse(404);
  if (req.target == "/robots.txt") {
    if (crawl_delay.empty()) return testing::ErrorResponse(404);
    return testing::TextResponse("User-agent: *\nCrawl-delay: " + crawl_delay + "\n");
  }
  std::string path = req.target;
  std::string links;
  auto link = [&links](const std::string& url) { links += "<a href='" + url + "'>x</a> "; };
  if (path == "/") {
    link("/p0");
    link("/missing");
  } else if (path.size() > 2 && path[0] == '/' && path[1] == 'p') {
    int p = std::atoi(path.c_str() + 2);
    if (p < 0 || p >= kPagesPerHost) return testing::ErrorResponse(404);
    if (p + 1 < kPagesPerHost) link("/p" + std::to_string(p + 1));
    if (p + 3 < kPagesPerHost) link("/p" + std::to_string(p + 3));
    link("http://" + HostName((h + 1 + p) % kHosts) + "/");  // across hosts
  } else {
    return testing::ErrorResponse(404);
  }
  TestResponse r = HtmlResponse("<html><head><title>" + host + path + "</title></head><body>" +
                                links + "</body></html>");
  r.delay = std::chrono::milliseconds(delay_ms);
  return r;
}

// The first column of the first row of `sql` on one crawl directory (-1 on
// an error).
int64_t QueryCount(const std::string& dir, const char* sql) {
  sqlite3* db = nullptr;
  int64_t n = -1;
  if (sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
    if (st && sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return n;
}

// url -> (status, rows) over the pages of one crawl directory.
std::map<std::string, std::pair<std::string, int>> Pages(const std::string& dir) {
  std::map<std::string, std::pair<std::string, int>> out;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return out;
  }
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "SELECT url, status FROM pages", -1, &st, nullptr);
  while (st && sqlite3_step(st) == SQLITE_ROW) {
    auto& e = out[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))];
    e.first = reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
    ++e.second;
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

// Host -> the times (unix ms, the fetcher's clock at Submit) of the
// requests the workers' crawls in `dirs` sent to it, sorted. The frontier
// starts a host's delay when it hands a URL out, just before Submit reads
// the clock, so consecutive times of one host differ by at least the delay
// however busy the machine is; times the test server sees can come closer.
std::map<std::string, std::vector<int64_t>> SendTimesByHost(const std::vector<std::string>& dirs) {
  std::map<std::string, std::vector<int64_t>> out;
  for (const std::string& dir : dirs) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
      sqlite3_stmt* st = nullptr;
      sqlite3_prepare_v2(db, "SELECT url, fetched_at FROM pages WHERE http_code > 0", -1, &st, nullptr);
      while (st && sqlite3_step(st) == SQLITE_ROW) {
        std::string url = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        const size_t host_start = url.find("://") + 3;
        std::string host = url.substr(host_start, url.find_first_of(":/", host_start) - host_start);
        out[host].push_back(sqlite3_column_int64(st, 1));
      }
      sqlite3_finalize(st);
    }
    sqlite3_close(db);
  }
  for (auto& [host, times] : out) std::sort(times.begin(), times.end());
  return out;
}

// Pairs of consecutive requests to one host over the crawls in `dirs`; each
// pair must be at least `delay_ms` apart (2 ms: the steady clock a delay
// is kept on and the unix milliseconds stored are truncated separately).
int ExpectSpacedRequests(const std::vector<std::string>& dirs, int64_t delay_ms) {
  const auto by_host = SendTimesByHost(dirs);
  EXPECT_EQ(by_host.size(), static_cast<size_t>(kHosts));
  int pairs = 0;
  for (const auto& [host, times] : by_host) {
    for (size_t i = 1; i < times.size(); ++i) {
      EXPECT_GE(times[i] - times[i - 1], delay_ms - 2) << host << " request " << i;
      ++pairs;
    }
  }
  return pairs;
}

class ClusterIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Status s = redis_.Start();
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_TRUE(server_.Start().ok());
    server_.SetPrefix("/", [this](const RecordedRequest& req) { return SitePage(req, page_delay_ms_, crawl_delay_); });
    char tmpl[] = "/tmp/topicrawl-cluster-it-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    seeds_ = dir_ + "/seeds.txt";
    std::ofstream(seeds_) << "http://" << HostName(0) << "/\n";
  }
  void TearDown() override {
    for (pid_t pid : running_) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
    server_.Stop();
    redis_.Stop();
    std::error_code ec;
    if (!HasFailure()) std::filesystem::remove_all(dir_, ec);
  }

  // Flags defining the crawl (the first worker's).
  std::vector<std::string> CrawlFlags(const std::string& delay) const {
    std::vector<std::string> a = {"--seeds", seeds_, "--delay", delay, "--per-host", "1",
                                  "--max-pages", "0", "--no-robots", "--retry-delay", "0.1"};
    for (int h = 0; h < kHosts; ++h) {
      a.push_back("--connect-to");
      a.push_back(HostName(h) + ":80:127.0.0.1:" + std::to_string(server_.port()));
    }
    return a;
  }

  pid_t Spawn(const std::string& name, std::vector<std::string> args) {
    args.insert(args.begin(), {TOPICRAWL_BINARY, "crawl", "--out", dir_ + "/" + name});
    args.push_back("--concurrency");
    args.push_back("8");
    pid_t pid = fork();
    if (pid == 0) {
      int log = open((dir_ + "/" + name + ".log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(log, 1);
      dup2(log, 2);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    running_.insert(pid);
    return pid;
  }

  // A worker of crawl "c"; the first one also gets the crawl's flags.
  pid_t Worker(const std::string& name, const std::vector<std::string>& crawl_flags,
               const std::string& lease_ms = "1500") {
    std::vector<std::string> a = {"--cluster", redis_.url(), "--crawl-id", "c", "--worker-id",
                                  name, "--lease-ms", lease_ms};
    a.insert(a.end(), crawl_flags.begin(), crawl_flags.end());
    return Spawn(name, a);
  }

  // Exit status, or -1 after `seconds`.
  int Wait(pid_t pid, int seconds = 30) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        running_.erase(pid);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }

  std::string Log(const std::string& name) const {
    std::ifstream in(dir_ + "/" + name + ".log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  int Merge(const std::vector<std::string>& names) {
    std::string cmd = std::string(TOPICRAWL_BINARY) + " merge " + dir_ + "/merged";
    for (const auto& n : names) cmd += " " + dir_ + "/" + n;
    cmd += " > " + dir_ + "/merge.log 2>&1";
    return std::system(cmd.c_str());
  }

  // `topicrawl ARGS`: exit code; stdout in *out, stderr in *err.
  int Run(const std::string& args, std::string* out = nullptr, std::string* err = nullptr) {
    const std::string o = dir_ + "/run.out", e = dir_ + "/run.err";
    const int rc = std::system(
        (std::string(TOPICRAWL_BINARY) + " " + args + " > " + o + " 2> " + e).c_str());
    auto read = [](const std::string& path) {
      std::ifstream in(path);
      return std::string(std::istreambuf_iterator<char>(in), {});
    };
    if (out) *out = read(o);
    if (err) *err = read(e);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }
  // stdout of a command that must succeed.
  std::string Output(const std::string& args) {
    std::string out, err;
    EXPECT_EQ(Run(args, &out, &err), 0) << args << ": " << err;
    return out;
  }

  // eval, search and export given the workers' directories print what they
  // print for `topicrawl merge`'s directory (dir_/merged, made before).
  void ExpectWorkersReadAsTheMergedCrawl(const std::vector<std::string>& names) {
    std::string dirs;
    for (const auto& n : names) dirs += " " + dir_ + "/" + n;
    const std::string merged = " " + dir_ + "/merged";
    const std::string eval = Output("eval" + dirs + " --json");
    EXPECT_NE(eval.find("\"dp\""), std::string::npos) << eval;
    EXPECT_EQ(eval, Output("eval" + merged + " --json"));
    const std::string exported = Output("export" + dirs + " --fields id,url,status,title,text");
    EXPECT_EQ(exported, Output("export" + merged + " --fields id,url,status,title,text"));
    int ok_pages = 0;
    for (const auto& [url, status] : SiteUrls()) ok_pages += status == "ok";
    EXPECT_EQ(std::count(exported.begin(), exported.end(), '\n'), ok_pages);  // one per URL
    Output("index" + merged);
    // The first line ends with the query time.
    auto hits = [](std::string s) { return s.substr(0, s.find(',')) + s.substr(s.find('\n')); };
    const std::string found = Output("search" + dirs + " test --limit 1000");
    EXPECT_NE(found.find("h0.test/p1"), std::string::npos) << found;
    EXPECT_EQ(hits(found), hits(Output("search" + merged + " test --limit 1000")));
  }

  RedisTestServer redis_;
  TestHttpServer server_;
  int page_delay_ms_ = 5;
  std::string crawl_delay_;  // robots.txt Crawl-delay of every host ("": none)
  std::string dir_;
  std::string seeds_;
  std::set<pid_t> running_;
};

TEST_F(ClusterIntegrationTest, ThreeWorkersStoreTheSameSetAsOneProcess) {
  pid_t single = Spawn("single", CrawlFlags("0.05"));
  ASSERT_EQ(Wait(single), 0) << Log("single");
  auto expected = Pages(dir_ + "/single");
  ASSERT_EQ(expected.size(), SiteUrls().size());

  pid_t w1 = Worker("w1", CrawlFlags("0.05"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  pid_t w2 = Worker("w2", {});  // joins with --cluster --crawl-id alone
  pid_t w3 = Worker("w3", {});
  EXPECT_EQ(Wait(w1), 0) << Log("w1");
  EXPECT_EQ(Wait(w2), 0) << Log("w2");
  EXPECT_EQ(Wait(w3), 0) << Log("w3");
  // Without failures every URL is fetched by exactly one worker.
  std::map<std::string, int> rows;
  for (const char* w : {"w1", "w2", "w3"}) {
    for (const auto& [url, fate] : Pages(dir_ + "/" + w)) rows[url] += fate.second;
  }
  for (const auto& [url, n] : rows) EXPECT_EQ(n, 1) << url;
  ASSERT_EQ(Merge({"w1", "w2", "w3"}), 0);
  auto merged = Pages(dir_ + "/merged");
  ASSERT_EQ(merged.size(), expected.size());
  // Store schema 5 may keep an admitted URL cut from its parent page's URL
  // in frontier_log; merge reads the workers' `frontier` view, which joins
  // them back, so the merged frontier holds whole URLs only.
  EXPECT_EQ(QueryCount(dir_ + "/merged",
                       "SELECT count(*) FROM frontier WHERE url NOT LIKE 'http%'"),
            0);
  EXPECT_GT(QueryCount(dir_ + "/merged", "SELECT count(*) FROM frontier"), 0);
  for (const auto& [url, fate] : expected) {
    auto it = merged.find(url);
    ASSERT_NE(it, merged.end()) << url;
    EXPECT_EQ(it->second.first, fate.first) << url;
    EXPECT_EQ(it->second.second, 1) << url;
  }
  // The merged directory is one crawl: export reads every ok page's text
  // back from the workers' WARC files it references.
  const std::string jsonl = dir_ + "/merged.jsonl";
  ASSERT_EQ(std::system((std::string(TOPICRAWL_BINARY) + " export " + dir_ + "/merged --fields "
                         "url,text --out " + jsonl + " > /dev/null 2>&1").c_str()),
            0);
  std::ifstream in(jsonl);
  int lines = 0, with_text = 0;
  for (std::string line; std::getline(in, line);) {
    ++lines;
    if (line.find("\"text\":\"\"") == std::string::npos && line.find("\"text\":\"") != std::string::npos) {
      ++with_text;
    }
  }
  int ok_pages = 0;
  for (const auto& [url, fate] : expected) ok_pages += fate.first == "ok";
  EXPECT_EQ(lines, ok_pages);
  EXPECT_EQ(with_text, ok_pages);
  ExpectWorkersReadAsTheMergedCrawl({"w1", "w2", "w3"});

  // Rounds: refused on a worker's directory and with --cluster, saying what
  // to do; the merged crawl runs them in one process.
  std::string err;
  EXPECT_EQ(Run("recrawl " + dir_ + "/w2", nullptr, &err), 2);
  EXPECT_NE(err.find("one worker's part of a clustered crawl"), std::string::npos) << err;
  EXPECT_NE(err.find("topicrawl merge OUT DIR..."), std::string::npos) << err;
  EXPECT_EQ(Run("recrawl " + dir_ + "/merged --cluster " + redis_.url(), nullptr, &err), 2);
  EXPECT_NE(err.find("do not run in cluster mode"), std::string::npos) << err;
  const int before = server_.TotalRequests();
  EXPECT_EQ(Run("recrawl " + dir_ + "/merged --policy full", nullptr, &err), 0) << err;
  EXPECT_GE(server_.TotalRequests() - before, ok_pages);  // every known page revisited
}

TEST_F(ClusterIntegrationTest, PolitenessHoldsAcrossWorkers) {
  // 0.2 s between requests to one host, whichever worker sends them; the
  // workers join one after another, so shards move mid-crawl. Two workers
  // overlapping on a host would show gaps near 0.
  pid_t w1 = Worker("w1", CrawlFlags("0.2"));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  pid_t w2 = Worker("w2", {});
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  pid_t w3 = Worker("w3", {});
  EXPECT_EQ(Wait(w1), 0) << Log("w1");
  EXPECT_EQ(Wait(w2), 0) << Log("w2");
  EXPECT_EQ(Wait(w3), 0) << Log("w3");
  const int pairs = ExpectSpacedRequests({dir_ + "/w1", dir_ + "/w2", dir_ + "/w3"}, 200);
  EXPECT_GE(pairs, kHosts * kPagesPerHost);
  // Every worker did some of the work.
  for (const char* w : {"w1", "w2", "w3"}) EXPECT_GT(Pages(dir_ + "/" + w).size(), 0u) << w;
}

TEST_F(ClusterIntegrationTest, CrawlDelayAndBackOffMoveWithTheShard) {
  // robots.txt asks for 0.8 s between requests (the crawl's own delay is
  // 0.05 s); short leases (rounds of 100 ms) make a hand-over quicker than
  // that. A worker learns it from robots.txt; when a shard moves to a
  // joining worker, the host's Crawl-delay and next allowed request move with
  // it, so the new owner's first page request waits for it too. Without the
  // hand-over the new owner fetches robots.txt and then a page a few
  // hundred ms after the old owner's last one.
  crawl_delay_ = "0.8";
  std::vector<std::string> flags = CrawlFlags("0.05");
  flags.erase(std::find(flags.begin(), flags.end(), "--no-robots"));
  pid_t w1 = Worker("w1", flags, "400");
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  pid_t w2 = Worker("w2", {}, "400");
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  pid_t w3 = Worker("w3", {}, "400");
  EXPECT_EQ(Wait(w1, 60), 0) << Log("w1");
  EXPECT_EQ(Wait(w2, 60), 0) << Log("w2");
  EXPECT_EQ(Wait(w3, 60), 0) << Log("w3");
  // robots.txt itself is fetched before the delay is known (and is no page
  // row); the pages are what Crawl-delay spaces.
  const int pairs = ExpectSpacedRequests({dir_ + "/w1", dir_ + "/w2", dir_ + "/w3"}, 800);
  EXPECT_GE(pairs, kHosts * kPagesPerHost);
  // Shards did move: the later workers fetched pages of hosts the first
  // one had started.
  for (const char* w : {"w2", "w3"}) EXPECT_GT(Pages(dir_ + "/" + w).size(), 0u) << w;
}

TEST_F(ClusterIntegrationTest, KillNineOfAWorkerLosesNothing) {
  page_delay_ms_ = 40;
  pid_t w1 = Worker("w1", CrawlFlags("0.1"), "1000");
  pid_t w2 = Worker("w2", {}, "1000");
  pid_t w3 = Worker("w3", {}, "1000");
  // Wait until w2 has stored pages, then kill it in the middle of its work.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (Pages(dir_ + "/w2").size() < 5 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(w2, SIGKILL);
  EXPECT_EQ(Wait(w2), 128 + SIGKILL);
  EXPECT_EQ(Wait(w1), 0) << Log("w1");
  EXPECT_EQ(Wait(w3), 0) << Log("w3");
  const size_t killed_rows = Pages(dir_ + "/w2").size();
  EXPECT_GT(killed_rows, 0u);
  EXPECT_LT(killed_rows, SiteUrls().size());
  ASSERT_EQ(Merge({"w1", "w2", "w3"}), 0);
  auto merged = Pages(dir_ + "/merged");
  const auto site = SiteUrls();
  EXPECT_EQ(merged.size(), site.size());
  for (const auto& [url, status] : site) {
    auto it = merged.find(url);
    ASSERT_NE(it, merged.end()) << "lost: " << url;
    EXPECT_EQ(it->second.first, status) << url;
    EXPECT_EQ(it->second.second, 1) << url;
  }
  // Pages stored by both the killed worker and the one that re-fetched
  // them count once when the directories are read as one crawl.
  ExpectWorkersReadAsTheMergedCrawl({"w1", "w2", "w3"});
}

TEST_F(ClusterIntegrationTest, AConflictingWorkerIsRefused) {
  pid_t w1 = Worker("w1", CrawlFlags("0"));
  ASSERT_EQ(Wait(w1), 0) << Log("w1");
  // Different politeness: refused before any fetch.
  const int before = server_.TotalRequests();
  pid_t bad = Worker("bad", CrawlFlags("0.5"));
  EXPECT_EQ(Wait(bad), 2);
  EXPECT_NE(Log("bad").find("conflicts with crawl 'c'"), std::string::npos) << Log("bad");
  EXPECT_NE(Log("bad").find("delay_s"), std::string::npos) << Log("bad");
  pid_t bad_strategy = Worker("bad2", {"--strategy", "best-first"});
  EXPECT_EQ(Wait(bad_strategy), 2) << Log("bad2");
  EXPECT_EQ(server_.TotalRequests(), before);
  // The same flags, or none, join (and end at once: nothing is pending).
  pid_t same = Worker("same", CrawlFlags("0"));
  EXPECT_EQ(Wait(same), 0) << Log("same");
  pid_t bare = Worker("bare", {"--parse-threads", "1"});
  EXPECT_EQ(Wait(bare), 0) << Log("bare");
}

}  // namespace
}  // namespace topicrawl
