#include "classify/svm_cv_grid.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <thread>

#include "classify/svm_kernel.h"
#include "classify/svm_smo.h"

namespace topicrawl {
namespace {

// The examples as distinct scaled vectors (exact equality of the doubles):
// uid[i] is example i's vector, dist the squared distances between the
// `count` distinct vectors (count x count), computed once for every gamma.
struct DistinctGridRows {
  std::vector<uint32_t> uid;
  size_t count = 0;
  std::vector<double> dist;
};

DistinctGridRows IndexDistinctGridRows(const std::vector<std::vector<double>>& scaled) {
  const size_t n = scaled.size();
  const size_t d = scaled[0].size();
  DistinctGridRows rows;
  std::map<std::vector<double>, uint32_t> ids;
  rows.uid.resize(n);
  std::vector<const std::vector<double>*> uvec;
  for (size_t i = 0; i < n; ++i) {
    auto [it, added] = ids.try_emplace(scaled[i], static_cast<uint32_t>(uvec.size()));
    if (added) uvec.push_back(&it->first);
    rows.uid[i] = it->second;
  }
  const size_t U = uvec.size();
  rows.count = U;
  rows.dist.assign(U * U, 0.0);
  for (size_t a = 0; a < U; ++a) {
    for (size_t b = a + 1; b < U; ++b) {
      double s = 0;
      for (size_t k = 0; k < d; ++k) {
        const double t = (*uvec[a])[k] - (*uvec[b])[k];
        s += t * t;
      }
      rows.dist[a * U + b] = rows.dist[b * U + a] = s;
    }
  }
  return rows;
}

// How often each (distinct vector, label) occurs, in total and per fold,
// and the examples of each fold.
struct GridMultiplicities {
  std::vector<int> total;    // [u * 2 + label]
  std::vector<int> in_fold;  // [(u * folds + k) * 2 + label]
  std::vector<std::vector<size_t>> fold_examples;
};

GridMultiplicities CountGridMultiplicities(const DistinctGridRows& rows,
                                           const std::vector<int>& labels,
                                           const std::vector<int>& fold, int folds) {
  GridMultiplicities m;
  m.total.assign(rows.count * 2, 0);
  m.in_fold.assign(rows.count * folds * 2, 0);
  m.fold_examples.resize(folds);
  for (size_t i = 0; i < rows.uid.size(); ++i) {
    ++m.total[rows.uid[i] * 2 + labels[i]];
    ++m.in_fold[(rows.uid[i] * folds + fold[i]) * 2 + labels[i]];
    m.fold_examples[fold[i]].push_back(i);
  }
  return m;
}

// (log2g, its (log2c, point index) pairs with C ascending): ascending C is
// what lets each solve start from the previous one (warm starts).
using GridPointsByGamma = std::vector<std::pair<int, std::vector<std::pair<int, size_t>>>>;

GridPointsByGamma GroupGridPointsByGamma(const std::vector<std::pair<int, int>>& points) {
  std::map<int, std::vector<std::pair<int, size_t>>> by_gamma;
  for (size_t p = 0; p < points.size(); ++p) {
    by_gamma[points[p].second].emplace_back(points[p].first, p);
  }
  GridPointsByGamma gammas(by_gamma.begin(), by_gamma.end());
  for (auto& g : gammas) std::sort(g.second.begin(), g.second.end());
  return gammas;
}

struct GridCvCounters {
  std::atomic<int64_t> iterations{0};
  std::atomic<size_t> trainings{0}, capped{0};
};

// One worker's (gamma, fold) tasks: builds the merged training problem of
// the rows outside the fold, solves it for every C of the gamma and writes
// the fold's decision values. The buffers are reused across tasks.
class GridFoldSolver {
 public:
  GridFoldSolver(const DistinctGridRows& rows, const GridMultiplicities& m, int folds,
                 double positive_weight, double eps, int64_t max_iterations,
                 GridCvCounters* counters, std::vector<std::vector<double>>* dec)
      : rows_(rows), m_(m), folds_(folds), positive_weight_(positive_weight), eps_(eps),
        max_iterations_(max_iterations), counters_(counters), dec_(*dec),
        held_index_(rows.count, -1) {}

  // Decision values of fold k's examples at every (log2c, point) of `cs`
  // (C ascending) with gamma 2^log2g.
  void Run(int log2g, const std::vector<std::pair<int, size_t>>& cs, int k) {
    if (m_.fold_examples[k].empty()) return;
    const double gamma = std::ldexp(1.0, log2g);
    int pos = 0, neg = 0;
    CollectTrainingSide(k, &pos, &neg);
    CollectHeldOutSide(k);
    if (pos == 0 || neg == 0) {
      // One class only: libsvm's one-class-label model predicts it.
      for (const auto& [log2c, p] : cs) {
        for (size_t i : m_.fold_examples[k]) dec_[p][i] = pos > 0 ? 1.0 : -1.0;
      }
    } else {
      FillKernels(gamma);
      SolveAscendingC(cs, k);
    }
    for (uint32_t u : held_u_) held_index_[u] = -1;
  }

 private:
  // One example per (distinct vector, label) outside fold k, its bound
  // weight its multiplicity there.
  void CollectTrainingSide(int k, int* pos, int* neg) {
    train_u_.clear();
    y_.clear();
    upper_w_.clear();
    for (uint32_t u = 0; u < rows_.count; ++u) {
      for (int label = 1; label >= 0; --label) {
        const int w = m_.total[u * 2 + label] - m_.in_fold[(u * folds_ + k) * 2 + label];
        if (w <= 0) continue;
        train_u_.push_back(u);
        y_.push_back(label == 1 ? 1 : -1);
        // The class weight multiplies the bound like the multiplicity
        // does, so warm starts over C stay exact.
        upper_w_.push_back(label == 1 ? w * positive_weight_ : w);
        (label == 1 ? *pos : *neg) += 1;
      }
    }
  }

