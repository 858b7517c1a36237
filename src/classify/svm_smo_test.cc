#include "classify/svm_smo.h"

#include <gtest/gtest.h>
#include <libsvm/svm.h>

#include <array>
#include <cmath>
#include <map>
#include <random>

#include "classify/svm_cv_grid.h"
#include "classify/svm_model.h"

namespace topicrawl {
namespace {

// Discrete 2-d data with many repeated vectors and some vectors carrying
// both labels (as URL features do): x in {-1, -0.5, 0, 0.5, 1}^2, label 1
// mostly inside the disc of radius 0.6, 10 % of the labels flipped.
void DiscreteData(int n, uint64_t seed, std::vector<std::vector<double>>* x, std::vector<int>* y) {
  std::mt19937_64 rng(seed);
  for (int i = 0; i < n; ++i) {
    double a = -1 + 0.5 * static_cast<double>(rng() % 5),
           b = -1 + 0.5 * static_cast<double>(rng() % 5);
    int label = a * a + b * b < 0.36 ? 1 : 0;
    if (rng() % 10 == 0) label = 1 - label;
    x->push_back({a, b});
    y->push_back(label);
  }
}

// libsvm's decision value (oriented: > 0 = label 1) on the rows as they are.
std::vector<double> LibsvmDecisions(const std::vector<std::vector<double>>& x,
                                    const std::vector<int>& labels, double c, double gamma,
                                    const std::vector<std::vector<double>>& at) {
  std::vector<std::array<svm_node, 3>> nodes(x.size());
  std::vector<svm_node*> rows;
  std::vector<double> y;
  for (size_t i = 0; i < x.size(); ++i) {
    nodes[i] = {svm_node{1, x[i][0]}, svm_node{2, x[i][1]}, svm_node{-1, 0}};
    rows.push_back(nodes[i].data());
    y.push_back(labels[i]);
  }
  svm_problem prob{static_cast<int>(x.size()), y.data(), rows.data()};
  svm_parameter p{};
  p.svm_type = C_SVC;
  p.kernel_type = RBF;
  p.gamma = gamma;
  p.C = c;
  p.cache_size = 100;
  p.eps = 1e-7;
  p.shrinking = 1;
  svm_set_print_string_function([](const char*) {});
  svm_model* m = svm_train(&prob, &p);
  int l[2];
  svm_get_labels(m, l);
  std::vector<double> out;
  for (const auto& v : at) {
    svm_node q[3] = {{1, v[0]}, {2, v[1]}, {-1, 0}};
    double dec = 0;
    svm_predict_values(m, q, &dec);
    out.push_back(l[0] == 1 ? dec : -dec);
  }
  svm_free_and_destroy_model(&m);
  return out;
}

// The merged problem (one example per distinct (vector, label), bound
// C x multiplicity) has libsvm's decision function on the unmerged rows.
TEST(SmoTest, MergedDuplicatesGiveLibsvmsDecisionFunction) {
  std::vector<std::vector<double>> x;
  std::vector<int> labels;
  DiscreteData(300, 5, &x, &labels);
  std::map<std::pair<std::vector<double>, int>, int> count;
  for (size_t i = 0; i < x.size(); ++i) ++count[{x[i], labels[i]}];
  ASSERT_LT(count.size(), 60u);  // heavy duplication, both labels on some vectors
  std::vector<std::vector<double>> ux;
  std::vector<int8_t> y;
  std::vector<double> mult;
  for (const auto& [key, m] : count) {
    ux.push_back(key.first);
    y.push_back(key.second == 1 ? 1 : -1);
    mult.push_back(m);
  }
  const int n = static_cast<int>(ux.size());
  for (double c : {0.5, 8.0, 128.0}) {
    for (double gamma : {0.25, 2.0}) {
      std::vector<double> k(n * n), upper(n);
      for (int a = 0; a < n; ++a) {
        upper[a] = c * mult[a];
        for (int b = 0; b < n; ++b) {
          double d0 = ux[a][0] - ux[b][0], d1 = ux[a][1] - ux[b][1];
          k[a * n + b] = std::exp(-gamma * (d0 * d0 + d1 * d1));
        }
      }
      SmoResult r = SolveCSvc({n, k.data(), y.data(), upper.data()}, 1e-7, 10000000);
      ASSERT_FALSE(r.hit_iteration_cap);
      std::vector<double> ours(n);
      for (int a = 0; a < n; ++a) {
        double s = -r.rho;
        for (int b = 0; b < n; ++b) s += y[b] * r.alpha[b] * k[a * n + b];
        ours[a] = s;
      }
      std::vector<double> theirs = LibsvmDecisions(x, labels, c, gamma, ux);
      for (int a = 0; a < n; ++a) {
        EXPECT_NEAR(ours[a], theirs[a], 1e-3 * std::max(1.0, std::fabs(theirs[a])))
            << "C " << c << " gamma " << gamma << " vector " << a;
      }
    }
  }
}

TEST(SmoTest, WarmStartReachesTheSameOptimum) {
  std::vector<std::vector<double>> x;
  std::vector<int> labels;
  DiscreteData(200, 9, &x, &labels);
  const int n = static_cast<int>(x.size());
  std::vector<double> k(n * n), lo(n, 1.0), hi(n, 4.0);
  std::vector<int8_t> y(n);
  for (int a = 0; a < n; ++a) {
    y[a] = labels[a] ? 1 : -1;
    for (int b = 0; b < n; ++b) {
      double d0 = x[a][0] - x[b][0], d1 = x[a][1] - x[b][1];
      k[a * n + b] = std::exp(-(d0 * d0 + d1 * d1));
    }
  }
  SmoResult small = SolveCSvc({n, k.data(), y.data(), lo.data()}, 1e-6, 10000000);
  std::vector<double> seed = small.alpha;
  for (double& v : seed) v *= 4;
  SmoResult warm = SolveCSvc({n, k.data(), y.data(), hi.data()}, 1e-6, 10000000, &seed);
  SmoResult cold = SolveCSvc({n, k.data(), y.data(), hi.data()}, 1e-6, 10000000);
  EXPECT_NEAR(warm.rho, cold.rho, 1e-3);
  for (int a = 0; a < n; a += 7) {
    double dw = -warm.rho, dc = -cold.rho;
    for (int b = 0; b < n; ++b) {
      dw += y[b] * warm.alpha[b] * k[a * n + b];
      dc += y[b] * cold.alpha[b] * k[a * n + b];
    }
    EXPECT_NEAR(dw, dc, 1e-3);
  }
}

TEST(SmoTest, IterationCapIsReportedNotHidden) {
  std::vector<std::vector<double>> x;
  std::vector<int> labels;
  DiscreteData(200, 11, &x, &labels);
  const int n = static_cast<int>(x.size());
  std::vector<double> k(n * n), c(n, 1e4);
  std::vector<int8_t> y(n);
  for (int a = 0; a < n; ++a) {
    y[a] = labels[a] ? 1 : -1;
    for (int b = 0; b < n; ++b) {
      double d0 = x[a][0] - x[b][0], d1 = x[a][1] - x[b][1];
      k[a * n + b] = std::exp(-8 * (d0 * d0 + d1 * d1));
    }
  }
  SmoResult r = SolveCSvc({n, k.data(), y.data(), c.data()}, 1e-6, 5);
  EXPECT_TRUE(r.hit_iteration_cap);
  EXPECT_EQ(r.iterations, 5);
}

// The deduplicated grid and one libsvm training per (point, fold) on the
// rows as they are solve the same problems: the same CV accuracy at every
// grid point (to a couple of examples: both stop at eps) and the same choice.
TEST(SvmCvGridTest, DeduplicatedGridAgreesWithLibsvmPerFold) {
  SvmDataset d;
  d.feature_names = {"a", "b"};
  std::vector<std::vector<double>> x;
  std::vector<int> labels;
  DiscreteData(400, 21, &x, &labels);
  for (size_t i = 0; i < x.size(); ++i) d.Add(x[i], labels[i]);
  SvmGridOptions o;
  o.log2c_min = -3, o.log2c_max = 7, o.log2c_step = 2;
  o.log2g_min = -5, o.log2g_max = 3, o.log2g_step = 2;
  o.folds = 5;
  o.max_iterations = 0;  // libsvm's own cap: no early stop
  SvmTrainReport fast, slow;
  o.deduplicate = true;
  ASSERT_TRUE(SvmModel::Train(d, "t", o, &fast).ok());
  o.deduplicate = false;
  ASSERT_TRUE(SvmModel::Train(d, "t", o, &slow).ok());
  EXPECT_EQ(fast.unique_vectors, 25u);
  EXPECT_EQ(fast.cv_capped, 0u);
  ASSERT_EQ(fast.grid.size(), slow.grid.size());
  for (size_t p = 0; p < fast.grid.size(); ++p) {
    EXPECT_NEAR(fast.grid[p].cv_accuracy, slow.grid[p].cv_accuracy, 2.5 / 400)
        << "C 2^" << fast.grid[p].log2c << " gamma 2^" << fast.grid[p].log2g;
  }
  EXPECT_NEAR(fast.best.cv_accuracy, slow.best.cv_accuracy, 2.5 / 400);
}

}  // namespace
}  // namespace topicrawl
