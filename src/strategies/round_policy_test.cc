#include "crawl/rounds/round_policy.h"

#include <gtest/gtest.h>

#include <cmath>

#include "crawl/rounds/policies.h"
#include "strategies/round_registry.h"
#include "support/fake_round_history.h"

namespace topicrawl {
namespace {

TEST(UrlState, NamesRoundTrip) {
  for (int i = 0; i <= 6; ++i) {
    const auto state = static_cast<UrlState>(i);
    auto back = ParseUrlState(UrlStateName(state));
    ASSERT_TRUE(back.has_value()) << i;
    EXPECT_EQ(*back, state);
  }
  EXPECT_EQ(UrlStateName(UrlState::kTriviallyChanged), "trivially_changed");
  EXPECT_FALSE(ParseUrlState("modified").has_value());
}

TEST(TruncateToBudget, KeepsHighestPriorities) {
  std::vector<Revisit> r = {{1, 0.5}, {2, 0.9}, {3, 0.1}, {4, 0.9}, {5, 0.7}};
  TruncateToBudget(&r, 3);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].url_id, 2u);  // tie on 0.9: lower id first
  EXPECT_EQ(r[1].url_id, 4u);
  EXPECT_EQ(r[2].url_id, 5u);
  std::vector<Revisit> all = {{1, 0.5}, {2, 0.9}};
  TruncateToBudget(&all, -1);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].url_id, 2u);
  TruncateToBudget(&all, 0);
  EXPECT_TRUE(all.empty());
}

TEST(RoundRegistry, UnknownNameListsKnownOnes) {
  auto p = MakeRoundPolicy("nope", {});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("full"), std::string::npos);
  for (const std::string& name : RoundPolicyNames()) {
    auto made = MakeRoundPolicy(name, {});
    ASSERT_TRUE(made.ok()) << name;
    EXPECT_EQ((*made)->Name(), name);
  }
}

TEST(FullPolicy, RevisitsEverythingButGoneAndQueued) {
  FakeRoundHistory h;
  h.summary.round = 1;
  h.seeds = {"http://a/"};
  h.Add(10, "http://a/").relevance = 0.8;
  h.Add(11, "http://a/x").last_state = UrlState::kGone;
  h.Add(12, "http://a/y").relevance = 0.2;
  KnownUrl& queued = h.Add(13, "http://a/q");
  queued.first_round = -1;
  queued.page_id = 0;
  queued.fetches = 0;
  queued.last_state = UrlState::kNotFetched;
  h.Add(14, "http://a/f").last_state = UrlState::kFailed;
  auto p = MakeRoundPolicy("full", {});
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  RoundRequest req;
  req.round = 2;
  ASSERT_TRUE((*p)->Plan(req, h, &plan).ok());
  ASSERT_EQ(plan.revisits.size(), 3u);
  EXPECT_EQ(plan.revisits[0].url_id, 14u);  // no relevance: priority 1
  EXPECT_EQ(plan.revisits[1].url_id, 10u);
  EXPECT_EQ(plan.revisits[2].url_id, 12u);
  EXPECT_EQ(plan.seeds, h.seeds);
  EXPECT_TRUE(plan.follow_new_links);

  RoundPlan small;
  req.budget = 1;
  ASSERT_TRUE((*p)->Plan(req, h, &small).ok());
  ASSERT_EQ(small.revisits.size(), 1u);
  EXPECT_EQ(small.revisits[0].url_id, 14u);
}

}  // namespace
}  // namespace topicrawl

