#include "classify/svm_model.h"

#include <gtest/gtest.h>
#include <libsvm/svm.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/hash.h"

namespace topicrawl {
namespace {

// Two concentric rings in a raw range of [0, 100] x [0, 100] (so scaling
// matters): class 1 inside radius 15 around (50, 50), class 0 on radius
// 35..45. Separable by an RBF machine, not by a linear one.
SvmDataset Rings(int n, uint64_t seed) {
  SvmDataset d;
  d.feature_names = {"x", "y"};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < n; ++i) {
    int label = i % 3 == 0 ? 1 : 0;
    double r = label ? 15 * u(rng) : 35 + 10 * u(rng);
    double a = 2 * M_PI * u(rng);
    d.Add({50 + r * std::cos(a), 50 + r * std::sin(a)}, label);
  }
  return d;
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("svm_model_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(FeatureScalerTest, MapsTrainingRangeToMinusOneOne) {
  std::vector<std::vector<double>> rows = {{0, 10, 5}, {4, 30, 5}, {2, 20, 5}};
  FeatureScaler s = FeatureScaler::Fit(rows, 3);
  EXPECT_DOUBLE_EQ(s.Scale(0, 0), -1);
  EXPECT_DOUBLE_EQ(s.Scale(0, 4), 1);
  EXPECT_DOUBLE_EQ(s.Scale(0, 2), 0);
  EXPECT_DOUBLE_EQ(s.Scale(1, 30), 1);
  EXPECT_DOUBLE_EQ(s.Scale(1, 40), 2);  // beyond the training range: extrapolated
  EXPECT_DOUBLE_EQ(s.Scale(2, 5), 0);   // constant feature
  EXPECT_DOUBLE_EQ(s.Scale(2, 7), 0);
}

TEST(FeatureScalerTest, RoundTrip) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1000, 1000);
  std::vector<std::vector<double>> rows(50, std::vector<double>(4));
  for (auto& r : rows)
    for (auto& v : r) v = u(rng);
  FeatureScaler s = FeatureScaler::Fit(rows, 4);
  for (const auto& r : rows) {
    for (size_t k = 0; k < 4; ++k) {
      double x = s.Scale(k, r[k]);
      EXPECT_GE(x, -1 - 1e-12);
      EXPECT_LE(x, 1 + 1e-12);
      EXPECT_NEAR(s.Unscale(k, x), r[k], 1e-9);
    }
  }
}

TEST(StratifiedFoldsTest, BalancedAndDeterministic) {
  std::vector<int> labels;
  for (int i = 0; i < 103; ++i) labels.push_back(i % 4 == 0);
  auto a = StratifiedFolds(labels, 10, 3);
  EXPECT_EQ(a, StratifiedFolds(labels, 10, 3));
  EXPECT_NE(a, StratifiedFolds(labels, 10, 4));
  int per_fold[10][2] = {};
  for (size_t i = 0; i < labels.size(); ++i) ++per_fold[a[i]][labels[i]];
  for (auto& f : per_fold) {
    EXPECT_GE(f[1], 2);  // 26 positives over 10 folds
    EXPECT_LE(f[1], 3);
    EXPECT_GE(f[0] + f[1], 10);
    EXPECT_LE(f[0] + f[1], 11);
  }
}

TEST(PlattTest, MonotoneAndOriented) {
  std::vector<double> dec;
  std::vector<int> y;
  for (int i = -50; i <= 50; ++i) {
    dec.push_back(i / 10.0);
    y.push_back(i > 5 || (i > -10 && i % 3 == 0));
  }
  auto [a, b] = FitPlattSigmoid(dec, y);
  EXPECT_LT(a, 0);  // larger decision value -> more likely positive
  auto p = [&](double f) { return 1 / (1 + std::exp(a * f + b)); };
  EXPECT_LT(p(-3), 0.1);
  EXPECT_GT(p(3), 0.9);
}

