// TopicHub (seed 002 §3.1): each stage against a case solved by hand.
#include "graph/topic_hub.h"

#include <numeric>
#include <vector>

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

TopicHubPage Page(uint32_t site, float sim, bool relevant, bool fresh = true) {
  TopicHubPage p;
  p.site = site;
  p.sim = sim;
  p.crawled = true;
  p.relevant = relevant;
  p.fresh = fresh;
  return p;
}

TEST(TopicHubTest, SiteUpdateFrequencyIsEquationTwo) {
  TopicHubInput in;
  in.site_count = 2;
  // Site 0: fresh relevant 0.8 and 0.6, one fresh irrelevant, one old
  // relevant (not counted). Site 1: two fresh irrelevant.
  in.pages = {Page(0, 0.8f, true), Page(0, 0.6f, true), Page(0, 0.1f, false),
              Page(0, 0.9f, true, /*fresh=*/false), Page(1, 0.0f, false),
              Page(1, 0.2f, false)};
  in.links = CsrGraph::FromEdges(in.pages.size(), {});
  TopicHubOptions o;
  o.freq_alpha = 0.7;
  o.days_between_rounds = 0.5;
  std::vector<double> f = SiteUpdateFrequency(in, o);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_NEAR(f[0], (0.7 * (0.8 + 0.6) + 0.3 * 1) / 0.5, 1e-6);
  EXPECT_NEAR(f[1], (0.3 * 2) / 0.5, 1e-9);
}

TEST(TopicHubTest, SiteRankSolvesTwoSitesByHand) {
  // A <-> B, teleport t = Sfreq normalised = (0.75, 0.25), d = 0.85:
  //   a = (1-d) tA + d b,  b = (1-d) tB + d a  =>  a = (tA + d tB) / (1 + d).
  CsrGraph g = CsrGraph::FromEdges(2, std::vector<CsrGraph::Edge>{{0, 1}, {1, 0}});
  TopicHubOptions o;
  std::vector<double> sfreq = {3.0, 1.0};
  std::vector<double> r = SiteRank(g, sfreq, o);
  const double a = (0.75 + 0.85 * 0.25) / 1.85;
  EXPECT_NEAR(r[0], a, 1e-9);
  EXPECT_NEAR(r[1], 1 - a, 1e-9);
}

TEST(TopicHubTest, SiteRankWithADanglingSiteSolvedByHand) {
  // A -> B, A -> C, B -> C; C links nowhere. Uniform teleport (literal
  // form), d = 0.5, C's rank spread uniformly:
  //   a = 1/6 + c/6,  b = 1/6 + a/4 + c/6,  c = 1/6 + a/4 + b/2 + c/6.
  // Substituting: a = 7/33... solved below with a + b + c = 1.
  CsrGraph g = CsrGraph::FromEdges(3, std::vector<CsrGraph::Edge>{{0, 1}, {0, 2}, {1, 2}});
  TopicHubOptions o;
  o.damping = 0.5;
  o.sfreq_teleport = false;
  std::vector<double> r = SiteRank(g, std::vector<double>{1, 1, 1}, o);
  // From a = (1 + c)/6 and b = 1/6 + a/4 + c/6 and a + b + c = 1:
  //   c = 6a - 1, b = 1/6 + a/4 + a - 1/6 = 1.25 a, a + 1.25a + 6a - 1 = 1
  //   => a = 2 / 8.25.
  const double a = 2 / 8.25;
  EXPECT_NEAR(r[0], a, 1e-9);
  EXPECT_NEAR(r[1], 1.25 * a, 1e-9);
  EXPECT_NEAR(r[2], 6 * a - 1, 1e-9);
}

TEST(TopicHubTest, SiteRankLiteralFormForgetsItsStart) {
  // SPEC's literal reading (uniform teleport, Sfreq only as the start)
  // converges to the same ranks whatever Sfreq is; the Sfreq teleport
  // does not. This is why sfreq_teleport is the default (docs/strategies/tda.md).
  CsrGraph g = CsrGraph::FromEdges(3, std::vector<CsrGraph::Edge>{{0, 1}, {1, 2}, {2, 0}, {0, 2}});
  TopicHubOptions literal;
  literal.sfreq_teleport = false;
  auto r1 = SiteRank(g, std::vector<double>{10, 0, 0}, literal);
  auto r2 = SiteRank(g, std::vector<double>{0, 0, 10}, literal);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r1[i], r2[i], 1e-8);
  TopicHubOptions personal;
  auto p1 = SiteRank(g, std::vector<double>{10, 0, 0}, personal);
  auto p2 = SiteRank(g, std::vector<double>{0, 0, 10}, personal);
  EXPECT_GT(p1[0], p2[0] + 0.05);
  EXPECT_NEAR(std::accumulate(p1.begin(), p1.end(), 0.0), 1.0, 1e-9);
}

