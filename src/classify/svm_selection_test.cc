// Class weights, F1 selection and the decision threshold of the SVM module
// (SvmGridOptions::class_weight, select, tune_threshold; svm_selection.h).
#include "classify/svm_selection.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <random>

#include "classify/svm_model.h"

namespace topicrawl {
namespace {

TEST(BestThresholdTest, WithoutTuningItIsLibsvmsSign) {
  std::vector<double> dec = {-2, -1, -0.5, 0.5, 1};
  std::vector<int> y = {0, 1, 1, 1, 1};
  CvScore s = BestThreshold(dec, y, SvmSelection::kF1, false);
  EXPECT_EQ(s.threshold, 0);
  EXPECT_DOUBLE_EQ(s.accuracy, 3.0 / 5);        // 2 TP, 1 TN, 2 FN
  EXPECT_DOUBLE_EQ(s.f1, 2.0 * 2 / (2 * 2 + 2));  // 2TP / (2TP + FP + FN)
  EXPECT_DOUBLE_EQ(s.score, s.f1);
}

TEST(BestThresholdTest, FindsTheCutThatMaximisesTheMetric) {
  // Positives sit at -1 .. -0.6: every one is negative at threshold 0.
  std::vector<double> dec = {-3, -2.5, -2, -1, -0.8, -0.6, -1.5};
  std::vector<int> y = {0, 0, 0, 1, 1, 1, 0};
  CvScore f1 = BestThreshold(dec, y, SvmSelection::kF1, true);
  EXPECT_DOUBLE_EQ(f1.f1, 1.0);
  EXPECT_DOUBLE_EQ(f1.accuracy, 1.0);
  EXPECT_DOUBLE_EQ(f1.threshold, -1.25);  // midpoint of -1.5 and -1
  EXPECT_EQ(ScoreAt(dec, y, f1.threshold, SvmSelection::kF1).f1, 1.0);
  EXPECT_EQ(BestThreshold(dec, y, SvmSelection::kF1, false).f1, 0.0);
}

TEST(BestThresholdTest, TiesGoToTheThresholdNearestZeroAndRunsAreNotSplit) {
  // Any cut in (-1, 2) separates the classes: 0 lies in it, so 0 is kept.
  std::vector<double> dec = {-3, -1, 2, 3};
  std::vector<int> y = {0, 0, 1, 1};
  EXPECT_EQ(BestThreshold(dec, y, SvmSelection::kAccuracy, true).threshold, 0);
  // Equal values with both labels cannot be split by any threshold.
  std::vector<double> same = {1, 1, 1, 1};
  std::vector<int> mixed = {1, 0, 1, 0};
  CvScore s = BestThreshold(same, mixed, SvmSelection::kF1, true);
  EXPECT_DOUBLE_EQ(s.f1, 2.0 * 2 / (2 * 2 + 2));  // all positive: 2 TP, 2 FP
  EXPECT_LT(s.threshold, 1);
}

// An imbalanced set: 6 % positives in a 2-D cloud that overlaps the
// negatives (positives shifted by 1.2 sd), raw range not [-1, 1].
SvmDataset Imbalanced(int n, uint64_t seed) {
  SvmDataset d;
  d.feature_names = {"a", "b"};
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g(0, 1);
  for (int i = 0; i < n; ++i) {
    int label = i % 16 == 0 ? 1 : 0;
    double shift = label ? 1.2 : 0;
    d.Add({10 + 3 * (g(rng) + shift), -5 + 2 * (g(rng) + shift)}, label);
  }
  return d;
}

struct Counts {
  int predicted_pos = 0, tp = 0, pos = 0;
  double recall() const { return pos ? static_cast<double>(tp) / pos : 0; }
};
Counts Evaluate(const SvmModel& m, const SvmDataset& d) {
  Counts c;
  for (size_t i = 0; i < d.size(); ++i) {
    int p = m.Predict(d.rows[i]);
    c.predicted_pos += p;
    c.pos += d.labels[i];
    c.tp += p && d.labels[i];
  }
  return c;
}

SvmGridOptions Fixed() {
  SvmGridOptions o;
  o.folds = 5;
  o.threads = 1;
  return o;
}

TEST(SvmClassWeightTest, InverseFrequencyWeightPredictsTheSmallClass) {
  SvmDataset train = Imbalanced(480, 3), test = Imbalanced(480, 4);
  SvmGridOptions plain = Fixed(), weighted = Fixed();
  weighted.class_weight = SvmClassWeight::kInverseFrequency;
  auto a = SvmModel::TrainAt(train, "imb", 0, 0, plain);
  auto b = SvmModel::TrainAt(train, "imb", 0, 0, weighted);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->positive_weight(), 1);
  EXPECT_DOUBLE_EQ(b->positive_weight(), 450.0 / 30.0);
  Counts ca = Evaluate(*a, test), cb = Evaluate(*b, test);
  // Unweighted, the machine calls (almost) everything negative; weighted,
  // it predicts the positive class and finds most of it.
  EXPECT_LT(ca.recall(), 0.3) << ca.predicted_pos;
  EXPECT_GT(cb.recall(), 0.5) << cb.predicted_pos;
  std::printf("unweighted: %d predicted, recall %.3f; weighted: %d predicted, recall %.3f\n",
              ca.predicted_pos, ca.recall(), cb.predicted_pos, cb.recall());
  EXPECT_GT(cb.predicted_pos, 2 * ca.predicted_pos + 5);
}

TEST(SvmClassWeightTest, BothCrossValidationEnginesApplyTheWeight) {
  SvmDataset d = Imbalanced(320, 5);
  SvmGridOptions o = Fixed();
  o.class_weight = SvmClassWeight::kInverseFrequency;
  o.log2c_min = -1, o.log2c_max = 3, o.log2g_min = -3, o.log2g_max = 1;
  SvmTrainReport dedup, libsvm;
  ASSERT_TRUE(SvmModel::Train(d, "imb", o, &dedup).ok());
  o.deduplicate = false;
  ASSERT_TRUE(SvmModel::Train(d, "imb", o, &libsvm).ok());
  ASSERT_EQ(dedup.grid.size(), libsvm.grid.size());
  for (size_t p = 0; p < dedup.grid.size(); ++p) {
    EXPECT_NEAR(dedup.grid[p].cv_accuracy, libsvm.grid[p].cv_accuracy, 2.5 / d.size()) << p;
  }
}

TEST(SvmSelectionTest, F1SelectionAndTheTunedThresholdRaiseCvF1) {
  SvmDataset d = Imbalanced(480, 7);
  SvmGridOptions acc = Fixed();
  acc.log2c_min = -3, acc.log2c_max = 5, acc.log2c_step = 4;
  acc.log2g_min = -5, acc.log2g_max = 1, acc.log2g_step = 3;
  SvmGridOptions f1 = acc;
  f1.select = SvmSelection::kF1;
  SvmGridOptions tuned = f1;
  tuned.tune_threshold = true;
  SvmTrainReport ra, rf, rt;
  ASSERT_TRUE(SvmModel::Train(d, "imb", acc, &ra).ok());
  ASSERT_TRUE(SvmModel::Train(d, "imb", f1, &rf).ok());
  auto mt = SvmModel::Train(d, "imb", tuned, &rt);
  ASSERT_TRUE(mt.ok());
  // The same out-of-fold values, different criteria: F1 selection picks the
  // grid's best CV F1, the threshold can only add to it.
  double max_f1 = 0;
  for (const auto& g : rf.grid) max_f1 = std::max(max_f1, g.cv_f1);
  EXPECT_EQ(rf.best.cv_f1, max_f1);
  EXPECT_GE(rf.best.cv_f1, ra.best.cv_f1);
  EXPECT_GE(rt.best.cv_f1, rf.best.cv_f1);
  EXPECT_GT(rt.best.cv_f1, ra.best.cv_f1);
  EXPECT_EQ(ra.best.threshold, 0);
  // The chosen threshold is the model's, and Predict uses it.
  EXPECT_EQ(mt->threshold(), rt.best.threshold);
  EXPECT_NE(mt->threshold(), 0);
  for (size_t i = 0; i < d.size(); ++i) {
    EXPECT_EQ(mt->Predict(d.rows[i]), mt->Decision(d.rows[i]) > mt->threshold() ? 1 : 0);
  }
  // ... and survives the model file.
  auto back = SvmModel::Parse(mt->Serialize(), "imb");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->threshold(), mt->threshold());
  EXPECT_EQ(back->positive_weight(), mt->positive_weight());
}

}  // namespace
}  // namespace topicrawl