// The grid's budget: cross-validation on a stratified sample of
// grid_sample rows, the final fit on every row; progress reports every
// (point, fold) fit, then the final fit, for both engines.
TEST(SvmModelTest, GridCrossValidatesASampleAndReportsProgress) {
  SvmDataset d = Rings(300, 3);  // 100 positive, 200 negative
  for (bool dedup : {true, false}) {
    SvmGridOptions o;
    o.log2c_min = -1, o.log2c_max = 3, o.log2c_step = 2;  // 3 x 2 points
    o.log2g_min = -1, o.log2g_max = 1, o.log2g_step = 2;
    o.folds = 4;
    o.grid_sample = 60;
    o.deduplicate = dedup;
    std::vector<SvmGridProgress> seen;
    o.progress = [&seen](const SvmGridProgress& p) { seen.push_back(p); };
    SvmTrainReport rep;
    auto m = SvmModel::Train(d, "rings", o, &rep);
    ASSERT_TRUE(m.ok()) << m.status().message();
    EXPECT_EQ(rep.grid_rows, 60u);  // 20 positive + 40 negative
    EXPECT_EQ(rep.examples, 300u);
    EXPECT_EQ(m->train_examples(), 300u);
    ASSERT_FALSE(seen.empty());
    for (size_t i = 0; i + 1 < seen.size(); ++i) {
      EXPECT_FALSE(seen[i].final_fit);
      EXPECT_EQ(seen[i].total, 6u * 4u);
      EXPECT_EQ(seen[i].rows, 60u);
      if (i > 0) {
        EXPECT_GT(seen[i].done, seen[i - 1].done);
      }
    }
    EXPECT_EQ(seen[seen.size() - 2].done, 24u);
    EXPECT_TRUE(seen.back().final_fit);
    // The sample is enough for the rings: the full-data model separates
    // fresh points.
    SvmDataset t = Rings(90, 4);
    int right = 0;
    for (size_t i = 0; i < t.size(); ++i) right += m->Predict(t.rows[i]) == t.labels[i];
    EXPECT_GE(right, 85) << dedup;
  }
  // grid_sample 0 (or above the rows): every row.
  SvmGridOptions all;
  all.log2c_min = all.log2c_max = 1;
  all.log2g_min = all.log2g_max = 0;
  all.grid_sample = 0;
  SvmTrainReport rep;
  ASSERT_TRUE(SvmModel::Train(d, "rings", all, &rep).ok());
  EXPECT_EQ(rep.grid_rows, 300u);
}

TEST(SvmModelTest, GridSearchFindsTheSeparatingOptimum) {
  SvmDataset d = Rings(150, 1);
  SvmGridOptions o;  // libsvm's grid: 11 x 10 points, 10 folds
  SvmTrainReport rep;
  auto m = SvmModel::Train(d, "rings", o, &rep);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(rep.grid.size(), 110u);
  EXPECT_EQ(rep.folds, 10);
  // The known optimum: the rings are separable, so the best CV accuracy is
  // 1, and the tie rule picks the smallest C reaching it.
  double max_acc = 0;
  int min_c = 100;
  for (const auto& g : rep.grid) max_acc = std::max(max_acc, g.cv_accuracy);
  for (const auto& g : rep.grid)
    if (g.cv_accuracy == max_acc) min_c = std::min(min_c, g.log2c);
  EXPECT_DOUBLE_EQ(max_acc, 1.0);
  EXPECT_DOUBLE_EQ(rep.best.cv_accuracy, 1.0);
  EXPECT_EQ(rep.best.log2c, min_c);
  // A nearly linear kernel (tiny gamma) with tiny C cannot do it: the grid
  // really discriminated between points.
  EXPECT_LT(rep.grid.front().cv_accuracy, 0.8);
  EXPECT_DOUBLE_EQ(m->c(), std::ldexp(1.0, rep.best.log2c));
  EXPECT_DOUBLE_EQ(m->gamma(), std::ldexp(1.0, rep.best.log2g));

  // Fresh points from the same distribution.
  SvmDataset t = Rings(90, 2);
  int right = 0;
  for (size_t i = 0; i < t.size(); ++i) right += m->Predict(t.rows[i]) == t.labels[i];
  EXPECT_GE(right, 87);
  EXPECT_GT(m->Probability(std::vector<double>{50, 50}), 0.8);
  EXPECT_LT(m->Probability(std::vector<double>{50, 90}), 0.2);
}

