// Strategy `online` end to end: the topic table, what it learns from pages,
// the queue re-scoring, and a deterministic crawl of a small local web where
// the relevant section sits behind an irrelevant-looking hub page.
#include <sqlite3.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/clock.h"
#include "crawl/crawl_config.h"
#include "crawl/crawler.h"
#include "crawl/dedup.h"
#include "frontier/frontier.h"
#include "parse/html_parser.h"
#include "strategies/online/online_strategy.h"
#include "strategies/strategy_registry.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

namespace fs = std::filesystem;

std::string TempDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "/online-" + name + "-" + std::to_string(getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string Topic(const std::string& dir, const std::string& table = "") {
  return WriteFile(dir + "/topic.toml",
                   "[topic]\nname = \"networking\"\nbeta = 0.5\n"
                   "keywords = { \"network\" = 1.0, \"tcp\" = 0.8, \"socket\" = 0.6, "
                   "\"port\" = 0.2 }\n" +
                       table);
}

StrategyContext Context(const std::string& dir, const std::string& topic) {
  StrategyContext ctx;
  ctx.topic_file = topic;
  ctx.out_dir = dir;
  return ctx;
}

TEST(OnlineStrategyTest, TopicTableErrorsAreClear) {
  const std::string dir = TempDir("params");
  auto none = NewOnlineStrategy(Context(dir, ""));
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("needs a topic"), std::string::npos);
  auto typo = NewOnlineStrategy(Context(dir, Topic(dir, "[strategy.online]\ngama = 0.5\n")));
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.status().message().find("unknown key 'gama'"), std::string::npos)
      << typo.status().message();
  auto range = NewOnlineStrategy(Context(dir, Topic(dir, "[strategy.online]\ngamma = 2\n")));
  ASSERT_FALSE(range.ok());
  EXPECT_NE(range.status().message().find("gamma"), std::string::npos);
  auto judge = NewOnlineStrategy(Context(dir, Topic(dir, "[strategy.online]\njudge = \"labels\"\n")));
  ASSERT_FALSE(judge.ok());
  EXPECT_NE(judge.status().message().find("\"density\""), std::string::npos);
  auto reward = NewOnlineStrategy(
      Context(dir, Topic(dir, "[strategy.online]\nreward = \"binary\"\n")));
  ASSERT_FALSE(reward.ok());
  EXPECT_NE(reward.status().message().find("reward must be \"graded\" or \"relevant\""),
            std::string::npos)
      << reward.status().message();
  auto d0 = NewOnlineStrategy(
      Context(dir, Topic(dir, "[strategy.online]\njudge = \"density\"\njudge_density = 0\n")));
  ASSERT_FALSE(d0.ok());
  EXPECT_NE(d0.status().message().find("judge_density"), std::string::npos);
  auto ok = NewOnlineStrategy(
      Context(dir, Topic(dir, "[strategy.online]\ngamma = 0.7\nhash_bits = 12\n")));
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->name, "online");
  EXPECT_TRUE(ok->traits.focus_gated);
}

