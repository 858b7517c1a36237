#include "strategies/naive_bayes/nb_evaluation.h"

#include <cmath>

#include "gtest/gtest.h"

namespace topicrawl {
namespace {

TEST(BinaryMetricsTest, PrecisionRecallF1Accuracy) {
  BinaryMetrics m;
  for (int i = 0; i < 8; ++i) m.Add(true, true);    // tp 8
  for (int i = 0; i < 2; ++i) m.Add(true, false);   // fp 2
  for (int i = 0; i < 4; ++i) m.Add(false, true);   // fn 4
  for (int i = 0; i < 6; ++i) m.Add(false, false);  // tn 6
  EXPECT_DOUBLE_EQ(m.precision(), 0.8);
  EXPECT_DOUBLE_EQ(m.recall(), 8.0 / 12);
  EXPECT_DOUBLE_EQ(m.f1(), 2 * 0.8 * (8.0 / 12) / (0.8 + 8.0 / 12));
  EXPECT_DOUBLE_EQ(m.accuracy(), 14.0 / 20);
  BinaryMetrics empty;
  EXPECT_EQ(empty.precision(), 0);
  EXPECT_EQ(empty.f1(), 0);
}

TEST(KlDivergenceTest, KnownAnswerOnCommonVocabulary) {
  WordCounts p{{"a", 3}, {"b", 1}, {"only_p", 100}};
  WordCounts q{{"a", 1}, {"b", 1}, {"only_q", 7}};
  KlResult r = KlDivergence(p, q);
  // Common {a, b}: P = (3/4, 1/4), Q = (1/2, 1/2).
  const double expected = 0.75 * std::log(1.5) + 0.25 * std::log(0.5);
  EXPECT_NEAR(r.nats, expected, 1e-12);
  EXPECT_NEAR(r.bits, expected / std::log(2.0), 1e-12);
  EXPECT_EQ(r.common, 2u);
  EXPECT_EQ(r.vocabulary_p, 3u);
  EXPECT_EQ(r.tokens_p, 4);
  EXPECT_EQ(r.tokens_q, 2);
  EXPECT_NEAR(KlDivergence(p, p).nats, 0.0, 1e-15);
  EXPECT_EQ(KlDivergence({{"x", 1}}, {{"y", 1}}).common, 0u);
}

TEST(TrainEvaluateTest, LinkModelLearnsSplitAndPageModelReadsLinksAsWords) {
  auto link = [](int label, Split split, std::vector<std::string> anchor,
                 std::vector<std::string> context, bool dict) {
    LinkExample l;
    l.label = label;
    l.split = split;
    l.tokens.anchor = std::move(anchor);
    l.tokens.context = std::move(context);
    l.tokens.anchor_has_dict = dict;
    return l;
  };
  std::vector<LinkExample> links = {
      link(1, Split::kTrain, {"tcp"}, {"socket"}, true),
      link(1, Split::kTrain, {"udp"}, {"socket"}, true),
      link(0, Split::kTrain, {"vector"}, {"template"}, false),
      link(0, Split::kTrain, {"map"}, {"template"}, false),
      link(1, Split::kTest, {"sctp"}, {"socket"}, true),   // only group 2 knows
      link(0, Split::kTest, {"list"}, {"template"}, false),
      link(-1, Split::kNone, {"tcp"}, {}, true),
  };
  NaiveBayes g1 = TrainLinkModel(links, 1, Split::kTrain, {"tcp"});
  NaiveBayes g2 = TrainLinkModel(links, 2, Split::kTrain, {"tcp"});
  EXPECT_EQ(g1.samples(true) + g1.samples(false), 4);
  EXPECT_EQ(g2.feature_group, 2);
  BinaryMetrics m1 = EvaluateLinks(g1, links, Split::kTest, LinkView::kFeatures);
  BinaryMetrics m2 = EvaluateLinks(g2, links, Split::kTest, LinkView::kFeatures);
  EXPECT_EQ(m1.total(), 2);
  // Group 1 sees only unknown anchors: the prior (1/2) says positive.
  EXPECT_EQ(m1.tp + m1.fp, 2);
  EXPECT_EQ(m2.tp, 1);
  EXPECT_EQ(m2.tn, 1);

  std::vector<PageExample> pages(2);
  pages[0] = {1, Split::kTrain, "u1", "", {"socket", "tcp", "socket"}};
  pages[1] = {0, Split::kTrain, "u2", "", {"template", "vector"}};
  NaiveBayes pm = TrainPageModel(pages, Split::kTrain, {});
  EXPECT_EQ(pm.event_model(), NbEventModel::kMultinomial);
  BinaryMetrics mp = EvaluateLinks(pm, links, Split::kTest, LinkView::kPageWords);
  EXPECT_EQ(mp.tp, 1);
  EXPECT_EQ(mp.tn, 1);
}

}  // namespace
}  // namespace topicrawl