TEST(SvmModelTest, DenseDecisionMatchesLibsvm) {
  SvmDataset d = Rings(90, 3);
  SvmGridOptions o;
  auto m = SvmModel::TrainAt(d, "rings", 3, -1, o);
  ASSERT_TRUE(m.ok()) << m.status().message();
  // libsvm itself on the same scaled data and parameters.
  std::vector<std::array<svm_node, 3>> nodes(d.size());
  std::vector<svm_node*> x;
  std::vector<double> y;
  for (size_t i = 0; i < d.size(); ++i) {
    nodes[i] = {svm_node{1, m->scaler().Scale(0, d.rows[i][0])},
                svm_node{2, m->scaler().Scale(1, d.rows[i][1])}, svm_node{-1, 0}};
    x.push_back(nodes[i].data());
    y.push_back(d.labels[i]);
  }
  svm_problem prob{static_cast<int>(d.size()), y.data(), x.data()};
  svm_parameter p{};
  p.svm_type = C_SVC;
  p.kernel_type = RBF;
  p.gamma = 0.5;
  p.C = 8;
  p.cache_size = 100;
  p.eps = 1e-3;
  p.shrinking = 1;
  svm_model* lm = svm_train(&prob, &p);
  int labels[2];
  svm_get_labels(lm, labels);
  EXPECT_EQ(static_cast<size_t>(svm_get_nr_sv(lm)), m->support_vectors());
  for (size_t i = 0; i < d.size(); ++i) {
    double dec = 0;
    svm_predict_values(lm, x[i], &dec);
    if (labels[0] != 1) dec = -dec;
    EXPECT_NEAR(m->Decision(d.rows[i]), dec, 1e-9);
  }
  svm_free_and_destroy_model(&lm);
}

TEST(SvmModelTest, DeterministicAcrossThreadCounts) {
  SvmDataset d = Rings(80, 4);
  SvmGridOptions o;
  o.log2c_max = 5;
  o.threads = 1;
  auto a = SvmModel::Train(d, "rings", o);
  o.threads = 2;
  auto b = SvmModel::Train(d, "rings", o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->Serialize(), b->Serialize());
}

TEST(SvmModelTest, SaveLoadGivesIdenticalPredictions) {
  SvmDataset d = Rings(120, 5);
  SvmGridOptions o;
  o.log2c_max = 7;
  auto m = SvmModel::Train(d, "rings", o);
  ASSERT_TRUE(m.ok()) << m.status().message();
  std::string path = TempPath("model");
  ASSERT_TRUE(m->Save(path).ok());
  auto back = SvmModel::Load(path, "rings");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->Serialize(), m->Serialize());
  EXPECT_EQ(back->feature_names(), d.feature_names);
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(-20, 120);
  for (int i = 0; i < 500; ++i) {
    std::vector<double> x = {u(rng), u(rng)};
    EXPECT_EQ(back->Decision(x), m->Decision(x));  // bit-identical
    EXPECT_EQ(back->Probability(x), m->Probability(x));
  }
  EXPECT_TRUE(back->CheckFeatures({"x", "y"}).ok());
  EXPECT_FALSE(back->CheckFeatures({"y", "x"}).ok());
  std::remove(path.c_str());
}

class SvmModelFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SvmDataset d = Rings(60, 6);
    SvmGridOptions o;
    o.log2c_max = 1;
    o.log2g_max = -1;
    auto m = SvmModel::Train(d, "rings", o);
    ASSERT_TRUE(m.ok());
    text_ = m->Serialize();
  }
  // Re-signs an edited body so that only the content check can refuse it.
  static std::string Resign(const std::string& text) {
    size_t last = text.rfind("checksum ");
    std::string body = text.substr(0, last);
    return body + "checksum " + Hash64Hex(body) + "\n";
  }
  std::string text_;
};

TEST_F(SvmModelFileTest, RefusesTruncatedFile) {
  for (size_t n : {size_t{0}, size_t{10}, text_.size() / 2, text_.size() - 3}) {
    auto m = SvmModel::Parse(text_.substr(0, n), "rings", "m.svm");
    ASSERT_FALSE(m.ok()) << n;
    EXPECT_NE(m.status().message().find("m.svm"), std::string::npos);
  }
}

TEST_F(SvmModelFileTest, RefusesFlippedByte) {
  std::string t = text_;
  t[t.size() / 2] ^= 0x01;
  auto m = SvmModel::Parse(t, "rings", "m.svm");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("checksum"), std::string::npos);
}

TEST_F(SvmModelFileTest, RefusesForeignFiles) {
  auto libsvm = SvmModel::Parse("svm_type c_svc\nkernel_type rbf\ngamma 0.5\n", "", "x.model");
  ASSERT_FALSE(libsvm.ok());
  EXPECT_NE(libsvm.status().message().find("not a topicrawl SVM model"), std::string::npos);
  auto json = SvmModel::Parse("{\"type\": \"nb\"}", "", "nb.json");
  EXPECT_FALSE(json.ok());
  auto other_kind = SvmModel::Parse(text_, "hub-url", "m.svm");
  ASSERT_FALSE(other_kind.ok());
  EXPECT_NE(other_kind.status().message().find("'rings' model, expected 'hub-url'"),
            std::string::npos);
  auto missing = SvmModel::Load("/nonexistent/dir/model.svm", "rings");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/dir/model.svm"), std::string::npos);
}