TEST(OnlineStrategyTest, LearnsFromPagesAndRescoresTheQueue) {
  const std::string dir = TempDir("learn");
  auto made = NewOnlineStrategy(
      Context(dir, Topic(dir, "[strategy.online]\nhash_bits = 14\nrescore_every = 1000\n")));
  ASSERT_TRUE(made.ok()) << made.status().message();
  auto* s = dynamic_cast<OnlineStrategy*>(made->judge.get());
  ASSERT_NE(s, nullptr);
  FakeClock clock;
  auto f = Frontier::Create(FrontierOptions{}, &clock, std::move(s->MakeSelector()).value());
  ASSERT_TRUE(f.ok());
  Frontier* frontier = f->get();
  // A home page with links into two directories, same anchor words.
  ParsedPage home = ParseHtml(
      "<p>network</p><div class=content><a href=/good/1.html>page one</a>"
      "<a href=/good/2.html>page two</a><a href=/bad/1.html>page one</a>"
      "<a href=/bad/2.html>page two</a></div>",
      "http://h.test/");
  CrawlTask task;
  task.url = "http://h.test/";
  task.url_id = DedupId(task.url, true);
  PageAssessment a;
  s->Assess(task, home, &a);
  ASSERT_EQ(a.links.size(), 4u);
  EXPECT_DOUBLE_EQ(a.links[0].score, a.links[2].score) << "nothing learned yet";
  EXPECT_NE(a.links[0].explanation.find("\"prior\""), std::string::npos);
  for (size_t k = 0; k < 4; ++k) {
    frontier->Add({home.links[k].url, DedupId(home.links[k].url, true), 1, 1,
                   home.links[k].anchor, a.links[k].score});
  }
  s->OnPageStored(task, 1, home, a, frontier);
  // /good/1 is relevant, /bad/1 is not.
  auto fetch = [&](const std::string& url, const std::string& text, PageId id) {
    CrawlTask t;
    t.url = url;
    t.url_id = DedupId(url, true);
    t.depth = 1;
    t.anchor = "page one";
    ParsedPage p = ParseHtml("<p>" + text + "</p>", url);
    PageAssessment pa;
    s->Assess(t, p, &pa);
    s->OnPageStored(t, id, p, pa, frontier);
    return pa.relevance;
  };
  EXPECT_GT(fetch("http://h.test/good/1.html", "network tcp socket network", 2), 0.3);
  EXPECT_LT(fetch("http://h.test/bad/1.html", "cooking recipes", 3), 0.05);
  const double good = s->ScoreQueued("http://h.test/good/2.html", "page two", 1);
  const double bad = s->ScoreQueued("http://h.test/bad/2.html", "page two", 1);
  EXPECT_GT(good, bad) << "the directory that paid ranks first";
  EXPECT_LT(bad, a.links[3].score);
  EXPECT_EQ(s->model().updates(), 2u);
  // Re-scoring moves the queued links to those values.
  s->RescoreQueue(frontier);
  std::vector<std::pair<std::string, double>> queued;
  frontier->ForEachQueued([&](const QueuedLinkView& v) {
    queued.emplace_back(std::string(v.url), v.score);
  });
  ASSERT_EQ(queued.size(), 4u);
  for (const auto& [url, score] : queued) {
    if (url == "http://h.test/good/2.html") {
      EXPECT_DOUBLE_EQ(score, good);
    } else if (url == "http://h.test/bad/2.html") {
      EXPECT_DOUBLE_EQ(score, bad);
    }
  }
  ASSERT_TRUE(s->Finish().ok());
  EXPECT_TRUE(fs::exists(dir + "/online_stats.json"));
  EXPECT_TRUE(fs::exists(dir + "/df.tsv"));
  EXPECT_LT(s->MemoryBytes(), size_t{64} << 20);
}