  // The distinct vectors of fold k, and where each of its examples finds
  // its vector among them (held_index_).
  void CollectHeldOutSide(int k) {
    held_u_.clear();
    for (size_t i : m_.fold_examples[k]) {
      const uint32_t u = rows_.uid[i];
      if (held_index_[u] < 0) {
        held_index_[u] = static_cast<int32_t>(held_u_.size());
        held_u_.push_back(u);
      }
    }
  }

  // Training kernel kf_ (nf x nf) and held-out kernel kh_ (nh x nf).
  void FillKernels(double gamma) {
    const size_t U = rows_.count;
    const size_t nf = train_u_.size(), nh = held_u_.size();
    kf_.resize(nf * nf);
    for (size_t a = 0; a < nf; ++a) {
      const double* row = &rows_.dist[train_u_[a] * U];
      for (size_t b = 0; b < nf; ++b) kf_[a * nf + b] = row[train_u_[b]];
    }
    RbfFromSquaredDistances(kf_.data(), kf_.size(), gamma);
    kh_.resize(nh * nf);
    for (size_t h = 0; h < nh; ++h) {
      const double* row = &rows_.dist[held_u_[h] * U];
      for (size_t b = 0; b < nf; ++b) kh_[h * nf + b] = row[train_u_[b]];
    }
    RbfFromSquaredDistances(kh_.data(), kh_.size(), gamma);
  }

  void SolveAscendingC(const std::vector<std::pair<int, size_t>>& cs, int k) {
    const size_t nf = train_u_.size();
    std::vector<double> upper(nf), alpha;
    double prev_c = 0;
    for (const auto& [log2c, p] : cs) {
      const double c = std::ldexp(1.0, log2c);
      for (size_t a = 0; a < nf; ++a) upper[a] = c * upper_w_[a];
      if (prev_c > 0) {
        // Exact: C steps are powers of two, so a_i <= C_prev w_i scales
        // to a_i' <= C w_i and y'a stays 0.
        for (double& v : alpha) v *= c / prev_c;
      }
      SmoProblem prob{static_cast<int>(nf), kf_.data(), y_.data(), upper.data()};
      SmoResult r = SolveCSvc(prob, eps_, max_iterations_, prev_c > 0 ? &alpha : nullptr);
      counters_->iterations += r.iterations;
      ++counters_->trainings;
      if (r.hit_iteration_cap) ++counters_->capped;
      WriteHeldOutDecisions(r, p, k);
      alpha = std::move(r.alpha);
      prev_c = c;
    }
  }

  // dec(x) = sum_b y_b a_b K(x, x_b) - rho for each held-out vector, copied
  // to the fold's examples at point p.
  void WriteHeldOutDecisions(const SmoResult& r, size_t p, int k) {
    const size_t nf = train_u_.size(), nh = held_u_.size();
    dec_h_.assign(nh, -r.rho);
    for (size_t h = 0; h < nh; ++h) {
      const double* row = &kh_[h * nf];
      double s = 0;
      for (size_t b = 0; b < nf; ++b) {
        if (r.alpha[b] != 0) s += y_[b] * r.alpha[b] * row[b];
      }
      dec_h_[h] += s;
    }
    for (size_t i : m_.fold_examples[k]) dec_[p][i] = dec_h_[held_index_[rows_.uid[i]]];
  }

  const DistinctGridRows& rows_;
  const GridMultiplicities& m_;
  const int folds_;
  const double positive_weight_, eps_;
  const int64_t max_iterations_;
  GridCvCounters* const counters_;
  std::vector<std::vector<double>>& dec_;  // each task writes only its own slots
  std::vector<double> kf_, kh_, upper_w_, dec_h_;
  std::vector<int8_t> y_;
  std::vector<uint32_t> train_u_, held_u_;
  std::vector<int32_t> held_index_;  // distinct vector -> index in held_u_, or -1
};

}  // namespace

std::vector<std::vector<double>> DeduplicatedGridCv(const std::vector<std::vector<double>>& scaled,
                                                    const std::vector<int>& labels,
                                                    const std::vector<int>& fold, int folds,
                                                    const std::vector<std::pair<int, int>>& points,
                                                    double positive_weight, double eps, int64_t max_iterations, int threads,
                                                    CvGridStats* stats,
                                                    const std::function<void(size_t)>& on_task) {
  const size_t n = scaled.size();
  std::vector<std::vector<double>> dec(points.size(), std::vector<double>(n, 0.0));
  if (n == 0 || points.empty()) return dec;
  const DistinctGridRows rows = IndexDistinctGridRows(scaled);
  const GridMultiplicities m = CountGridMultiplicities(rows, labels, fold, folds);
  const GridPointsByGamma gammas = GroupGridPointsByGamma(points);

  GridCvCounters counters;
  const size_t tasks = gammas.size() * static_cast<size_t>(folds);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    GridFoldSolver solver(rows, m, folds, positive_weight, eps, max_iterations, &counters, &dec);
    for (size_t t; (t = next.fetch_add(1)) < tasks;) {
      const auto& [log2g, cs] = gammas[t / folds];
      solver.Run(log2g, cs, static_cast<int>(t % folds));
      if (on_task) on_task(cs.size());
    }
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < std::min<int>(threads, static_cast<int>(tasks)); ++i)
    pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  if (stats) {
    stats->unique_vectors = rows.count;
    stats->trainings = counters.trainings;
    stats->iterations = counters.iterations;
    stats->capped = counters.capped;
  }
  return dec;
}

}  // namespace topicrawl
