#include "crawl/rounds/round_policy.h"

#include <gtest/gtest.h>

#include "crawl/rounds/fake_round_history.h"

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