// The page region (Outlink::block) is a feature and a bandit arm: after a
// content-region link paid and a navigation-region link did not, a new
// content link outranks a new navigation link into directories never seen.
TEST(OnlineStrategyTest, LearnsWhichPageRegionPays) {
  const std::string dir = TempDir("region");
  auto made = NewOnlineStrategy(
      Context(dir, Topic(dir, "[strategy.online]\nhash_bits = 14\nrescore_every = 1000\n"
                              "regions = true\n")));
  ASSERT_TRUE(made.ok()) << made.status().message();
  EXPECT_TRUE(made->traits.link_contexts.block) << "the parser must report regions";
  auto plain = NewOnlineStrategy(Context(dir, Topic(dir)));
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_FALSE(plain->traits.link_contexts.block) << "regions are off by default";
  auto bad = NewOnlineStrategy(Context(dir, Topic(dir, "[strategy.online]\nregions = 3\n")));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("regions"), std::string::npos) << bad.status().message();
  auto* s = dynamic_cast<OnlineStrategy*>(made->judge.get());
  ASSERT_NE(s, nullptr);
  FakeClock clock;
  auto f = Frontier::Create(FrontierOptions{}, &clock, std::move(s->MakeSelector()).value());
  ASSERT_TRUE(f.ok());
  ParseOptions options;
  options.link_blocks = true;
  const std::string html =
      "<p>network</p><nav class=menu><a href=/n1/x.html>item</a><a href=/n2/x.html>item</a>"
      "</nav><main><div class=body><a href=/c1/x.html>item</a><a href=/c2/x.html>item</a>"
      "</div></main>";
  ParsedPage home = ParseHtml(html, "http://h.test/", options);
  ASSERT_EQ(home.links.size(), 4u);
  EXPECT_EQ(home.links[0].block, "nav|nav.menu");
  EXPECT_EQ(home.links[2].block, "main|div.body");
  CrawlTask task;
  task.url = "http://h.test/";
  task.url_id = DedupId(task.url, true);
  PageAssessment a;
  s->Assess(task, home, &a);
  ASSERT_EQ(a.links.size(), 4u);
  EXPECT_DOUBLE_EQ(a.links[0].score, a.links[2].score) << "nothing learned yet";
  s->OnPageStored(task, 1, home, a, f->get());
  auto fetch = [&](const std::string& url, const std::string& text, PageId id) {
    CrawlTask t;
    t.url = url;
    t.url_id = DedupId(url, true);
    t.depth = 1;
    t.anchor = "item";
    ParsedPage p = ParseHtml("<p>" + text + "</p>", url, options);
    PageAssessment pa;
    s->Assess(t, p, &pa);
    s->OnPageStored(t, id, p, pa, f->get());
  };
  fetch("http://h.test/c1/x.html", "network tcp socket network", 2);
  fetch("http://h.test/n1/x.html", "cooking recipes", 3);
  const double content = s->ScoreQueued("http://h.test/c2/x.html", "item", 1);
  const double nav = s->ScoreQueued("http://h.test/n2/x.html", "item", 1);
  EXPECT_GT(content, nav) << "the region that paid ranks first";
  // A fresh page's links carry the learned region weights in their explanation.
  ParsedPage again = ParseHtml(html, "http://h.test/other.html", options);
  CrawlTask t2 = task;
  t2.url = "http://h.test/other.html";
  t2.url_id = DedupId(t2.url, true);
  PageAssessment a2;
  s->Assess(t2, again, &a2);
  EXPECT_NE(a2.links[2].explanation.find("main|div.body"), std::string::npos)
      << a2.links[2].explanation;
}

// ---- A small web: the relevant section behind an irrelevant hub -----------

std::string Html(const std::string& title, const std::string& body) {
  return "<!doctype html><html><head><title>" + title + "</title></head><body>" + body +
         "</body></html>";
}

// Home (a little on topic: R = 0.14, only the weak keyword "port") links to
// a tree of decoys that say as little (R = 0.14, below beta) and to a site
// archive that says nothing on the topic (R = 0); the archive lists the
// relevant section (R = 0.99) under plain names. Best-first ranks the
// decoys' links (0.3 * 0.14 + 0.7 * 0.14) above the archive's (0.7 * 0.14)
// and the section's (0) for as long as decoys last.
void ServeHubWeb(testing::TestHttpServer* server, int decoys, int section) {
  std::string home = "<p>welcome to the project site; news, archive and port notes</p>"
                     "<p>about us contact imprint garden cooking weather travel</p>";
  home += "<a href='/archive/index.html'>site archive</a> ";
  for (int i = 0; i < 3; ++i) {
    home += "<a href='/decoy/d" + std::to_string(i) + ".html'>port news " +
            std::to_string(i) + "</a> ";
  }
  server->Set("/", testing::HtmlResponse(Html("home", home)));
  for (int i = 0; i < decoys; ++i) {
    std::string body = "<p>cooking recipes bread garden weather travel holiday port</p>";
    for (int k : {3 * i + 3, 3 * i + 4, 3 * i + 5}) {
      if (k < decoys) {
        body += "<a href='/decoy/d" + std::to_string(k) + ".html'>port tips " +
                std::to_string(k) + "</a> ";
      }
    }
    server->Set("/decoy/d" + std::to_string(i) + ".html",
                testing::HtmlResponse(Html("decoy", body)));
  }
  std::string archive = "<p>archive index listing of old material by year</p>";
  for (int i = 0; i < section; ++i) {
    archive += "<a href='/archive/s1/p" + std::to_string(i) + ".html'>item " +
               std::to_string(i) + "</a> ";
  }
  server->Set("/archive/index.html", testing::HtmlResponse(Html("archive", archive)));
  for (int i = 0; i < section; ++i) {
    server->Set("/archive/s1/p" + std::to_string(i) + ".html",
                testing::HtmlResponse(Html(
                    "notes", "<p>network tcp socket: how a network socket sends tcp "
                             "segments over the network</p>")));
  }
}

