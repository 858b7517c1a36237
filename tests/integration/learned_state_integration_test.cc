// Learned state on the real binary, for every registered strategy and every
// round policy (the names come from `crawl --help` / `recrawl --help`, i.e.
// from the registries, never from a list here):
//   * kill -9 in the middle of a crawl, then `crawl --resume`: the saved
//     strategy state is restored and the crawl ends where the uninterrupted
//     one would (every page once); tda keeps its corpus and its vectors;
//   * a real `recrawl` round of every round policy after a tda crawl;
//   * a default never strands a crawl: jlse's strict flow (the seed's) ends
//     early and says why, the default falls back and spends the budget;
//   * SIGTERM during tda's training ends the process with exit 3 promptly.
// The web is a 60-page site on 127.0.0.1; each page takes 40 ms.
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "classify/naive_bayes.h"
#include "gtest/gtest.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

namespace fs = std::filesystem;
using testing::HtmlResponse;
using testing::TestHttpServer;
using testing::TestResponse;

constexpr int kPages = 60;
constexpr int kBudget = 40;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// stdout + stderr of a shell command.
std::string Output(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  return out;
}

// The names after "<label>: " in a --help text ("Strategy: bfs, best-first").
std::vector<std::string> NamesFromHelp(const std::string& command, const std::string& label) {
  const std::string help = Output(std::string(TOPICRAWL_BINARY) + " " + command + " --help");
  std::vector<std::string> names;
  const size_t at = help.find(label + ": ");
  if (at == std::string::npos) return names;
  std::istringstream list(help.substr(at + label.size() + 2,
                                      help.find('\n', at) - at - label.size() - 2));
  for (std::string n; std::getline(list, n, ',');) {
    while (!n.empty() && n.front() == ' ') n.erase(0, 1);
    while (!n.empty() && (n.back() == ' ' || n.back() == '\r')) n.pop_back();
    if (!n.empty()) names.push_back(n);
  }
  return names;
}

std::vector<std::string> StrategyNames() { return NamesFromHelp("crawl", "Strategy"); }
std::vector<std::string> PolicyNames() { return NamesFromHelp("recrawl", "Round policy"); }

std::string Query(const std::string& dir, const std::string& sql) {
  std::string out;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
      SQLITE_OK) {
    sqlite3_busy_timeout(db, 2000);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != nullptr) {
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return out;
}

int64_t Count(const std::string& dir, const std::string& sql) {
  const std::string v = Query(dir, sql);
  return v.empty() ? -1 : std::stoll(v);
}

// Page i: networking text on most pages, garden text on every fourth (and
// on the home page, which jlse's page classifier judges irrelevant: the
// seed's flow never expands it). Links to three pages further on.
std::string PageHtml(int i) {
  const bool garden = i % 4 == 0;
  std::string text = garden ? "garden recipes, weather and climate news, cooking tips"
                            : "network protocol router: packets, routing tables and a "
                              "network stack, page " + std::to_string(i);
  std::string links;
  // Every tenth page (5, 15, ...) is a section page listing the next 12:
  // the structural hubs the `hubs` round policy learns from.
  const bool section = i % 10 == 5;
  for (int k = 1; k <= (section ? 12 : 3); ++k) {
    const int j = (section ? i + k : i + k * (k + 1) / 2) % kPages;
    links += "<a href='/n" + std::to_string(j) + "'>" +
             (j % 4 == 0 ? std::string("garden recipes") : std::string("network protocol")) +
             "</a> ";
  }
  return "<!doctype html><html><head><title>" + std::string(garden ? "garden" : "network") +
         " " + std::to_string(i) + "</title></head><body><p>" + text + "</p><p>" + links +
         "</p></body></html>";
}

class LearnedStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    for (int i = 0; i < kPages; ++i) {
      TestResponse r = HtmlResponse(PageHtml(i));
      r.delay = std::chrono::milliseconds(40);
      server_.Set("/n" + std::to_string(i), r);
    }
    server_.Set("/robots.txt", testing::ErrorResponse(404));
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : name) {
      if (c == '/') c = '_';
    }
    base_ = ::testing::TempDir() + "/learned-" + std::to_string(getpid()) + "-" + name;
    fs::remove_all(base_);
    fs::create_directories(base_);
    std::ofstream(base_ + "/seeds.txt") << "http://net.test/n0\n";
  }
  void TearDown() override {
    for (pid_t pid : running_) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
    if (!HasFailure()) fs::remove_all(base_);
  }

  // The topic of every strategy: keywords, a link model (nb-link), example
  // pages (jlse, ata), small training thresholds (tda), then the
  // [strategy.jlse] table (last, so `extra` may add keys to it) and `extra`.
  std::string Topic(const std::string& extra = "") {
    NaiveBayes model(NbModelKind::kLink, NbEventModel::kBinary);
    model.feature_group = 1;
    model.Add({"a:network", "a:protocol"}, true);
    model.Add({"a:router"}, true);
    model.Add({"a:garden", "a:recipes"}, false);
    EXPECT_TRUE(model.Save(base_ + "/link.nb.json").ok());
    std::ofstream(base_ + "/pos.html") << PageHtml(1);
    std::ofstream(base_ + "/pos2.html") << PageHtml(2);
    std::ofstream(base_ + "/neg.html") << PageHtml(4);
    std::ofstream(base_ + "/neg2.html") << PageHtml(8);
    const std::string path = base_ + "/topic.toml";
    std::ofstream(path) << "[topic]\nname = \"networking\"\n"
                           "keywords = { \"network\" = 0.8, \"protocol\" = 0.5, \"router\" = 0.3 }\n"
                           "[topic.examples]\npositive = [\"pos.html\", \"pos2.html\"]\n"
                           "negative = [\"neg.html\", \"neg2.html\"]\n"
                           "[strategy.nb-link]\nmodel = \"link.nb.json\"\n"
                           "[strategy.tda]\nretrain_pages = 10\ndim = 16\nepoch = 5\nmin_count = 1\n"
                           "[strategy.jlse]\ncf = 3\n"
                        << extra;
    return path;
  }

  std::string Flags() const {
    return " --delay 0 --concurrency 1 --parse-threads 1 --state-interval 0.1 "
           "--connect-to net.test:80:127.0.0.1:" + std::to_string(server_.port());
  }

  pid_t Spawn(const std::string& cmd, const std::string& log) {
    pid_t pid = fork();
    if (pid == 0) {
      // exec: the signals the tests send reach topicrawl, not a shell.
      execl("/bin/sh", "sh", "-c", ("exec " + cmd + " > " + log + " 2>&1").c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    running_.insert(pid);
    return pid;
  }
  // Exit code, or -1 when it did not end within `seconds`.
  int Wait(pid_t pid, int seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < end) {
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        running_.erase(pid);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }
  int Run(const std::string& cmd, const std::string& log, int seconds = 120) {
    return Wait(Spawn(cmd, log), seconds);
  }

  std::string Crawl(const std::string& dir, const std::string& strategy,
                    const std::string& topic, int max_pages) const {
    return std::string(TOPICRAWL_BINARY) + " crawl --seeds " + base_ + "/seeds.txt --out " + dir +
           " --strategy " + strategy + " --topic " + topic + " --max-pages " +
           std::to_string(max_pages) + Flags();
  }

  TestHttpServer server_;
  std::string base_;
  std::set<pid_t> running_;
};

class KillResumeTest : public LearnedStateTest,
                       public ::testing::WithParamInterface<std::string> {};

// kill -9 once the state was saved and at least 15 pages are stored (tda:
// and its first model is on disk), then --resume to the budget.
TEST_P(KillResumeTest, KillNineThenResumeRestoresTheLearnedState) {
  const std::string strategy = GetParam();
  const std::string topic = Topic();
  const std::string dir = base_ + "/crawl";
  pid_t pid = Spawn(Crawl(dir, strategy, topic, kBudget), base_ + "/first.log");
  int64_t before = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    // The store is read only once the first state save shows it is set up
    // (a reader during its creation makes the crawl fail: "database is
    // locked").
    if (!fs::exists(dir + "/state/strategy.bin")) continue;
    before = Count(dir, "SELECT count(*) FROM pages WHERE status = 'ok'");
    const bool model = strategy != "tda" || fs::exists(dir + "/tda-vectors.bin");
    if (before >= 15 && model) break;
  }
  ASSERT_GE(before, 15) << ReadFile(base_ + "/first.log");
  ASSERT_LT(before, kBudget) << "the crawl ended before the kill: make the pages slower";
  if (strategy == "tda") ASSERT_TRUE(fs::exists(dir + "/tda-vectors.bin")) << ReadFile(base_ + "/first.log");
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  ASSERT_EQ(Wait(pid, 30), 128 + SIGKILL);
  before = Count(dir, "SELECT count(*) FROM pages WHERE status = 'ok'");
  const int64_t max_id = Count(dir, "SELECT max(id) FROM pages");
  int64_t fetched = 0;  // pages served before the kill: the most it parsed
  for (const auto& req : server_.Requests()) fetched += req.target.rfind("/n", 0) == 0;

  const std::string resume = std::string(TOPICRAWL_BINARY) + " crawl --resume " + dir +
                             " --max-pages " + std::to_string(kBudget) + Flags();
  ASSERT_EQ(Run(resume, base_ + "/resume.log"), 0) << ReadFile(base_ + "/resume.log");
  EXPECT_EQ(Count(dir, "SELECT count(*) FROM events WHERE kind = 'state' AND "
                       "detail = 'strategy state restored'"),
            1)
      << strategy;
  EXPECT_EQ(Count(dir, "SELECT count(*) FROM pages WHERE status = 'ok'"), kBudget) << strategy;
  EXPECT_EQ(Count(dir, "SELECT count(*) - count(DISTINCT url) FROM pages"), 0) << strategy;
  // The strategy's statistics go on from the restored state: a topic
  // strategy's document frequencies count more than the resumed run's pages
  // (a kill -9 loses at most the pages of the last state interval, which
  // stretches to 50x a save's time), and at most the pages parsed before the
  // kill plus the resumed run's: a page parsed (and counted) before a save
  // but not yet in the store at the kill is fetched and counted again.
  if (fs::exists(dir + "/df.tsv")) {
    std::istringstream df(ReadFile(dir + "/df.tsv"));
    std::string tag;
    int64_t documents = -1;
    df >> tag >> documents;
    EXPECT_GT(documents, kBudget - before) << strategy;
    EXPECT_LE(documents, fetched + (kBudget - before)) << strategy;
  } else {
    ASSERT_TRUE(strategy == "jlse" || strategy == "ata") << strategy << ": no df.tsv";
  }
  if (strategy == "tda") {
    // The corpus kept the pages before the kill (at most the last state
    // interval is lost): more lines than the resumed run alone added ...
    const std::string corpus = ReadFile(dir + "/tda-corpus.txt");
    const int64_t lines = std::count(corpus.begin(), corpus.end(), '\n');
    EXPECT_GT(lines, kBudget - before) << "tda-corpus.txt restarted on resume";
    // ... and the first page after the resume was scored with the vectors.
    const std::string first = Query(dir, "SELECT explanation FROM pages WHERE id > " +
                                             std::to_string(max_id) +
                                             " AND status = 'ok' ORDER BY id LIMIT 1");
    EXPECT_NE(first.find("\"vectors\":true"), std::string::npos) << first;
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, KillResumeTest, ::testing::ValuesIn(StrategyNames()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n) {
                             if (ch == '-') ch = '_';
                           }
                           return n;
                         });