TEST_F(SvmModelFileTest, RefusesBadContentWithValidChecksum) {
  auto edit = [&](const std::string& from, const std::string& to) {
    std::string t = text_;
    size_t p = t.find(from);
    EXPECT_NE(p, std::string::npos) << from;
    t.replace(p, from.size(), to);
    return SvmModel::Parse(Resign(t), "", "m.svm");
  };
  auto v3 = edit("topicrawl-svm-model 2", "topicrawl-svm-model 3");
  ASSERT_FALSE(v3.ok());
  EXPECT_NE(v3.status().message().find("version 3"), std::string::npos);
  EXPECT_FALSE(edit("\nweight ", "\nweight -").ok());
  EXPECT_FALSE(edit("\nthreshold ", "\nthreshold x").ok());
  auto nan = edit("\ngamma ", "\ngamma nan");
  ASSERT_FALSE(nan.ok());
  EXPECT_NE(nan.status().message().find("line"), std::string::npos);
  EXPECT_FALSE(edit("features 2", "features 3").ok());
  EXPECT_FALSE(edit("features 2", "features 99999999999").ok());
  EXPECT_FALSE(edit("\nsv ", "\nsv 9").ok());
  EXPECT_FALSE(edit("\nrho ", "\nrho  ").ok());
}

// A version-1 file (before class weights and thresholds) still loads, as
// weight 1 and threshold 0, and predicts what the version-2 file predicts.
TEST_F(SvmModelFileTest, ReadsVersionOneFiles) {
  std::string t = text_;
  t.replace(t.find("topicrawl-svm-model 2"), 21, "topicrawl-svm-model 1");
  for (const char* key : {"\nweight ", "\nthreshold "}) {
    size_t p = t.find(key);
    ASSERT_NE(p, std::string::npos);
    t.erase(p, t.find('\n', p + 1) - p);
  }
  auto v1 = SvmModel::Parse(Resign(t), "rings", "m.svm");
  ASSERT_TRUE(v1.ok()) << v1.status().message();
  auto v2 = SvmModel::Parse(text_, "rings", "m.svm");
  ASSERT_TRUE(v2.ok());
  EXPECT_EQ(v1->threshold(), 0);
  EXPECT_EQ(v1->positive_weight(), 1);
  for (double x = 0; x <= 100; x += 10) {
    std::vector<double> raw = {x, 100 - x};
    EXPECT_EQ(v1->Decision(raw), v2->Decision(raw));
    EXPECT_EQ(v1->Predict(raw), v2->Predict(raw));
  }
  // An unknown version-1 line where version 2 has its weight is refused.
  auto broken = SvmModel::Parse(Resign(t).replace(0, 21, "topicrawl-svm-model 2"), "rings", "m.svm");
  EXPECT_FALSE(broken.ok());
}

TEST_F(SvmModelFileTest, RandomMutationsNeverCrash) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 300; ++i) {
    std::string t = text_;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t p = rng() % t.size();
      switch (rng() % 3) {
        case 0: t[p] = static_cast<char>(rng()); break;
        case 1: t.erase(p, rng() % 20); break;
        default: t.insert(p, std::string(1 + rng() % 5, "0123456789 .-\nx"[rng() % 15]));
      }
      if (t.empty()) t = "x";
    }
    auto m = SvmModel::Parse(rng() % 2 ? Resign(t) : t, "", "m.svm");
    if (m.ok()) {
      double v = m->Decision(std::vector<double>(m->feature_names().size(), 1.0));
      (void)v;
    }
  }
}

TEST(SvmModelTest, RefusesUntrainableData) {
  SvmDataset one_class;
  one_class.feature_names = {"a"};
  for (int i = 0; i < 10; ++i) one_class.Add({double(i)}, 1);
  auto m = SvmModel::Train(one_class, "k", SvmGridOptions{});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("2 examples of each class"), std::string::npos);

  SvmDataset ragged;
  ragged.feature_names = {"a", "b"};
  ragged.Add({1, 2}, 1);
  ragged.Add({1}, 0);
  EXPECT_FALSE(SvmModel::Train(ragged, "k", SvmGridOptions{}).ok());

  SvmDataset bad_name;
  bad_name.feature_names = {"a b"};
  EXPECT_FALSE(bad_name.Validate().ok());
}

}  // namespace
}  // namespace topicrawl