TEST(TopicHubTest, AggregationIsNormalisedAroundTheMean) {
  // Page 0 links to 2 relevant + 1 irrelevant, page 1 to 1 irrelevant,
  // pages 2..4 link nowhere. beta = 0.5: CAP = 1.5, 0.5, 0, 0, 0;
  // avg = 0.4, max - min = 1.5: CAP' = 0.7333, 0.0667, 0, 0, 0.
  TopicHubInput in;
  in.site_count = 1;
  in.pages = {Page(0, 1, true), Page(0, 1, true), Page(0, 1, true),
              Page(0, 1, true), Page(0, 0, false)};
  in.links = CsrGraph::FromEdges(5, std::vector<CsrGraph::Edge>{{0, 2}, {0, 3}, {0, 4}, {1, 4}});
  std::vector<uint32_t> nodes = {0, 1, 2, 3, 4};
  std::vector<double> cap = NormalizedAggregation(in, nodes, 0.5);
  EXPECT_NEAR(cap[0], (1.5 - 0.4) / 1.5, 1e-9);
  EXPECT_NEAR(cap[1], (0.5 - 0.4) / 1.5, 1e-9);
  EXPECT_EQ(cap[2], 0.0);
  EXPECT_EQ(cap[4], 0.0);
}

TEST(TopicHubTest, TheIndexPageOfASiteIsItsThub) {
  // Site 0: index (irrelevant, sim 0.2) -> r1, r2, r3 (relevant); r1 <-> r2;
  // an unrelated irrelevant page 4 that no relevant page touches.
  TopicHubInput in;
  in.site_count = 1;
  in.pages = {Page(0, 0.2f, false), Page(0, 0.9f, true), Page(0, 0.8f, true),
              Page(0, 0.7f, true), Page(0, 0.0f, false)};
  in.links = CsrGraph::FromEdges(
      5, std::vector<CsrGraph::Edge>{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 1}, {4, 4}});
  TopicHubOptions o;
  std::vector<uint32_t> pages = {0, 1, 2, 3, 4};
  auto thubs = SiteThubPages(in, in.links.Reversed(), pages, o);
  ASSERT_EQ(thubs.size(), 1u);
  EXPECT_EQ(thubs[0].page, 0u);
  // I(index) = 0.5 * 0.2 + 0.5 * CAP'; CAP = 0.5*3 = 1.5, r1 0.5, r2 0.5,
  // r3 0 (page 4 is outside G_s): avg = 0.625, range 1.5.
  EXPECT_NEAR(thubs[0].page_weight, 0.5 * 0.2 + 0.5 * (1.5 - 0.625) / 1.5, 1e-6);
}

TEST(TopicHubTest, MergesSitesByGlobalWeightAndCutsAtN) {
  // Two sites, each a single relevant page (its own THub). Site 1 gets far
  // more fresh relevant pages, so a higher TSI, and its page ranks first
  // although its own importance is lower.
  TopicHubInput in;
  in.site_count = 2;
  in.pages = {Page(0, 0.9f, true, false), Page(1, 0.6f, true),
              Page(1, 0.6f, true), Page(1, 0.6f, true)};
  // Site 1's pages form a cycle (one THub); cross links both ways.
  in.links = CsrGraph::FromEdges(
      4, std::vector<CsrGraph::Edge>{{1, 2}, {2, 3}, {3, 1}, {0, 1}, {1, 0}});
  TopicHubOptions o;
  o.seeds = 1;
  TopicHubResult r = RunTopicHub(in, o);
  EXPECT_EQ(r.thub_pages, 2u);
  ASSERT_EQ(r.seeds.size(), 1u);
  EXPECT_EQ(r.seeds[0].site, 1u);
  EXPECT_GT(r.tsi[1], r.tsi[0]);
  EXPECT_NEAR(r.seeds[0].weight, r.seeds[0].site_weight * r.seeds[0].page_weight, 1e-12);
  o.seeds = 0;
  TopicHubResult all = RunTopicHub(in, o);
  ASSERT_EQ(all.seeds.size(), 2u);
  EXPECT_GE(all.seeds[0].weight, all.seeds[1].weight);
  EXPECT_EQ(all.seeds[1].page, 0u);
}

}  // namespace
}  // namespace topicrawl
