#include "classify/svm_cv_grid.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <thread>

#include "classify/svm_kernel.h"
#include "classify/svm_smo.h"

namespace topicrawl {

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
  const size_t d = scaled[0].size();

  // Distinct vectors (exact equality of the scaled doubles).
  std::map<std::vector<double>, uint32_t> ids;
  std::vector<uint32_t> uid(n);
  std::vector<const std::vector<double>*> uvec;
  for (size_t i = 0; i < n; ++i) {
    auto [it, added] = ids.try_emplace(scaled[i], static_cast<uint32_t>(uvec.size()));
    if (added) uvec.push_back(&it->first);
    uid[i] = it->second;
  }
  const size_t U = uvec.size();
  // Squared distances between distinct vectors, once for every gamma.
  std::vector<double> dist(U * U, 0.0);
  for (size_t a = 0; a < U; ++a) {
    for (size_t b = a + 1; b < U; ++b) {
      double s = 0;
      for (size_t k = 0; k < d; ++k) {
        const double t = (*uvec[a])[k] - (*uvec[b])[k];
        s += t * t;
      }
      dist[a * U + b] = dist[b * U + a] = s;
    }
  }
  // Multiplicities: total[u][label] and per fold.
  std::vector<int> total(U * 2, 0), in_fold(U * folds * 2, 0);
  std::vector<std::vector<size_t>> fold_examples(folds);
  for (size_t i = 0; i < n; ++i) {
    ++total[uid[i] * 2 + labels[i]];
    ++in_fold[(uid[i] * folds + fold[i]) * 2 + labels[i]];
    fold_examples[fold[i]].push_back(i);
  }
  // Grid points by gamma, each gamma's C values ascending (warm starts).
  std::map<int, std::vector<std::pair<int, size_t>>> by_gamma;  // log2g -> (log2c, point)
  for (size_t p = 0; p < points.size(); ++p) {
    by_gamma[points[p].second].emplace_back(points[p].first, p);
  }
  std::vector<std::pair<int, std::vector<std::pair<int, size_t>>>> gammas(by_gamma.begin(),
                                                                          by_gamma.end());
  for (auto& g : gammas) std::sort(g.second.begin(), g.second.end());

  std::atomic<int64_t> iterations{0};
  std::atomic<size_t> trainings{0}, capped{0};
  const size_t tasks = gammas.size() * static_cast<size_t>(folds);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    std::vector<double> kf, kh, upper_w, dec_h;
    std::vector<int8_t> y;
    std::vector<uint32_t> train_u, held_u;
    std::vector<int32_t> held_index(U, -1);
    for (size_t t; (t = next.fetch_add(1)) < tasks;) {
      const auto& [log2g, cs] = gammas[t / folds];
      const int k = static_cast<int>(t % folds);
      if (fold_examples[k].empty()) {
        if (on_task) on_task(cs.size());
        continue;
      }
      const double gamma = std::ldexp(1.0, log2g);
      // Training side: one example per (distinct vector, label) outside fold k.
      train_u.clear();
      y.clear();
      upper_w.clear();
      int pos = 0, neg = 0;
      for (uint32_t u = 0; u < U; ++u) {
        for (int label = 1; label >= 0; --label) {
          const int w = total[u * 2 + label] - in_fold[(u * folds + k) * 2 + label];
          if (w <= 0) continue;
          train_u.push_back(u);
          y.push_back(label == 1 ? 1 : -1);
          // The class weight multiplies the bound like the multiplicity
          // does, so warm starts over C stay exact.
          upper_w.push_back(label == 1 ? w * positive_weight : w);
          (label == 1 ? pos : neg) += 1;
        }
      }
      // Held-out side: the distinct vectors of fold k.
      held_u.clear();
      for (size_t i : fold_examples[k]) {
        if (held_index[uid[i]] < 0) {
          held_index[uid[i]] = static_cast<int32_t>(held_u.size());
          held_u.push_back(uid[i]);
        }
      }
      if (pos == 0 || neg == 0) {
        // One class only: libsvm's one-class-label model predicts it.
        for (const auto& [log2c, p] : cs) {
          for (size_t i : fold_examples[k]) dec[p][i] = pos > 0 ? 1.0 : -1.0;
        }
      } else {
        const size_t nf = train_u.size(), nh = held_u.size();
        kf.resize(nf * nf);
        for (size_t a = 0; a < nf; ++a) {
          const double* row = &dist[train_u[a] * U];
          for (size_t b = 0; b < nf; ++b) kf[a * nf + b] = row[train_u[b]];
        }
        RbfFromSquaredDistances(kf.data(), kf.size(), gamma);
        kh.resize(nh * nf);
        for (size_t h = 0; h < nh; ++h) {
          const double* row = &dist[held_u[h] * U];
          for (size_t b = 0; b < nf; ++b) kh[h * nf + b] = row[train_u[b]];
        }
        RbfFromSquaredDistances(kh.data(), kh.size(), gamma);
        std::vector<double> upper(nf), alpha;
        double prev_c = 0;
        for (const auto& [log2c, p] : cs) {
          const double c = std::ldexp(1.0, log2c);
          for (size_t a = 0; a < nf; ++a) upper[a] = c * upper_w[a];
          if (prev_c > 0) {
            // Exact: C steps are powers of two, so a_i <= C_prev w_i scales
            // to a_i' <= C w_i and y'a stays 0.
            for (double& v : alpha) v *= c / prev_c;
          }
          SmoProblem prob{static_cast<int>(nf), kf.data(), y.data(), upper.data()};
          SmoResult r = SolveCSvc(prob, eps, max_iterations, prev_c > 0 ? &alpha : nullptr);
          iterations += r.iterations;
          ++trainings;
          if (r.hit_iteration_cap) ++capped;
          dec_h.assign(nh, -r.rho);
          for (size_t h = 0; h < nh; ++h) {
            const double* row = &kh[h * nf];
            double s = 0;
            for (size_t b = 0; b < nf; ++b) {
              if (r.alpha[b] != 0) s += y[b] * r.alpha[b] * row[b];
            }
            dec_h[h] += s;
          }
          for (size_t i : fold_examples[k]) dec[p][i] = dec_h[held_index[uid[i]]];
          alpha = std::move(r.alpha);
          prev_c = c;
        }
      }
      for (uint32_t u : held_u) held_index[u] = -1;
      if (on_task) on_task(cs.size());
    }
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < std::min<int>(threads, static_cast<int>(tasks)); ++i)
    pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  if (stats) {
    stats->unique_vectors = U;
    stats->trainings = trainings;
    stats->iterations = iterations;
    stats->capped = capped;
  }
  return dec;
}

}  // namespace topicrawl