namespace topicrawl {
namespace {

TEST(GroupFoldsTest, EveryGroupInOneFoldAndFoldsBalanced) {
  std::vector<uint32_t> groups;
  const int sizes[] = {40, 5, 30, 12, 8, 25, 3, 17};
  for (uint32_t g = 0; g < 8; ++g) groups.insert(groups.end(), sizes[g], g * 10 + 7);
  auto fold = GroupFolds(groups, 3, 1);
  EXPECT_EQ(fold, GroupFolds(groups, 3, 1));
  std::vector<int> fold_of_group(100, -1), rows(3, 0);
  for (size_t i = 0; i < groups.size(); ++i) {
    ASSERT_GE(fold[i], 0);
    ASSERT_LT(fold[i], 3);
    if (fold_of_group[groups[i]] < 0) fold_of_group[groups[i]] = fold[i];
    EXPECT_EQ(fold_of_group[groups[i]], fold[i]) << "group " << groups[i] << " split";
    ++rows[fold[i]];
  }
  // 140 rows, largest first into the smallest fold: 46-47 each.
  for (int r : rows) EXPECT_NEAR(r, 140 / 3.0, 2.0);
  // More folds than groups: one fold per group.
  auto two = GroupFolds({5, 5, 9, 9, 9}, 10, 1);
  EXPECT_EQ(*std::max_element(two.begin(), two.end()), 1);
  EXPECT_NE(two[0], two[2]);
}

// Two groups whose positives sit in different places: row folds see both
// groups in training and score well; group folds score a group with a model
// of the other one, which is what a test split by group measures.
TEST(GroupFoldsTest, CrossValidationByGroupScoresUnseenGroups) {
  SvmDataset d;
  d.feature_names = {"a"};
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 200; ++i) {
    const uint32_t g = i % 2;
    const int label = i % 4 < 2 ? 1 : 0;
    // group 0: positives near 0.2, negatives near 0.8; group 1: reversed.
    double centre = (label == 1) == (g == 0) ? 0.2 : 0.8;
    d.Add({centre + 0.1 * (u(rng) - 0.5)}, label);
    d.groups.push_back(g);
  }
  SvmGridOptions o;
  o.folds = 5;
  o.threads = 1;
  SvmTrainReport rows, grouped;
  ASSERT_TRUE(SvmModel::TrainAt(d, "g", 0, 0, o, &rows).ok());
  o.group_folds = true;
  ASSERT_TRUE(SvmModel::TrainAt(d, "g", 0, 0, o, &grouped).ok());
  EXPECT_EQ(grouped.folds, 2);
  EXPECT_LT(grouped.best.cv_accuracy, 0.2);  // the other group's rule is the reverse
  EXPECT_GT(rows.best.cv_accuracy, 0.4);
  // Without groups, or with one group, group folds are refused.
  SvmDataset one = d;
  std::fill(one.groups.begin(), one.groups.end(), 0);
  EXPECT_FALSE(SvmModel::TrainAt(one, "g", 0, 0, o).ok());
  one.groups.clear();
  EXPECT_FALSE(SvmModel::TrainAt(one, "g", 0, 0, o).ok());
  one.groups = {1, 2};
  EXPECT_FALSE(one.Validate().ok());
}

}  // namespace
}  // namespace topicrawl
