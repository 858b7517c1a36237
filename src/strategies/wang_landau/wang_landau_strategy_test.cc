// The wang-landau strategy (seed 000): admission R(l) >= 0.2 with the
// PR >= 2 tunnelling exception, its parameters, and an end-to-end crawl of a
// small multi-host site on 127.0.0.1 that must repeat exactly for one RNG
// seed (same pages in the same order, same Monte Carlo steps).
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/clock.h"
#include "crawl/crawl_config.h"
#include "crawl/crawl_strategy.h"
#include "crawl/crawler.h"
#include "crawl/dedup.h"
#include "frontier/frontier.h"
#include "strategies/strategy_registry.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

namespace fs = std::filesystem;

std::string TempDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "/wl-" + name + "-" + std::to_string(getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

constexpr char kTopic[] =
    "[topic]\n"
    "name = \"networking\"\n"
    "keywords = { \"network\" = 0.8, \"protocol\" = 0.5, \"router\" = 0.3 }\n"
    "[strategy.wang-landau]\n"
    "pagerank_every = 1\n";

ParsedPage PageWith(const std::string& text, std::vector<std::string> anchors) {
  ParsedPage p;
  p.text = text;
  p.text_blocks = {text};
  for (size_t i = 0; i < anchors.size(); ++i) {
    Outlink l;
    l.url = "http://out.test/" + std::to_string(i);
    l.anchor = anchors[i];
    p.links.push_back(l);
  }
  return p;
}

CrawlTask TaskFor(const std::string& url) {
  CrawlTask t;
  t.url = url;
  t.url_id = DedupId(url, true);
  return t;
}

TEST(WangLandauStrategyTest, AdmitsRelevantLinksAndTunnelsFromHighPageRankPages) {
  const std::string dir = TempDir("tunnel");
  StrategyContext ctx;
  ctx.topic_file = WriteFile(dir + "/topic.toml", kTopic);
  ctx.out_dir = dir;
  auto strategy = MakeCrawlStrategy("wang-landau", ctx);
  ASSERT_TRUE(strategy.ok()) << strategy.status().message();
  Strategy& s = *strategy;
  FakeClock clock;
  auto frontier = Frontier::Create(FrontierOptions{}, &clock, std::move(s.make_selector()).value());
  ASSERT_TRUE(frontier.ok());

  // 20 pages link to a hub: PR(hub) = .15 + .85 * 20 * .15 = 2.7 >= 2.
  const std::string hub = "http://hub.test/";
  LinkCandidate c;
  c.url = hub;
  c.url_id = DedupId(hub, true);
  (*frontier)->Add(c);
  ParsedPage to_hub;
  Outlink l;
  l.url = hub;
  to_hub.links.push_back(l);
  for (int i = 0; i < 20; ++i) {
    CrawlTask leaf = TaskFor("http://leaf.test/" + std::to_string(i));
    PageAssessment a;
    s.learner->OnPageStored(leaf, i + 1, to_hub, a, frontier->get());
  }

  // An off-topic page with off-topic anchors: R(l) = 0 < 0.2.
  ParsedPage offtopic = PageWith("cooking recipes and gardening", {"recipes", "garden"});
  PageAssessment on_leaf, on_hub;
  s.judge->Assess(TaskFor("http://leaf.test/3"), offtopic, &on_leaf);
  s.judge->Assess(TaskFor(hub), offtopic, &on_hub);
  ASSERT_EQ(on_leaf.links.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_LT(on_leaf.links[i].score, 0.2);
    EXPECT_FALSE(on_leaf.links[i].admit) << "PR(leaf) = 0.15";
    EXPECT_TRUE(on_hub.links[i].admit) << "PR(hub) >= 2: potential value";
    EXPECT_NE(on_hub.links[i].explanation.find("\"tunnel_pr\":2.7"), std::string::npos)
        << on_hub.links[i].explanation;
  }

  // An on-topic page: its links reach R(l) >= 0.2 and are admitted anywhere.
  ParsedPage ontopic = PageWith("network protocol router network", {"network protocol"});
  PageAssessment rel;
  s.judge->Assess(TaskFor("http://leaf.test/4"), ontopic, &rel);
  EXPECT_GE(rel.links[0].score, 0.2);
  EXPECT_TRUE(rel.links[0].admit);

  ASSERT_TRUE(s.learner->Finish().ok());
  EXPECT_NE(ReadFile(dir + "/wl_stats.tsv").find("tunnelled_links\t2\n"), std::string::npos);
  EXPECT_EQ(ReadFile(dir + "/wl_steps.tsv"), "L\tE1\tE2\taccepted\tln_f\tflat\n");
}

TEST(WangLandauStrategyTest, RefillHandsOverTheCutChildrenOnceWhenEnabled) {
  const std::string dir = TempDir("refill");
  for (bool enabled : {true, false}) {
    StrategyContext ctx;
    ctx.topic_file = WriteFile(
        dir + "/topic" + std::to_string(enabled) + ".toml",
        std::string(kTopic) + "refill_when_empty = " +
            (enabled ? "true" : "false") + "\n");
    ctx.out_dir = dir;
    auto strategy = MakeCrawlStrategy("wang-landau", ctx);
    ASSERT_TRUE(strategy.ok()) << strategy.status().message();
    Strategy& s = *strategy;
    FakeClock clock;
    auto frontier = Frontier::Create(FrontierOptions{}, &clock, std::move(s.make_selector()).value());
    ASSERT_TRUE(frontier.ok());
    ParsedPage offtopic = PageWith("cooking recipes and gardening", {"recipes", "garden"});
    CrawlTask task = TaskFor("http://leaf.test/1");
    PageAssessment a;
    s.judge->Assess(task, offtopic, &a);
    ASSERT_FALSE(a.links[0].admit);  // R(l) < 0.2: cut by step 8
    s.learner->OnPageStored(task, 7, offtopic, a, frontier->get());
    std::vector<LinkCandidate> refill = s.learner->Refill();
    if (!enabled) {
      EXPECT_TRUE(refill.empty());
      continue;
    }
    ASSERT_EQ(refill.size(), 2u);
    EXPECT_EQ(refill[0].url, offtopic.links[0].url);
    EXPECT_EQ(refill[0].parent_page_id, 7);
    EXPECT_EQ(refill[0].depth, task.depth + 1);
    EXPECT_TRUE(s.learner->Refill().empty()) << "handed over once";
  }
}

// The saved state packs the graph and the refill reserve (section v2):
// save -> restore -> save gives the same bytes, the restored reserve is the
// same list (URL, id, depth, parent, anchor, score, order), and a damaged
// packed part is an error, never a crash. Pages with many cut links sharing
// URL prefixes, https and http links, and a page id that goes down again.
TEST(WangLandauStrategyTest, PackedStateRoundTripsTheReserveAndTheGraph) {
  const std::string dir = TempDir("packed");
  StrategyContext ctx;
  ctx.topic_file = WriteFile(dir + "/topic.toml", kTopic);
  ctx.out_dir = dir;
  ctx.dedup_ignore_scheme = false;
  auto make = [&] {
    auto s = MakeCrawlStrategy("wang-landau", ctx);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return std::move(s).value();
  };
  auto a = make();
  FakeClock clock;
  auto frontier = Frontier::Create(FrontierOptions{}, &clock, std::move(a.make_selector()).value());
  ASSERT_TRUE(frontier.ok());
  const PageId ids[] = {3, 9, 4, 40, 41, 2};
  for (int i = 0; i < 6; ++i) {
    ParsedPage page = PageWith("cooking recipes and gardening", {});
    for (int k = 0; k < 20; ++k) {
      Outlink l;
      l.url = std::string(k % 3 ? "http" : "https") + "://h" + std::to_string(k % 4) +
              ".test/docs/section-" + std::to_string(i) + "/page" + std::to_string(k);
      l.anchor = k % 2 ? "garden recipes" : "weather " + std::to_string(k);
      page.links.push_back(l);
      if (k % 5 == 0) (*frontier)->Add({l.url, DedupId(l.url, false), 1, 1, l.anchor, 0.5});
    }
    CrawlTask task = TaskFor("http://leaf.test/" + std::to_string(i));
    task.url_id = DedupId(task.url, false);
    task.depth = static_cast<uint32_t>(i % 3);
    PageAssessment pa;
    a.judge->Assess(task, page, &pa);
    a.learner->OnPageStored(task, ids[i], page, pa, frontier->get());
  }
  std::string saved;
  ASSERT_TRUE(a.learner->SaveState(&saved).ok());
  auto b = make();
  Status restored = b.learner->RestoreState(saved);
  ASSERT_TRUE(restored.ok()) << restored.message();
  std::string again;
  ASSERT_TRUE(b.learner->SaveState(&again).ok());
  EXPECT_EQ(again, saved);
  std::vector<LinkCandidate> ra = a.learner->Refill(), rb = b.learner->Refill();
  ASSERT_GT(ra.size(), 60u);
  ASSERT_EQ(ra.size(), rb.size());
  for (size_t i = 0; i < ra.size(); ++i) {
    EXPECT_EQ(ra[i].url, rb[i].url) << i;
    EXPECT_EQ(ra[i].url_id, rb[i].url_id) << i;
    EXPECT_EQ(ra[i].url_id, DedupId(ra[i].url, false)) << i;
    EXPECT_EQ(ra[i].depth, rb[i].depth) << i;
    EXPECT_EQ(ra[i].parent_page_id, rb[i].parent_page_id) << i;
    EXPECT_EQ(ra[i].anchor, rb[i].anchor) << i;
    EXPECT_EQ(ra[i].score, rb[i].score) << i;
  }
  EXPECT_EQ(rb[0].parent_page_id, 3);
  EXPECT_EQ(rb.back().parent_page_id, 2);
  // Every byte flipped in the tail (the packed reserve) and every truncation
  // is either rejected with a message or restores something; never a crash.
  int rejected = 0;
  for (size_t cut = saved.size() - 200; cut < saved.size(); ++cut) {
    std::string bad = saved;
    bad[cut] = static_cast<char>(bad[cut] ^ 0x5a);
    Status s = make().learner->RestoreState(bad);
    rejected += !s.ok();
    Status t = make().learner->RestoreState(std::string_view(saved).substr(0, cut));
    EXPECT_FALSE(t.ok());
    EXPECT_FALSE(t.message().empty());
  }
  EXPECT_GT(rejected, 150);
}

TEST(WangLandauStrategyTest, BadParametersFailAtStartWithTheKeyName) {
  const std::string dir = TempDir("params");
  StrategyContext ctx;
  ctx.topic_file = WriteFile(dir + "/t.toml",
                             "[topic]\nname = \"n\"\nkeywords = { \"network\" = 1.0 }\n"
                             "[strategy.wang-landau]\nflatnes = \"mean\"\n");
  auto s = MakeCrawlStrategy("wang-landau", ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("flatnes"), std::string::npos);
  ctx.topic_file = WriteFile(dir + "/u.toml",
                             "[topic]\nname = \"n\"\nkeywords = { \"network\" = 1.0 }\n"
                             "[strategy.wang-landau]\nflatness = \"round\"\n");
  s = MakeCrawlStrategy("wang-landau", ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("round"), std::string::npos);
  ctx.topic_file.clear();
  EXPECT_FALSE(MakeCrawlStrategy("wang-landau", ctx).ok()) << "needs a topic";
  EXPECT_FALSE(MakeCrawlStrategy("annealing", ctx).ok()) << "needs a topic";
}

// ---- End to end ---------------------------------------------------------------

std::string Page(const std::string& body) {
  return "<!doctype html><html><head><title>t</title></head><body>" + body +
         "</body></html>";
}

class WangLandauCrawlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    // A networking home page on a.test linking to 24 pages on four hosts
    // with anchors of graded relevance. The child pages are off-topic and
    // their links (R(l) < 0.2) are never admitted, so after the home page
    // the queue is fixed and the order of fetches depends on the WL walk
    // only (and not on thread timing).
    std::string links;
    const char* anchors[] = {"network protocol router", "network protocol", "network",
                             "router", "protocol", "weather"};
    for (char host : std::string("abcd")) {
      for (int i = 0; i < 6; ++i) {
        std::string path = std::string("/") + host + std::to_string(i) + ".html";
        links += "<a href='http://" + std::string(1, host) + ".test" + path + "'>" +
                 anchors[(i + host) % 6] + "</a> ";
        server_.Set(path, testing::HtmlResponse(Page(
                              "cooking and gardening <a href='/deep" + path +
                              "'>recipes</a> <a href='http://a.test/'>home</a>")));
      }
    }
    server_.Set("/", testing::HtmlResponse(Page(
                         "<p>network protocol router: how a network routes packets</p>" +
                         links)));
  }

  // Runs a crawl; returns the fetched URLs in order.
  std::vector<std::string> Crawl(const std::string& dir, uint64_t seed) {
    const std::string topic = WriteFile(dir + ".topic.toml", kTopic);
    CrawlConfig c;
    c.seeds = {"http://a.test/"};
    c.out_dir = dir;
    c.strategy = "wang-landau";
    c.topic_file = topic;
    c.rng_seed = seed;
    c.max_pages = 12;
    c.delay_s = 0;
    c.concurrency = 1;
    c.per_host_connections = 1;
    c.parse_threads = 1;
    c.respect_robots = false;
    c.progress_interval_ms = 0;
    c.total_timeout_s = 5;
    for (const char* h : {"a", "b", "c", "d"}) {
      c.connect_to.push_back(std::string(h) + ".test:80:127.0.0.1:" +
                             std::to_string(server_.port()));
    }
    Crawler crawler(c, nullptr, MakeCrawlStrategy);
    Status s = crawler.Run();
    EXPECT_TRUE(s.ok()) << s.message();
    return FetchedUrls(dir);
  }

  static std::vector<std::string> FetchedUrls(const std::string& dir) {
    std::vector<std::string> urls;
    sqlite3* db = nullptr;
    sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT url, status FROM pages ORDER BY id", -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW) {
      urls.push_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
      EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 1)), "ok");
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return urls;
  }

  testing::TestHttpServer server_;
};