namespace topicrawl {
namespace {

TEST(AdaptivePolicy, EstimatorMatchesHandComputedValues) {
  // r = -log((n - X + 0.5) / (n + 0.5)), computed by hand (python math.log).
  EXPECT_NEAR(ChangeRatePerAccess(1, 0), 0.0, 1e-12);
  EXPECT_NEAR(ChangeRatePerAccess(1, 1), 1.0986122886681098, 1e-12);  // log 3
  EXPECT_NEAR(ChangeRatePerAccess(4, 2), 0.587786664902119, 1e-12);   // log(4.5/2.5)
  EXPECT_NEAR(ChangeRatePerAccess(10, 3), 0.3364722366212129, 1e-12);
  EXPECT_NEAR(ChangeRatePerAccess(5, 5), 2.3978952727983707, 1e-12);  // log 11
}

TEST(AdaptivePolicy, RevisitsFrequentChangersAndRelevantPagesFirst) {
  FakeRoundHistory h;
  h.summary.round = 2;
  h.seeds = {"http://a/"};
  // Revisited twice (rounds 1 and 2): 200 changed both times, 201 never.
  KnownUrl& often = h.Add(200, "http://a/often");
  often.fetches = 3;
  often.changes = 2;
  often.last_round = 2;
  often.relevance = 0.5;
  KnownUrl& never = h.Add(201, "http://a/never");
  never.fetches = 3;
  never.changes = 0;
  never.last_round = 2;
  never.relevance = 0.5;
  // No history: prior rate; the relevant one first.
  h.Add(202, "http://a/rel").relevance = 0.9;
  h.Add(203, "http://a/irrel").relevance = 0.0;
  h.Add(204, "http://a/gone").last_state = UrlState::kGone;
  auto p = MakeRoundPolicy("adaptive", {});
  ASSERT_TRUE(p.ok());
  RoundRequest req;
  req.round = 3;
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan(req, h, &plan).ok());
  ASSERT_EQ(plan.revisits.size(), 4u);  // gone is never planned
  EXPECT_EQ(plan.revisits[0].url_id, 200u);
  EXPECT_EQ(plan.revisits[1].url_id, 202u);
  EXPECT_EQ(plan.revisits[3].url_id, 201u);  // X = 0: only the prior is left
  EXPECT_EQ(h.url_streams, 1) << "the history is streamed once";
  // Hand values. The learned prior (all pages have 0 outlinks: one group):
  // pooled n = 4 revisits, X = 2, span 4 rounds -> I = 1,
  // prior = -log((4 - 2 + 0.5) / (4 + 0.5)) = log(4.5 / 2.5) per round (the
  // group's own pool equals the pooled one, so shrinking changes nothing).
  const double prior = std::log(4.5 / 2.5);
  // 200: n = 2, X = 2 -> r = log 5 per access, span 2 rounds over 2
  // accesses -> log 5 per round, blended with one prior observation:
  // lambda = (prior + 2 log 5) / 3; elapsed 1 round; w = 1 + 0.5.
  const double l200 = (prior + 2 * std::log(5.0)) / 3;
  EXPECT_NEAR(plan.revisits[0].priority, (1 - std::exp(-l200)) * 1.5, 1e-12);
  // 201: X = 0 -> r = 0, lambda = prior / 3.
  EXPECT_NEAR(plan.revisits[3].priority, (1 - std::exp(-prior / 3)) * 1.5, 1e-12);
  // 202: no revisit yet -> the prior; w = 1.9.
  EXPECT_NEAR(plan.revisits[1].priority, (1 - std::exp(-prior)) * 1.9, 1e-12);
  EXPECT_EQ(plan.seeds, h.seeds);
  RoundPlan cut;
  req.budget = 2;
  ASSERT_TRUE((*p)->Plan(req, h, &cut).ok());
  ASSERT_EQ(cut.revisits.size(), 2u);
  EXPECT_EQ(cut.revisits[1].url_id, 202u);
}

TEST(AdaptivePolicy, PagesWithManyLinksGainLinksToNewPagesMoreOften) {
  FakeRoundHistory h;
  h.summary.round = 0;  // planning round 1: no evidence, rho = 0.01
  h.Add(1, "http://a/leaf").relevance = 0.5;
  KnownUrl& index = h.Add(2, "http://a/index");
  index.relevance = 0.5;
  index.out_links = 100;
  auto p = MakeRoundPolicy("adaptive", {});
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan({1, -1, 0}, h, &plan).ok());
  ASSERT_EQ(plan.revisits.size(), 2u);
  EXPECT_EQ(plan.revisits[0].url_id, 2u);
  // prior = 0.3 + 0.01 * 100 = 1.3 per round; w = 1.5.
  EXPECT_NEAR(plan.revisits[0].priority, (1 - std::exp(-1.3)) * 1.5, 1e-12);
  EXPECT_NEAR(plan.revisits[1].priority, (1 - std::exp(-0.3)) * 1.5, 1e-12);
  // With a given rho; the estimator blends in once a page has history.
  // The leaf, last fetched in round 0: two rounds elapsed, no outlinks.
  EXPECT_NEAR(AdaptiveRevisitValue(h.urls.at(1), 2, 0.3), (1 - std::exp(-0.6)) * 1.5, 1e-12);
  KnownUrl revisited = h.urls.at(2);
  revisited.fetches = 2;  // one unchanged revisit: r = 0
  revisited.last_round = 1;
  // lambda = (1 * 50.3 + 1 * 0) / 2
  EXPECT_NEAR(AdaptiveRevisitValue(revisited, 2, 50.3), (1 - std::exp(-50.3 / 2)) * 1.5, 1e-12);
}

