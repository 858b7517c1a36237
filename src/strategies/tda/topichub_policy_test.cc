// Seed 002's round policies `topichub` and `static` on a hand-built crawl
// history.
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "crawl/rounds/round_graph.h"
#include "crawl/rounds/round_policy.h"
#include "strategies/round_registry.h"
#include "support/fake_round_history.h"

namespace topicrawl {
namespace {

// Two sites. a: home (seed) -> a/list (irrelevant index) -> a/1..a/4
// (relevant, new in round 1); a/1 <-> a/2. b: home (seed) -> b/x -> b/y,
// irrelevant. Cross link a/list -> b/home.
FakeRoundHistory History() {
  FakeRoundHistory h;
  h.summary.round = 1;
  h.summary.days_since_previous = 0.5;
  h.beta = 0.5;
  h.seeds = {"http://a.test/", "http://b.test/"};
  auto add = [&](UrlId id, const std::string& url, const std::string& host, double rel,
                 int first_round) {
    KnownUrl& u = h.Add(id, url);
    u.host = host;
    u.relevance = rel;
    u.first_round = first_round;
    u.last_round = 1;
  };
  add(1, "http://a.test/", "a.test", 0.1, 0);
  add(2, "http://a.test/list", "a.test", 0.3, 0);
  // a/3..a/6 are new to the web: a revisit of a/list in round 1 found them.
  for (UrlId i = 3; i <= 6; ++i) {
    add(i, "http://a.test/" + std::to_string(i), "a.test", 0.9, 1);
    h.urls[i].parent_url = 2;
    h.urls[i].admitted_round = 1;
    h.urls[i].admitted_by_revisit = true;
  }
  add(7, "http://b.test/", "b.test", 0.1, 0);
  // b/x, b/y: old pages first reached in round 1 (b/x admitted at round 0).
  add(8, "http://b.test/x", "b.test", 0.2, 1);
  h.urls[8].parent_url = 7;
  h.urls[8].admitted_round = 0;
  add(9, "http://b.test/y", "b.test", 0.1, 1);
  h.urls[9].parent_url = 8;
  h.urls[9].admitted_round = 1;
  h.links = {{1, 2}, {2, 3}, {2, 4}, {2, 5}, {2, 6}, {3, 4}, {4, 3}, {2, 7}, {7, 8}, {8, 9}};
  return h;
}

TEST(RoundGraphTest, ReadsPagesSitesAndLinks) {
  FakeRoundHistory h = History();
  auto g = RoundGraph::Read(h);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->url.size(), 9u);
  EXPECT_EQ(g->sites.size(), 2u);
  EXPECT_EQ(g->hub.links.EdgeCount(), 10u);
  const uint32_t a3 = g->dense.at(3);
  EXPECT_TRUE(g->hub.pages[a3].relevant);
  EXPECT_TRUE(g->hub.pages[a3].fresh);
  EXPECT_FALSE(g->hub.pages[g->dense.at(1)].fresh);
  EXPECT_TRUE(g->hub.pages[g->dense.at(8)].fresh) << "first fetched in round 1 (the default)";
  EXPECT_TRUE(g->hub.pages[g->dense.at(9)].fresh);
  auto news = RoundGraph::Read(h, RoundGraph::Fresh::kNewToWeb);
  ASSERT_TRUE(news.ok());
  EXPECT_TRUE(news->hub.pages[news->dense.at(3)].fresh) << "a revisit found its link";
  EXPECT_FALSE(news->hub.pages[news->dense.at(8)].fresh) << "first reached, not new";
  EXPECT_FALSE(news->hub.pages[news->dense.at(9)].fresh) << "linked from an old page's first fetch";
  std::vector<uint32_t> d = g->Distances(g->Find({"http://a.test/"}));
  EXPECT_EQ(d[g->dense.at(1)], 0u);
  EXPECT_EQ(d[a3], 2u);
  EXPECT_EQ(d[g->dense.at(9)], 4u);
}

TEST(TopicHubPolicyTest, SeedsTheNextRoundFromTheHubOfTheRelevantPages) {
  FakeRoundHistory h = History();
  auto p = MakeRoundPolicy("topichub", {});
  ASSERT_TRUE(p.ok()) << p.status().message();
  RoundPlan plan;
  RoundRequest req;
  req.round = 2;
  req.budget = 5;
  ASSERT_TRUE((*p)->Plan(req, h, &plan).ok());
  // Site a's topic resource graph: the relevant pages and their in/out
  // neighbours in the site = a/list + a/3..a/6; its only source is a/list.
  ASSERT_FALSE(plan.seeds.empty());
  EXPECT_EQ(plan.seeds[0], "http://a.test/list");
  // Revisits: a/list first (the seed), then its children; the budget cuts.
  ASSERT_EQ(plan.revisits.size(), 5u);
  EXPECT_EQ(plan.revisits[0].url_id, 2u);
  for (size_t i = 1; i < 5; ++i) {
    EXPECT_GE(plan.revisits[i].url_id, 3u);
    EXPECT_LE(plan.revisits[i].url_id, 7u);
  }
  EXPECT_TRUE(plan.follow_new_links);
}

TEST(StaticPolicyTest, StartsAgainFromTheOriginalSeeds) {
  FakeRoundHistory h = History();
  auto p = MakeRoundPolicy("static", {});
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  RoundRequest req;
  req.round = 2;
  req.budget = 3;
  ASSERT_TRUE((*p)->Plan(req, h, &plan).ok());
  EXPECT_EQ(plan.seeds, h.seeds);
  ASSERT_EQ(plan.revisits.size(), 3u);
  // Both homes (0 hops), then one of the 1-hop pages a/list and b/x:
  // a/list's relevance 0.3 beats b/x's 0.2 on the tie-breaker.
  EXPECT_EQ(plan.revisits[2].url_id, 2u);
  std::set<UrlId> first = {plan.revisits[0].url_id, plan.revisits[1].url_id};
  EXPECT_EQ(first, (std::set<UrlId>{1, 7}));
}

// Two sites with one seed each: a hub-like seed h1 of site x with eight
// pages one hop away, a chain seed h2 of site y (y1 -> y2 -> ... -> y8).
// Breadth-first from both at once, a budget of 6 goes to x's one-hop pages
// (5 of them) and y1; shared by weight 1 : 2 it goes 2 : 4, each seed
// staying inside its site.
TEST(RoundGraphTest, RevisitsBySeedWeightShareTheBudgetByWeight) {
  FakeRoundHistory h;
  h.summary.round = 1;
  auto add = [&](UrlId id, const std::string& host) {
    KnownUrl& u = h.Add(id, "http://" + host + "/" + std::to_string(id));
    u.host = host;
  };
  add(1, "x.test");
  for (UrlId i = 2; i <= 9; ++i) {
    add(i, "x.test");
    h.links.push_back({1, i});
  }
  add(20, "y.test");
  for (UrlId i = 21; i <= 28; ++i) {
    add(i, "y.test");
    h.links.push_back({i - 1, i});
  }
  h.links.push_back({1, 20});   // cross-site: not followed by x's seed
  h.links.push_back({20, 2});
  auto g = RoundGraph::Read(h);
  ASSERT_TRUE(g.ok());
  const uint32_t x = g->dense.at(1), y = g->dense.at(20);

  std::vector<Revisit> bfs = RevisitsByDistance(*g, {x, y}, {});
  TruncateToBudget(&bfs, 6);
  int on_x = 0;
  for (const Revisit& r : bfs) on_x += r.url_id < 20 ? 1 : 0;
  EXPECT_EQ(on_x, 5);  // the out-degree decides, not the weight

  std::vector<Revisit> w = RevisitsBySeedWeight(*g, {x, y}, {1.0, 2.0}, 6);
  ASSERT_EQ(w.size(), 6u);
  std::vector<UrlId> xs, ys;
  for (const Revisit& r : w) (r.url_id < 20 ? xs : ys).push_back(r.url_id);
  EXPECT_EQ(xs.size(), 2u);
  // y's quota follows its chain in order, inside site y.
  EXPECT_EQ(ys, (std::vector<UrlId>{20, 21, 22, 23}));
  EXPECT_EQ(xs[0], 1u);  // each seed's first page before its later ones
  // Priorities descend; the seeds advance in step: the second of x's two
  // pages (k/q = 1/2) ranks with the third of y's four (2/4).
  double x2 = 0, y3 = 0;
  for (const Revisit& r : w) {
    if (r.url_id == xs[1]) x2 = r.priority;
    if (r.url_id == 22) y3 = r.priority;
  }
  EXPECT_DOUBLE_EQ(x2, y3);
  for (size_t i = 1; i < w.size(); ++i) EXPECT_GE(w[i - 1].priority, w[i].priority);
  EXPECT_GT(w.front().priority, 0.999);
  EXPECT_GT(w.back().priority, 0.1);
}

TEST(RoundGraphTest, RevisitsBySeedWeightFillUnusedQuotaBelowTheClaimedPages) {
  FakeRoundHistory h;
  h.summary.round = 1;
  auto add = [&](UrlId id, const std::string& host) {
    KnownUrl& u = h.Add(id, "http://" + host + "/" + std::to_string(id));
    u.host = host;
  };
  // Site x: seed 1 -> 2 (two pages); site y: 10 -> 11..15.
  add(1, "x.test");
  add(2, "x.test");
  h.links.push_back({1, 2});
  add(10, "y.test");
  for (UrlId i = 11; i <= 15; ++i) {
    add(i, "y.test");
    h.links.push_back({10, i});
  }
  h.urls[15].last_state = UrlState::kGone;  // not revisitable
  auto g = RoundGraph::Read(h);
  ASSERT_TRUE(g.ok());
  // x is worth 9 of 10 but has 2 pages: the 4 it cannot use go to the
  // fill, which reaches y's pages from y's seed, below every claimed page.
  std::vector<Revisit> w =
      RevisitsBySeedWeight(*g, {g->dense.at(1), g->dense.at(10)}, {9.0, 1.0}, 6);
  ASSERT_EQ(w.size(), 6u);
  std::set<UrlId> ids;
  for (const Revisit& r : w) ids.insert(r.url_id);
  EXPECT_EQ(ids.size(), 6u);
  EXPECT_EQ(ids.count(15), 0u);
  // Claimed: 1, 2 (x) and 10 (y's quota of 1); filled: three of 11..14.
  EXPECT_EQ(w[0].url_id, 1u);
  for (size_t i = 0; i < 3; ++i) EXPECT_GT(w[i].priority, 0.1);
  for (size_t i = 3; i < 6; ++i) {
    EXPECT_LT(w[i].priority, 0.1);
    EXPECT_GE(w[i].url_id, 11u);
  }
  // No budget: every revisitable page once.
  EXPECT_EQ(RevisitsBySeedWeight(*g, {g->dense.at(1), g->dense.at(10)}, {9.0, 1.0}, -1).size(),
            7u);
}

TEST(TopicHubPolicyTest, HubBudgetOptionIsChecked) {
  const std::string dir = ::testing::TempDir();
  const std::string topic = dir + "/hub_budget_topic.toml";
  {
    std::ofstream f(topic);
    f << "[topic]\nname = \"t\"\nkeywords = { \"x\" = 1.0 }\n[strategy.tda]\nhub_budget = \"round-robin\"\n";
  }
  RoundPolicyContext c;
  c.topic_file = topic;
  auto p = MakeRoundPolicy("topichub", c);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("hub_budget"), std::string::npos);
  {
    std::ofstream f(topic);
    f << "[topic]\nname = \"t\"\nkeywords = { \"x\" = 1.0 }\n[strategy.tda]\nhub_budget = \"breadth\"\n";
  }
  auto q = MakeRoundPolicy("topichub", c);
  ASSERT_TRUE(q.ok()) << q.status().message();
  FakeRoundHistory hist = History();
  RoundPlan plan;
  RoundRequest req;
  req.budget = 5;
  ASSERT_TRUE((*q)->Plan(req, hist, &plan).ok());
  EXPECT_EQ(plan.note.find("by weight"), std::string::npos);
}