TEST_F(WangLandauCrawlTest, SameRngSeedSameCrawl) {
  const std::string base = TempDir("e2e");
  std::vector<std::string> first = Crawl(base + "/run1", 7);
  std::vector<std::string> again = Crawl(base + "/run2", 7);
  std::vector<std::string> other = Crawl(base + "/run3", 8);
  ASSERT_EQ(first.size(), 12u);
  EXPECT_EQ(first[0], "http://a.test/");
  EXPECT_EQ(first, again);
  EXPECT_NE(first, other) << "another seed walks another path";
  for (const std::string& url : first) {
    EXPECT_EQ(url.find("/deep"), std::string::npos) << "R(l) < 0.2 was admitted: " << url;
  }
  // Diagnostics: one row per MC step, identical for the same seed.
  const std::string steps = ReadFile(base + "/run1/wl_steps.tsv");
  EXPECT_EQ(steps.rfind("L\tE1\tE2\taccepted\tln_f\tflat\n", 0), 0u);
  EXPECT_EQ(steps, ReadFile(base + "/run2/wl_steps.tsv"));
  int rows = 0;
  for (char ch : steps) rows += ch == '\n';
  EXPECT_GE(rows - 1, 11) << "at least one step per page after the seed";
  EXPECT_LE(rows - 1, 11 * 5);
  const std::string dos = ReadFile(base + "/run1/wl_dos.tsv");
  EXPECT_EQ(dos.rfind("bin\tenergy\tln_g\tH\n", 0), 0u);
  EXPECT_GT(dos.size(), std::string("bin\tenergy\tln_g\tH\n").size());
}

}  // namespace
}  // namespace topicrawl