TEST(AdaptivePolicy, PagesWithoutHistoryGetThePriorLearnedForTheirGroup) {
  // Round 2 is planned. Ten pages at depth 1 were revisited in round 1 and
  // all changed; ten at depth 3 were revisited and none changed. Two pages
  // without a revisit: the one at depth 1 comes first, although the other
  // has more outlinks.
  FakeRoundHistory h;
  h.summary.round = 1;
  h.summary.new_pages = 0;
  for (UrlId i = 0; i < 10; ++i) {
    KnownUrl& hot = h.Add(10 + i, "http://a/hot" + std::to_string(i));
    hot.depth = 1;
    hot.out_links = 10;
    hot.fetches = 2;
    hot.trivial_changes = 1;
    KnownUrl& cold = h.Add(30 + i, "http://a/cold" + std::to_string(i));
    cold.depth = 3;
    cold.out_links = 10;
    cold.fetches = 2;
  }
  KnownUrl& shallow = h.Add(50, "http://a/shallow-no-history");
  shallow.depth = 1;
  shallow.out_links = 5;
  KnownUrl& deep = h.Add(51, "http://a/deep-no-history");
  deep.depth = 3;
  deep.out_links = 500;
  deep.new_links_last = 3;  // a first fetch that found new URLs: another group, no bonus
  h.urls[50].last_round = h.urls[51].last_round = 0;
  for (auto& [id, u] : h.urls) u.relevance = 0.0;
  auto p = MakeRoundPolicy("adaptive", {});
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan({2, -1, 0}, h, &plan).ok());
  EXPECT_EQ(h.url_streams, 1);
  auto priority = [&](UrlId id) {
    for (const Revisit& r : plan.revisits) {
      if (r.url_id == id) return r.priority;
    }
    return -1.0;
  };
  // Pooled: n = 20, X = 10, span 20 -> r = log(20.5 / 10.5). Group depth 1:
  // n = 10, X = 10 -> log 21; the deep page's group (depth 3, new URLs) has
  // no revisits: the pooled rate. Shrunk with 20 pseudo-revisits of the
  // pooled rate; last fetched in round 0: 2 rounds elapsed; w = 1.
  const double pooled = std::log(20.5 / 10.5);
  const double hot = (20 * pooled + 10 * std::log(21.0)) / 30;
  EXPECT_NEAR(priority(50), 1 - std::exp(-2 * hot), 1e-9);
  EXPECT_NEAR(priority(51), 1 - std::exp(-2 * pooled), 1e-9);
  EXPECT_GT(priority(50), priority(51));
  // A revisited page that found new URLs (a hub of the last round) doubles.
  KnownUrl hub = h.urls.at(10);
  hub.new_links_last = 2;
  EXPECT_NEAR(AdaptiveRevisitValue(hub, 2, 0.5), 2 * AdaptiveRevisitValue(h.urls.at(10), 2, 0.5), 1e-12);
}

