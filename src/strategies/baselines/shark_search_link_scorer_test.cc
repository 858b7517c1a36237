// Shark-search (Hersovici et al. 1998) on a hand-made chain of pages:
// A (relevant) -> B (irrelevant) -> C (irrelevant) -> D -> E.
#include "strategies/baselines/shark_search_link_scorer.h"

#include <cmath>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace topicrawl {
namespace {

std::shared_ptr<TopicRelevance> Relevance(const Topic& topic) {
  auto r = TopicRelevance::Create(topic);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : nullptr;
}

Topic NetworkSocket() {
  Topic t = MakeTopic("net", {{"network", 1.0}, {"socket", 0.5}});
  t.strategies["shark-search"].name = "shark-search";
  t.strategies["shark-search"].Set("depth", int64_t{2});
  return t;
}

Outlink Link(std::string anchor, std::string context = "") {
  Outlink l;
  l.anchor = std::move(anchor);
  l.context = std::move(context);
  return l;
}

TEST(SharkSearchLinkScorerTest, InheritsAlongAChainAndCutsAtDepth) {
  auto scorer = SharkSearchLinkScorer::Create(Relevance(NetworkSocket()));
  ASSERT_TRUE(scorer.ok()) << scorer.status().message();
  const SharkSearchLinkScorer& shark = **scorer;
  EXPECT_DOUBLE_EQ(shark.params().delta, 0.5);
  EXPECT_EQ(shark.params().depth, 2);

  // A is relevant (sim 0.8). Link A->B, anchor "network": anchor score
  // 1/sqrt(1.25), context 1 (anchor matched), inherited 0.5 * 0.8 = 0.4,
  // potential = 0.8 * 0.4 + 0.2 * (0.8 * 0.8944272 + 0.2 * 1) = 0.5031084.
  PageScore a;
  a.relevance = 0.8;
  LinkScore ab = shark.Score(Link("network"), {&a, nullptr, shark.SeedCarry()});
  EXPECT_NEAR(ab.carry.inherited, 0.4, 1e-12);
  EXPECT_NEAR(ab.score, 0.5031083506, 1e-9);
  EXPECT_EQ(ab.carry.depth_left, 2);
  EXPECT_TRUE(ab.admit);

  // B is irrelevant (sim 0): inherited decays, 0.5 * 0.4 = 0.2. The anchor
  // "next" has no topic term, so the context "socket programming" counts:
  // potential = 0.8 * 0.2 + 0.2 * (0.2 * 0.4472136) = 0.1778885.
  PageScore irrelevant;
  LinkScore bc = shark.Score(Link("next", "socket programming"),
                             {&irrelevant, nullptr, ab.carry});
  EXPECT_NEAR(bc.carry.inherited, 0.2, 1e-12);
  EXPECT_NEAR(bc.score, 0.1778885438, 1e-9);
  EXPECT_EQ(bc.carry.depth_left, 1);
  EXPECT_TRUE(bc.admit);

  LinkScore cd = shark.Score(Link("next"), {&irrelevant, nullptr, bc.carry});
  EXPECT_NEAR(cd.carry.inherited, 0.1, 1e-12);
  EXPECT_NEAR(cd.score, 0.8 * 0.1, 1e-12);  // no anchor, no context
  EXPECT_EQ(cd.carry.depth_left, 0);
  EXPECT_TRUE(cd.admit);

  // Depth exhausted: the link out of D is cut.
  LinkScore de = shark.Score(Link("next"), {&irrelevant, nullptr, cd.carry});
  EXPECT_FALSE(de.admit);
  auto j = nlohmann::json::parse(de.explanation);
  EXPECT_EQ(j["admit"], false);

  // A relevant page restores full depth and inherits from its own sim.
  PageScore relevant;
  relevant.relevance = 0.6;
  LinkScore reset = shark.Score(Link("x"), {&relevant, nullptr, cd.carry});
  EXPECT_NEAR(reset.carry.inherited, 0.3, 1e-12);
  EXPECT_EQ(reset.carry.depth_left, 2);
}

TEST(SharkSearchLinkScorerTest, DomContextWhenConfigured) {
  Topic t = NetworkSocket();
  t.strategies["shark-search"].Set("context", std::string("dom_context"));
  auto scorer = SharkSearchLinkScorer::Create(Relevance(t));
  ASSERT_TRUE(scorer.ok());
  PageScore parent;
  Outlink l = Link("more", "nothing here");
  l.dom_context = "network";
  LinkScore s = (*scorer)->Score(l, {&parent, nullptr, {}});
  EXPECT_NEAR(s.parts[2].value, 1 / std::sqrt(1.25), 1e-12);  // "context"
  // The crawler then parses the DOM context only.
  EXPECT_TRUE((*scorer)->NeededContexts().dom);
  EXPECT_FALSE((*scorer)->NeededContexts().text);
  Topic plain = NetworkSocket();
  auto text_scorer = SharkSearchLinkScorer::Create(Relevance(plain));
  ASSERT_TRUE(text_scorer.ok());
  EXPECT_TRUE((*text_scorer)->NeededContexts().text);
  EXPECT_FALSE((*text_scorer)->NeededContexts().dom);
}

TEST(SharkSearchLinkScorerTest, RejectsBadParameters) {
  Topic t = NetworkSocket();
  t.strategies["shark-search"].Set("delat", 0.5);
  auto r = SharkSearchLinkScorer::Create(Relevance(t));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), ::testing::HasSubstr("unknown key `delat`"));
  Topic u = NetworkSocket();
  u.strategies["shark-search"].Set("gamma", 1.5);
  r = SharkSearchLinkScorer::Create(Relevance(u));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), ::testing::HasSubstr("gamma must be in [0, 1]"));
}

}  // namespace
}  // namespace topicrawl