TEST(LearnedStateNamesTest, TheHelpListsTheRegistries) {
  // The parameterised tests run over these lists: they must not be empty.
  EXPECT_GE(StrategyNames().size(), 9u);
  EXPECT_GE(PolicyNames().size(), 6u);
}

class RecrawlPolicyTest : public LearnedStateTest,
                          public ::testing::WithParamInterface<std::string> {};

// Round 0: a tda crawl of the whole site; the site gains a page linked from
// two pages; round 1 runs with the policy's own budget, and finds the new
// page when it revisits one of them (`full` revisits every page).
TEST_P(RecrawlPolicyTest, ARealRoundRunsAndFindsTheNewPage) {
  const std::string policy = GetParam();
  const std::string dir = base_ + "/crawl";
  ASSERT_EQ(Run(Crawl(dir, "tda", Topic(), 0), base_ + "/round0.log"), 0)
      << ReadFile(base_ + "/round0.log");
  const int64_t round0 = Count(dir, "SELECT count(*) FROM pages WHERE status = 'ok'");
  ASSERT_GE(round0, 50);
  for (int i : {1, 2}) {
    server_.Set("/n" + std::to_string(i),
                HtmlResponse(PageHtml(i) + "<a href='/fresh'>network protocol news</a>"));
  }
  server_.Set("/fresh", HtmlResponse("<html><title>network</title><body><p>network protocol "
                                     "router release notes</p></body></html>"));
  const std::string recrawl =
      std::string(TOPICRAWL_BINARY) + " recrawl " + dir + " --policy " + policy + Flags();
  ASSERT_EQ(Run(recrawl, base_ + "/round1.log"), 0) << ReadFile(base_ + "/round1.log");
  EXPECT_GT(Count(dir, "SELECT count(*) FROM fetches WHERE round = 1"), 0) << policy;
  const int64_t linkers = Count(
      dir, "SELECT count(*) FROM fetches h JOIN frontier f USING(url_id) WHERE h.round = 1 AND "
           "f.url IN ('http://net.test/n1', 'http://net.test/n2')");
  if (policy == "full") {
    EXPECT_EQ(linkers, 2);
  }
  if (linkers > 0) {
    EXPECT_EQ(Count(dir, "SELECT count(*) FROM pages WHERE url = 'http://net.test/fresh' AND "
                         "status = 'ok'"),
              1)
        << policy << ": " << ReadFile(base_ + "/round1.log");
  }
  EXPECT_FALSE(Query(dir, "SELECT value FROM meta WHERE key = 'round_finished.1'").empty())
      << policy;
}