TEST(AdaptivePolicy, BfsParentsOfTheLinkGraphLearnTheirOwnPrior) {
  // Round 2 is planned. The seed (depth 0) links to 22 depth-1 pages. Ten of
  // them (10..19) link to a leaf of their own (100..109): parents in a
  // breadth-first walk from the seed; revisited in round 1, all changed.
  // Ten others (30..39) link only back to the seed: not parents; revisited,
  // none changed. Of the two pages without a revisit, 50 (a parent: it
  // links to leaf 150) gets the parents' learned prior and comes before 51
  // (links only to a leaf someone else reached first), although both are
  // at depth 1 and neither last fetch admitted new URLs.
  FakeRoundHistory h;
  h.summary.round = 1;
  KnownUrl& seed = h.Add(1, "http://a/");
  seed.depth = 0;
  auto add = [&](UrlId id, uint32_t depth, uint32_t fetches, uint32_t changes) {
    KnownUrl& u = h.Add(id, "http://a/" + std::to_string(id));
    u.depth = depth;
    u.fetches = fetches;
    u.changes = changes;
    u.relevance = 0.0;
    if (fetches == 1) u.last_round = 0;
  };
  for (UrlId i = 0; i < 10; ++i) {
    add(10 + i, 1, 2, 1);
    add(100 + i, 2, 1, 0);
    add(30 + i, 1, 2, 0);
  }
  add(50, 1, 1, 0);
  add(51, 1, 1, 0);
  add(150, 2, 1, 0);
  for (UrlId i = 0; i < 10; ++i) h.links.push_back({1, 10 + i});
  for (UrlId i = 0; i < 10; ++i) h.links.push_back({1, 30 + i});
  h.links.push_back({1, 50});
  h.links.push_back({1, 51});
  for (UrlId i = 0; i < 10; ++i) h.links.push_back({10 + i, 100 + i});
  for (UrlId i = 0; i < 10; ++i) h.links.push_back({30 + i, 1});
  h.links.push_back({50, 150});
  h.links.push_back({51, 150});  // reached by 50 first (lower id): 51 is no parent
  h.urls.at(1).relevance = 0.0;
  auto p = MakeRoundPolicy("adaptive", {});
  ASSERT_TRUE(p.ok());
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan({2, -1, 0}, h, &plan).ok());
  auto priority = [&](UrlId id) {
    for (const Revisit& r : plan.revisits) {
      if (r.url_id == id) return r.priority;
    }
    return -1.0;
  };
  // Pooled over all 20 revisited pages: n = 20, X = 10, span 20. Parents'
  // group: n = 10, X = 10; non-parents: n = 10, X = 0 (rate 0). Shrunk with
  // 20 pseudo-revisits of the pooled rate; 2 rounds since round 0; w = 1.
  const double pooled = std::log(20.5 / 10.5);
  const double parents = (20 * pooled + 10 * std::log(21.0)) / 30;
  const double others = (20 * pooled + 0) / 30;
  EXPECT_NEAR(priority(50), 1 - std::exp(-2 * parents), 1e-9);
  EXPECT_NEAR(priority(51), 1 - std::exp(-2 * others), 1e-9);
  EXPECT_GT(priority(50), priority(51));
}

TEST(NutchPolicy, IntervalsShrinkOnChangeGrowOtherwiseAndSurviveSaveRestore) {
  FakeRoundHistory h;
  h.summary.round = 1;
  h.Add(300, "http://a/c").last_round = 1;
  h.Add(301, "http://a/u").last_round = 1;
  h.outcomes[1] = {{300, UrlState::kChanged, true, 0, 0.5},
                   {301, UrlState::kUnchanged, true, 0, 0.5}};
  auto p = MakeRoundPolicy("nutch", {});
  ASSERT_TRUE(p.ok());
  ASSERT_TRUE((*p)->OnRoundFinished(h).ok());
  RoundRequest req;
  req.round = 2;
  RoundPlan plan;
  ASSERT_TRUE((*p)->Plan(req, h, &plan).ok());
  // 300: 1 * 0.8 clamped to 1 -> due; 301: 1.4 rounds -> not due after 1.
  ASSERT_EQ(plan.revisits.size(), 1u);
  EXPECT_EQ(plan.revisits[0].url_id, 300u);
  // Round 3: 301 is due (2 >= 1.4).
  const std::string state = (*p)->SaveState();
  EXPECT_EQ(state.size(), 32u);
  auto q = MakeRoundPolicy("nutch", {});
  ASSERT_TRUE((*q)->RestoreState(state).ok());
  req.round = 3;
  RoundPlan later;
  ASSERT_TRUE((*q)->Plan(req, h, &later).ok());
  EXPECT_EQ(later.revisits.size(), 2u);
  // Unchanged again and again: 1.4^k, clamped at 16 rounds.
  for (int k = 0; k < 12; ++k) {
    h.summary.round = 2 + k;
    h.outcomes[2 + k] = {{301, UrlState::kUnchanged, true, 0, 0.5}};
    ASSERT_TRUE((*q)->OnRoundFinished(h).ok());
  }
  h.urls[301].last_round = 13;
  RoundPlan far;
  req.round = 13 + 15;  // 15 rounds later: still not due (interval 16)
  ASSERT_TRUE((*q)->Plan(req, h, &far).ok());
  for (const Revisit& r : far.revisits) EXPECT_NE(r.url_id, 301u);
  req.round = 13 + 16;
  RoundPlan due;
  ASSERT_TRUE((*q)->Plan(req, h, &due).ok());
  bool found = false;
  for (const Revisit& r : due.revisits) found |= r.url_id == 301u;
  EXPECT_TRUE(found);
  EXPECT_FALSE((*q)->RestoreState("short").ok());
}

}  // namespace
}  // namespace topicrawl