TEST(RoundGraphTest, NewToTheWebFollowsParentChainsAndTreatsLoopsAsOld) {
  FakeRoundHistory h;
  h.summary.round = 2;
  auto add = [&](UrlId id, int first_round, UrlId parent, bool by_revisit) {
    KnownUrl& u = h.Add(id, "http://c.test/" + std::to_string(id));
    u.first_round = first_round;
    u.last_round = 2;
    u.parent_url = parent;
    u.admitted_by_revisit = by_revisit;
  };
  add(1, 0, 0, false);  // seed
  add(2, 1, 1, true);   // new in round 1 (not fresh in round 2)
  add(3, 2, 2, false);  // linked from 2: new, first fetched in round 2
  add(4, 2, 3, false);  // and its child
  add(5, 2, 6, false);  // 5 <-> 6: a loop of first admissions (corrupt data)
  add(6, 2, 5, false);
  add(7, 2, 99, false);  // parent unknown
  auto g = RoundGraph::Read(h, RoundGraph::Fresh::kNewToWeb);
  ASSERT_TRUE(g.ok());
  auto fresh = [&](UrlId id) { return bool(g->hub.pages[g->dense.at(id)].fresh); };
  EXPECT_FALSE(fresh(1));
  EXPECT_FALSE(fresh(2));
  EXPECT_TRUE(fresh(3));
  EXPECT_TRUE(fresh(4));
  EXPECT_FALSE(fresh(5));
  EXPECT_FALSE(fresh(6));
  EXPECT_FALSE(fresh(7));
}