INSTANTIATE_TEST_SUITE_P(Registry, RecrawlPolicyTest, ::testing::ValuesIn(PolicyNames()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n) {
                             if (ch == '-') ch = '_';
                           }
                           return n;
                         });

// jlse's page classifier judges the home page irrelevant (garden text). The
// seed's flow (strict) expands neither it nor any irrelevant page: the crawl
// ends after one page and says why. The default falls back to the pages it
// did not expand once the queue is empty, and spends the budget.
TEST_F(LearnedStateTest, JlseNeverStrandsByDefaultAndSaysWhyWhenStrict) {
  for (const char* strategy : {"jlse", "ata"}) {
    const std::string strict_dir = base_ + "/" + strategy + "-strict";
    // Topic() ends with the [strategy.jlse] table: jlse's key goes into it
    // (a second [strategy.jlse] header is a TOML error), ata's into its own.
    const std::string strict_topic =
        Topic(std::string(strategy) == "jlse" ? "strict = true\n" : "[strategy.ata]\nstrict = true\n");
    ASSERT_EQ(Run(Crawl(strict_dir, strategy, strict_topic, kBudget), base_ + "/strict.log"), 0)
        << ReadFile(base_ + "/strict.log");
    const std::string log = ReadFile(base_ + "/strict.log");
    EXPECT_LT(Count(strict_dir, "SELECT count(*) FROM pages WHERE status = 'ok'"), kBudget);
    EXPECT_NE(log.find("crawl ended after "), std::string::npos) << log;
    EXPECT_NE(log.find("of --max-pages 40): no link left to fetch"), std::string::npos) << log;
    EXPECT_NE(log.find("not expanded"), std::string::npos) << log;
    EXPECT_EQ(Count(strict_dir, "SELECT count(*) FROM events WHERE kind = 'ended'"), 1);

    const std::string dir = base_ + "/" + strategy;
    ASSERT_EQ(Run(Crawl(dir, strategy, Topic(), kBudget), base_ + "/default.log"), 0);
    EXPECT_EQ(Count(dir, "SELECT count(*) FROM pages WHERE status = 'ok'"), kBudget)
        << strategy << ": " << ReadFile(base_ + "/default.log");
    EXPECT_GE(Count(dir, "SELECT count(*) FROM events WHERE kind = 'refill'"), 1) << strategy;
    EXPECT_EQ(Count(dir, "SELECT count(*) FROM events WHERE kind = 'ended'"), 0) << strategy;
  }
}

// Training that would run for hours (epoch 10^6) in the background; the crawl
// ends, Finish() waits for the training; SIGTERM cancels it: exit 3.
TEST_F(LearnedStateTest, SigtermCancelsTdaTrainingAndExitsThree) {
  const std::string topic = Topic();
  std::string text = ReadFile(topic);
  text.replace(text.find("epoch = 5"), 9, "epoch = 1000000");
  std::ofstream(topic) << text;
  const std::string dir = base_ + "/crawl";
  pid_t pid = Spawn(Crawl(dir, "tda", topic, 20), base_ + "/tda.log");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline &&
         ReadFile(base_ + "/tda.log").find("tda: training word vectors") == std::string::npos) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_NE(ReadFile(base_ + "/tda.log").find("tda: training word vectors"), std::string::npos)
      << ReadFile(base_ + "/tda.log");
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  // Uncancelled, the training runs for hours; cancelled, the process saves
  // its state and ends.
  EXPECT_EQ(Wait(pid, 20), 3) << ReadFile(base_ + "/tda.log");
  EXPECT_TRUE(fs::exists(dir + "/state/strategy.bin"));
}

}  // namespace
}  // namespace topicrawl
