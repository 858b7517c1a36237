// The parts of strategy `online` against hand-computed values: the
// FTRL-proximal step (McMahan et al. 2013, Algorithm 1), the Bayes-UCB arm
// values and the arm chosen over a fixed reward sequence, the link features.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "crawl/state_blob.h"
#include "scoring/scorer.h"
#include "strategies/online/ftrl.h"
#include "strategies/online/group_bandit.h"
#include "strategies/online/link_features.h"
#include "strategies/online/page_judge.h"

namespace topicrawl {
namespace {

TEST(FtrlTest, TwoStepsMatchHandComputedValues) {
  FtrlParams p;
  p.alpha = 0.5;
  p.beta = 1.0;
  p.lambda1 = 0.0;
  p.lambda2 = 0.0;
  p.bits = 10;
  FtrlProximal m(p);
  const std::vector<HashedFeature> x = {{3, 1.0f}, {7, 1.0f}};
  // Step 1: w = 0, p = 0.5, g = -0.5, sigma = sqrt(0.25)/0.5 = 1,
  // z = -0.5, n = 0.25, w = 0.5 / ((1 + 0.5) / 0.5) = 1/6.
  EXPECT_DOUBLE_EQ(m.Update(x, 0.0, 1.0), 0.5);
  EXPECT_NEAR(m.Weight(3), 1.0 / 6.0, 1e-7);
  EXPECT_NEAR(m.Weight(7), 1.0 / 6.0, 1e-7);
  EXPECT_EQ(m.Weight(4), 0.0);
  // Step 2, y = 0: p = sigmoid(1/3) = 0.5825702; g = p;
  // sigma = (sqrt(0.25 + g^2) - 0.5) / 0.5 = 0.5354321;
  // z = -0.5 + g - sigma / 6 = -0.0066685; n = 0.5893880;
  // w = 0.0066685 / ((1 + sqrt(n)) / 0.5) = 0.0018862.
  EXPECT_NEAR(m.Update(x, 0.0, 0.0), 0.5825702064623147, 1e-7);
  EXPECT_NEAR(m.Weight(3), 0.0018861912004527032, 1e-6);
  EXPECT_NEAR(m.Predict(x, 0.0), 1.0 / (1.0 + std::exp(-2 * 0.0018861912004527032)), 1e-6);
  EXPECT_EQ(m.updates(), 2u);
}

TEST(FtrlTest, MarginValueAndL1MatchHandComputedValues) {
  FtrlParams p;
  p.alpha = 1.0;
  p.beta = 1.0;
  p.lambda1 = 0.3;
  p.lambda2 = 0.5;
  p.bits = 10;
  FtrlProximal m(p);
  const std::vector<HashedFeature> x = {{5, 2.0f}};
  const double margin = Logit(0.2);
  // Untrained: the prediction is the prior.
  EXPECT_NEAR(m.Predict(x, margin), 0.2, 1e-12);
  // g = (0.2 - 1) * 2 = -1.6, sigma = 1.6, z = -1.6, n = 2.56;
  // w = -(z + 0.3) / ((1 + 1.6) / 1 + 0.5) = 1.3 / 3.1.
  EXPECT_NEAR(m.Update(x, margin, 1.0), 0.2, 1e-12);
  EXPECT_NEAR(m.Weight(5), 1.3 / 3.1, 1e-6);
  EXPECT_NEAR(m.Logit(x, margin), margin + 2 * 1.3 / 3.1, 1e-6);
  // A small gradient leaves |z| <= lambda1: the weight is exactly 0.
  FtrlProximal small(p);
  small.Update({{9, 0.1f}}, Logit(0.5), 1.0);  // g = -0.05, z = -0.05
  EXPECT_EQ(small.Weight(9), 0.0);
}

TEST(FtrlTest, SaveRestoreGivesTheSameWeightsAndRefusesOtherSettings) {
  FtrlParams p;
  p.bits = 12;
  FtrlProximal a(p);
  for (int i = 0; i < 50; ++i) {
    a.Update({{static_cast<uint32_t>(i * 37 % 4096), 1.0f}, {11, 1.0f}}, 0.0, i % 3 == 0);
  }
  StateWriter w;
  a.Save(&w);
  FtrlProximal b(p);
  StateReader r(w.data());
  ASSERT_TRUE(b.Restore(&r).ok()) << r.status().message();
  EXPECT_TRUE(r.AtEnd());
  for (uint32_t s = 0; s < 4096; ++s) ASSERT_EQ(a.Weight(s), b.Weight(s)) << s;
  EXPECT_EQ(b.updates(), 50u);
  FtrlParams q = p;
  q.alpha = 0.3;
  FtrlProximal c(q);
  StateReader r2(w.data());
  Status s = c.Restore(&r2);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("learner settings"), std::string::npos) << s.message();
}

TEST(GroupBanditTest, UcbMatchesHandComputedValues) {
  BanditParams p;
  p.prior_weight = 2;
  p.exploration = 1;
  GroupBandit b(p);
  for (double r : {1.0, 1.0, 0.0}) b.Observe(1, r);   // A: n 3, s 2
  for (int i = 0; i < 4; ++i) b.Observe(2, 0.0);      // B: n 4, s 0
  // A: m = (2 + 2*0.3)/5 = 0.52, ucb = 0.52 + sqrt(0.52*0.48/6)
  EXPECT_NEAR(b.Mean(1, 0.3), 0.52, 1e-12);
  EXPECT_NEAR(b.Ucb(1, 0.3), 0.52 + std::sqrt(0.52 * 0.48 / 6), 1e-12);
  // B: m = 0.6/6 = 0.1, ucb = 0.1 + sqrt(0.09/7)
  EXPECT_NEAR(b.Ucb(2, 0.3), 0.1 + std::sqrt(0.09 / 7), 1e-12);
  // C untried: m = q, ucb = 0.3 + sqrt(0.21/3)
  EXPECT_NEAR(b.Ucb(3, 0.3), 0.3 + std::sqrt(0.21 / 3), 1e-12);
  EXPECT_GT(b.Ucb(1, 0.3), b.Ucb(3, 0.3));
  EXPECT_GT(b.Ucb(3, 0.3), b.Ucb(2, 0.3));
}

TEST(GroupBanditTest, ArmChoiceOnAFixedSequence) {
  // Arm X (model says 0.6) never pays, arm Y (model says 0.4) always does.
  // Hand-computed, a = 2, c = 1:
  //   1: X 0.6 + sqrt(.24/3) = .8828 > Y .6828          -> X, r 0
  //   2: X .4 + sqrt(.24/4) = .6449 < Y .6828            -> Y, r 1
  //   3: Y .6 + sqrt(.24/4) = .8449 > X .6449            -> Y, r 1
  //   4: Y .7 + sqrt(.21/5) = .9049                      -> Y
  BanditParams p;
  p.prior_weight = 2;
  p.exploration = 1;
  GroupBandit b(p);
  const uint64_t kX = 10, kY = 20;
  std::string chosen;
  for (int step = 0; step < 4; ++step) {
    const double ux = b.Ucb(kX, 0.6), uy = b.Ucb(kY, 0.4);
    const bool x = ux > uy;
    chosen += x ? 'X' : 'Y';
    b.Observe(x ? kX : kY, x ? 0.0 : 1.0);
  }
  EXPECT_EQ(chosen, "XYYY");
  EXPECT_NEAR(b.Ucb(kX, 0.6), 0.4 + std::sqrt(0.24 / 4), 1e-12);
  EXPECT_NEAR(b.Ucb(kY, 0.4), (3 + 0.8) / 5 + std::sqrt(0.76 * 0.24 / 6), 1e-12);
  // Greedy (c = 0) with q_X = 0.7 tries X twice: m_X = 0.7, then 1.4/3 =
  // .467 > .4, then 1.4/4 = .35 < .4.
  BanditParams g = p;
  g.exploration = 0;
  GroupBandit greedy(g);
  std::string greedy_chosen;
  for (int step = 0; step < 4; ++step) {
    const bool x = greedy.Ucb(kX, 0.7) > greedy.Ucb(kY, 0.4);
    greedy_chosen += x ? 'X' : 'Y';
    greedy.Observe(x ? kX : kY, x ? 0.0 : 1.0);
  }
  EXPECT_EQ(greedy_chosen, "XXYY");
}

TEST(GroupBanditTest, VarianceFloorKeepsABonusForPoorGroups) {
  BanditParams p;
  p.prior_weight = 2;
  p.exploration = 1;
  p.min_variance = 0.05;
  GroupBandit b(p);
  // Untried, q = 0.01: m (1 - m) = .0099 < .05, ucb = .01 + sqrt(.05 / 3).
  EXPECT_NEAR(b.Ucb(1, 0.01), 0.01 + std::sqrt(0.05 / 3), 1e-12);
  // q = 0.5: the floor does not bind, ucb = .5 + sqrt(.25 / 3).
  EXPECT_NEAR(b.Ucb(1, 0.5), 0.5 + std::sqrt(0.25 / 3), 1e-12);
  // An exhausted group (20 pages, nothing found, q = .2) ranks below the
  // untried one the model thinks poor: m = .4/22, ucb = m + sqrt(.05/23).
  for (int i = 0; i < 20; ++i) b.Observe(2, 0.0);
  EXPECT_NEAR(b.Ucb(2, 0.2), 0.4 / 22 + std::sqrt(0.05 / 23), 1e-12);
  EXPECT_LT(b.Ucb(2, 0.2), b.Ucb(1, 0.01));
}

TEST(GroupBanditTest, SaveRestoreAndBoundedArms) {
  BanditParams p;
  p.max_groups = 3;
  GroupBandit b(p);
  for (uint64_t k = 1; k <= 5; ++k) b.Observe(k, 0.5);
  EXPECT_EQ(b.size(), 3u);
  EXPECT_EQ(b.Stats(5).n, 0.0);
  StateWriter w;
  b.Save(&w);
  GroupBandit c(p);
  StateReader r(w.data());
  ASSERT_TRUE(c.Restore(&r).ok());
  for (uint64_t k = 1; k <= 5; ++k) EXPECT_EQ(c.Ucb(k, 0.2), b.Ucb(k, 0.2));
}

TEST(LinkFeaturesTest, WordsUrlPartsAndGroups) {
  EXPECT_EQ(OnlineWords("TCP/IP Sockets, 2024 édition", 10),
            (std::vector<std::string>{"tcp", "ip", "sockets", "#", "édition"}));
  EXPECT_EQ(OnlineWords("网络安全 guide", 10),
            (std::vector<std::string>{"网", "络", "网络", "安", "络安", "全", "安全", "guide"}));
  EXPECT_EQ(OnlineWords("a b c d", 2).size(), 2u);
  EXPECT_EQ(UrlHost("http://h.test:8080/a/b.html?x=1"), "h.test:8080");
  EXPECT_EQ(UrlPath("http://h.test:8080/a/b.html?x=1"), "/a/b.html");
  EXPECT_EQ(UrlPath("http://h.test"), "/");
  EXPECT_EQ(UrlDirectory("http://h.test/a/b/c.html"), "h.test/a/b/");
  EXPECT_EQ(UrlDirectory("http://h.test/a/b/c.html", 1), "h.test/a/");
  EXPECT_EQ(UrlDirectory("http://h.test/a/b/c.html", 5), "h.test/");
  EXPECT_EQ(DirectoryGroup("http://h.test/a/x.html"), DirectoryGroup("http://h.test/a/y.html"));
  EXPECT_NE(DirectoryGroup("http://h.test/a/x.html"), DirectoryGroup("http://h.test/b/x.html"));
  EXPECT_EQ(BlockKind("aside|div.x"), 4);
  EXPECT_EQ(BlockKind(""), 0);

  FtrlParams fp;
  fp.bits = 16;
  FtrlProximal model(fp);
  GroupBandit bandit(BanditParams{});
  LinkFeaturizer f(&model, &bandit, 12);
  std::vector<HashedFeature> x;
  std::vector<std::string> names;
  LinkSide side;
  side.block_group = BlockGroup("h.test", "nav|ul.menu");
  side.block_hash = 77;
  side.kind = 1;
  side.parent_bucket = 3;
  side.context[0] = LinkFeaturizer::ContextHash("routing");
  const std::vector<std::string> ctx = {"routing"};
  f.Build({"http://h.test/net/tcp/intro.html", "TCP basics", 2, &side, &ctx, "nav|ul.menu"}, &x,
          &names);
  ASSERT_EQ(x.size(), names.size());
  for (const char* want : {"bias:", "h:h.test", "p:h.test/net", "p:h.test/net/tcp", "s:net",
                           "s:tcp", "e:html", "u:intro", "a:tcp", "a:basics", "d:2",
                           "yd:none", "yp:none", "pr:3", "c:routing", "b:nav|ul.menu",
                           "hb:nav|ul.menu", "bk:1", "yb:none"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  }
  // The same link without names gives the same slots; yields move with the
  // bandit.
  std::vector<HashedFeature> y;
  f.Build({"http://h.test/net/tcp/intro.html", "TCP basics", 2, &side, nullptr, {}}, &y);
  ASSERT_EQ(y.size(), x.size());
  for (size_t k = 0; k < x.size(); ++k) EXPECT_EQ(y[k].slot, x[k].slot);
  for (int i = 0; i < 4; ++i) bandit.Observe(DirectoryGroup("http://h.test/net/tcp/a.html"), 1);
  f.Build({"http://h.test/net/tcp/intro.html", "TCP basics", 2, &side, nullptr, {}}, &y, &names);
  EXPECT_NE(std::find(names.begin(), names.end(), "yd:4hi"), names.end());
}

// Self-training (page_judge.h): after confident pages, the words of the
// positives lift an undecided page over the threshold and a page with none
// of them stays below it, whatever site either comes from (the judge reads
// no URL).
TEST(SelfTrainedJudgeTest, LearnsFromConfidentPagesAndDecidesTheUndecided) {
  SelfTrainedJudgeParams params;
  SelfTrainedJudge judge(params, /*beta=*/1.0);
  auto page = [](std::string text) {
    ParsedPage p;
    p.title = "page";
    p.text = std::move(text);
    return p;
  };
  for (int i = 0; i < 200; ++i) {
    const ParsedPage pos = page("socket listen accept backlog");
    judge.Train(judge.Judge(pos, 1.0), 1.0);        // R >= beta: a positive
    const ParsedPage neg = page("template iterator allocator");
    judge.Train(judge.Judge(neg, 0.1), 0.1);        // R <= 0.25 beta: a negative
    const ParsedPage mid = page("socket allocator");
    judge.Train(judge.Judge(mid, 0.5), 0.5);        // undecided: no step
  }
  EXPECT_EQ(judge.positives(), 200u);
  EXPECT_EQ(judge.negatives(), 200u);
  // Untrained, R = 0.3 gives P = 0.3 / 2 = 0.15 (the prior margin alone).
  SelfTrainedJudge fresh(params, 1.0);
  EXPECT_NEAR(fresh.Judge(page("accept backlog"), 0.3).probability, 0.15, 1e-9);
  const Judgement topical = judge.Judge(page("accept backlog"), 0.3);
  EXPECT_GE(topical.probability, params.threshold);
  EXPECT_DOUBLE_EQ(topical.relevance, 1.0);  // min(1, max(R, beta P / threshold))
  const Judgement other = judge.Judge(page("clock calendar alarm"), 0.3);
  EXPECT_LT(other.probability, params.threshold);
  EXPECT_DOUBLE_EQ(other.relevance, std::max(0.3, other.probability / params.threshold));
  EXPECT_LT(other.relevance, 1.0);  // below beta: not relevant
}

// D(P) = sum_t w_t n_t / max(N, N0) (page_judge.h), by hand: 3 x 1.0 +
// 2 x 0.5 = 4 weighted topic words in 200 tokens: D = 0.02. With D0 = 0.01
// and beta = 0.6: J = min(1, 0.6 x 2) = 1 (relevant); at N = 800,
// D = 0.005 and J = 0.3 < beta (not relevant). A 20-token page counts as
// N0 = 100 tokens long.
TEST(DensityJudgeTest, DensityAndRelevanceMatchHandComputedValues) {
  PageScore ps;
  ps.relevance = 0.9;
  ps.total_terms = 200;
  TermWeight a;
  a.term = "network";
  a.count = 3;
  a.topic_weight = 1.0;
  TermWeight b;
  b.term = "proxy";
  b.count = 2;
  b.topic_weight = 0.5;
  ps.terms = {a, b};
  const DensityJudgeParams params;  // D0 = 0.01, N0 = 100
  EXPECT_DOUBLE_EQ(TopicDensity(ps, 100), 0.02);
  EXPECT_DOUBLE_EQ(DensityRelevance(ps, 0.6, params), 1.0);
  ps.total_terms = 800;
  EXPECT_DOUBLE_EQ(TopicDensity(ps, 100), 0.005);
  EXPECT_DOUBLE_EQ(DensityRelevance(ps, 0.6, params), 0.3);
  ps.total_terms = 20;
  EXPECT_DOUBLE_EQ(TopicDensity(ps, 100), 0.04);
  EXPECT_DOUBLE_EQ(TopicDensity(ps, 0), 0.2);
  // One term of weight 0.7 in 1,000 tokens.
  ps.total_terms = 1000;
  a.count = 1;
  a.topic_weight = 0.7;
  ps.terms = {a};
  EXPECT_DOUBLE_EQ(TopicDensity(ps, 100), 0.0007);
  ps.total_terms = 0;
  EXPECT_EQ(TopicDensity(ps, 0), 0.0);  // an empty page
  ps.terms.clear();
  EXPECT_EQ(TopicDensity(ps, 100), 0.0);
}

}  // namespace
}  // namespace topicrawl