TEST(TopicHubPolicyTest, HubFreshOptionIsChecked) {
  const std::string topic = ::testing::TempDir() + "/hub_fresh_topic.toml";
  {
    std::ofstream f(topic);
    f << "[topic]\nname = \"t\"\nkeywords = { \"x\" = 1.0 }\n[strategy.tda]\nhub_fresh = \"recent\"\n";
  }
  RoundPolicyContext c;
  c.topic_file = topic;
  auto p = MakeRoundPolicy("topichub", c);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("hub_fresh"), std::string::npos);
  {
    std::ofstream f(topic);
    f << "[topic]\nname = \"t\"\nkeywords = { \"x\" = 1.0 }\n[strategy.tda]\nhub_fresh = \"first-fetch\"\n";
  }
  EXPECT_TRUE(MakeRoundPolicy("topichub", c).ok());
}

TEST(TopicHubPolicyTest, WithoutRelevantPagesFallsBackToTheOriginalSeeds) {
  FakeRoundHistory h = History();
  for (auto& [id, u] : h.urls) u.relevance = 0.0;
  auto p = MakeRoundPolicy("topichub", {});
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan(RoundRequest{}, h, &plan).ok());
  EXPECT_EQ(plan.seeds, h.seeds);
}

}  // namespace
}  // namespace topicrawl
