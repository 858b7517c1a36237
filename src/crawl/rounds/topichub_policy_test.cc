// Seed 002's round policies `topichub` and `static` on a hand-built crawl
// history.
#include <set>

#include <gtest/gtest.h>

#include "crawl/rounds/fake_round_history.h"
#include "crawl/rounds/round_graph.h"
#include "crawl/rounds/round_policy.h"

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
  for (UrlId i = 3; i <= 6; ++i) add(i, "http://a.test/" + std::to_string(i), "a.test", 0.9, 1);
  add(7, "http://b.test/", "b.test", 0.1, 0);
  add(8, "http://b.test/x", "b.test", 0.2, 1);
  add(9, "http://b.test/y", "b.test", 0.1, 1);
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