int SectionPagesFetched(const std::string& dir) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db,
                     "SELECT count(*) FROM pages WHERE url LIKE '%/archive/s1/%' AND "
                     "status = 'ok'",
                     -1, &st, nullptr);
  int n = -1;
  if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

int CrawlHubWeb(const std::string& strategy, const std::string& base, int port,
                const std::string& keys = "") {
  const std::string dir = base + "/" + strategy;
  fs::create_directories(base);
  CrawlConfig c;
  c.seeds = {"http://w.test/"};
  c.out_dir = dir;
  c.strategy = strategy;
  // A 40-page crawl re-scores its queue every 4 pages (the default 250 is
  // for crawls of thousands).
  c.topic_file = Topic(base, "[strategy.online]\nrescore_every = 4\n" + keys);
  c.max_pages = 40;
  c.deterministic = true;
  c.delay_s = 0;
  c.respect_robots = false;
  c.progress_interval_ms = 0;
  c.write_warc = false;
  c.total_timeout_s = 5;
  c.connect_to.push_back("w.test:80:127.0.0.1:" + std::to_string(port));
  Crawler crawler(c, nullptr, MakeCrawlStrategy);
  Status s = crawler.Run();
  EXPECT_TRUE(s.ok()) << strategy << ": " << s.message();
  return SectionPagesFetched(dir);
}

TEST(OnlineCrawlTest, ReachesTheSectionBehindAnIrrelevantHubWhereBestFirstDoesNot) {
  testing::TestHttpServer server;
  ASSERT_TRUE(server.Start().ok());
  ServeHubWeb(&server, /*decoys=*/60, /*section=*/20);
  const std::string base = TempDir("hub");
  const int best_first = CrawlHubWeb("best-first", base, server.port());
  const int online = CrawlHubWeb("online", base, server.port());
  EXPECT_EQ(best_first, 0) << "best-first follows the decoys' anchors for the whole budget";
  EXPECT_GE(online, 12) << "online drops the decoy directory and probes the archive";
  // Deterministic: the same crawl again fetches the same pages.
  EXPECT_EQ(CrawlHubWeb("online", base + "/again", server.port()), online);
}

// The density judge gives the decoys (15 words, one "port") J = 0.36-0.40,
// judged irrelevant (beta 0.5). A graded reward (J / beta)^2 = 0.52-0.64
// still pays for them and online follows the decoys; with reward =
// "relevant" they pay nothing and online probes the archive.
TEST(OnlineCrawlTest, DensityJudgeReachesTheSectionWhenOnlyRelevantPagesPay) {
  testing::TestHttpServer server;
  ASSERT_TRUE(server.Start().ok());
  ServeHubWeb(&server, /*decoys=*/60, /*section=*/20);
  const std::string base = TempDir("hub-density");
  const std::string density = "judge = \"density\"\n";
  EXPECT_EQ(CrawlHubWeb("online", base + "/graded", server.port(), density), 0)
      << "a graded reward pays for the decoys";
  EXPECT_GE(CrawlHubWeb("online", base + "/relevant", server.port(),
                        density + "reward = \"relevant\"\n"),
            12);
}

}  // namespace
}  // namespace topicrawl
