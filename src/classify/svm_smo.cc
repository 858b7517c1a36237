#include "classify/svm_smo.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace topicrawl {
namespace {

constexpr double kTau = 1e-12;  // libsvm's TAU: floor of a non-positive curvature
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

SmoResult SolveCSvc(const SmoProblem& p, double eps, int64_t max_iterations,
                    const std::vector<double>* alpha0) {
  const int n = p.n;
  const double* K = p.kernel;
  const int8_t* y = p.y;
  const double* C = p.upper;
  SmoResult r;
  std::vector<double>& a = r.alpha;
  a.assign(n, 0.0);
  if (alpha0 != nullptr) a = *alpha0;
  auto row = [&](int i) { return K + static_cast<size_t>(i) * n; };
  // Bound status, as libsvm keeps it (exact comparisons: clipping assigns
  // the bound itself).
  auto upper = [&](int i) { return a[i] >= C[i]; };
  auto lower = [&](int i) { return a[i] <= 0; };
  // G_k = (Q a)_k - 1, for the examples in `active` (all of them here).
  std::vector<double> G(n);
  auto gradient = [&](const std::vector<int>& which) {
    for (int k : which) G[k] = -1.0;
    for (int i = 0; i < n; ++i) {
      if (a[i] == 0) continue;
      const double* Ki = row(i);
      const double s = a[i] * y[i];
      for (int k : which) G[k] += s * y[k] * Ki[k];
    }
  };
  std::vector<int> active(n);
  for (int i = 0; i < n; ++i) active[i] = i;
  gradient(active);

  // Shrinking (libsvm's do_shrinking): every min(n, 1000) iterations the
  // examples at a bound whose gradient says they will stay there leave the
  // active set; their gradient is rebuilt from the kernel (all of it is in
  // memory) before the optimality check that ends the solve, and once when
  // the violation first falls below 10 eps ("unshrink").
  bool unshrunk = false;
  int counter = std::min(n, 1000);
  auto reconstruct = [&] {
    if (static_cast<int>(active.size()) == n) return;
    std::vector<char> in(n, 0);
    for (int k : active) in[k] = 1;
    std::vector<int> rest;
    for (int k = 0; k < n; ++k) {
      if (!in[k]) rest.push_back(k);
    }
    gradient(rest);
    active.resize(n);
    for (int i = 0; i < n; ++i) active[i] = i;
  };
  auto shrink = [&] {
    double g1 = -kInf, g2 = -kInf;  // max -y G over I_up, max y G over I_low
    for (int t : active) {
      if (y[t] == +1) {
        if (!upper(t)) g1 = std::max(g1, -G[t]);
        if (!lower(t)) g2 = std::max(g2, G[t]);
      } else {
        if (!upper(t)) g2 = std::max(g2, -G[t]);
        if (!lower(t)) g1 = std::max(g1, G[t]);
      }
    }
    if (!unshrunk && g1 + g2 <= eps * 10) {
      unshrunk = true;
      reconstruct();
    }
    auto be_shrunk = [&](int t) {
      if (upper(t)) return y[t] == +1 ? -G[t] > g1 : -G[t] > g2;
      if (lower(t)) return y[t] == +1 ? G[t] > g2 : G[t] > g1;
      return false;
    };
    size_t keep = 0;
    for (int t : active) {
      if (!be_shrunk(t)) active[keep++] = t;
    }
    active.resize(keep);
  };

  // select_working_set (WSS 3 of Fan, Chen and Lin 2005) over the active
  // set; false when the active set is optimal to eps.
  int i = -1, j = -1;
  auto select = [&] {
    double gmax = -kInf, gmax2 = -kInf;
    i = -1;
    for (int t : active) {
      if (y[t] == +1) {
        if (!upper(t) && -G[t] >= gmax) gmax = -G[t], i = t;
      } else {
        if (!lower(t) && G[t] >= gmax) gmax = G[t], i = t;
      }
    }
    j = -1;
    double obj_min = kInf;
    const double* Ki = i >= 0 ? row(i) : nullptr;
    for (int t : active) {
      if (y[t] == +1) {
        if (!lower(t)) {
          const double grad_diff = gmax + G[t];
          if (G[t] >= gmax2) gmax2 = G[t];
          if (grad_diff > 0 && Ki != nullptr) {
            // Q_ii + Q_tt - 2 y_i Q_it, with Q_it = y_i y_t K_it.
            const double quad = Ki[i] + row(t)[t] - 2.0 * y[t] * Ki[t];
            const double obj = -(grad_diff * grad_diff) / (quad > 0 ? quad : kTau);
            if (obj <= obj_min) j = t, obj_min = obj;
          }
        }
      } else {
        if (!upper(t)) {
          const double grad_diff = gmax - G[t];
          if (-G[t] >= gmax2) gmax2 = -G[t];
          if (grad_diff > 0 && Ki != nullptr) {
            const double quad = Ki[i] + row(t)[t] + 2.0 * y[t] * Ki[t];
            const double obj = -(grad_diff * grad_diff) / (quad > 0 ? quad : kTau);
            if (obj <= obj_min) j = t, obj_min = obj;
          }
        }
      }
    }
    return !(gmax + gmax2 < eps || j == -1);
  };

  while (true) {
    if (r.iterations >= max_iterations) {
      r.hit_iteration_cap = true;
      reconstruct();
      break;
    }
    if (--counter == 0) {
      counter = std::min(n, 1000);
      shrink();
    }
    if (!select()) {
      // Optimal on the active set; on all examples only if nothing was
      // shrunk, else rebuild the gradient and check every example.
      if (static_cast<int>(active.size()) == n) break;
      reconstruct();
      if (!select()) break;
      counter = 1;  // shrink again after this step
    }
    ++r.iterations;

    // Update alpha_i, alpha_j (libsvm's analytic two-variable step with
    // per-example bounds C_i, C_j).
    const double* Ki = row(i);
    const double* Kj = row(j);
    const double Qij = y[i] * y[j] * Ki[j];
    const double Qii = Ki[i], Qjj = Kj[j];
    const double Ci = C[i], Cj = C[j];
    const double old_ai = a[i], old_aj = a[j];
    if (y[i] != y[j]) {
      double quad = Qii + Qjj + 2 * Qij;
      if (quad <= 0) quad = kTau;
      const double delta = (-G[i] - G[j]) / quad;
      const double diff = a[i] - a[j];
      a[i] += delta;
      a[j] += delta;
      if (diff > 0) {
        if (a[j] < 0) a[j] = 0, a[i] = diff;
      } else {
        if (a[i] < 0) a[i] = 0, a[j] = -diff;
      }
      if (diff > Ci - Cj) {
        if (a[i] > Ci) a[i] = Ci, a[j] = Ci - diff;
      } else {
        if (a[j] > Cj) a[j] = Cj, a[i] = Cj + diff;
      }
    } else {
      double quad = Qii + Qjj - 2 * Qij;
      if (quad <= 0) quad = kTau;
      const double delta = (G[i] - G[j]) / quad;
      const double sum = a[i] + a[j];
      a[i] -= delta;
      a[j] += delta;
      if (sum > Ci) {
        if (a[i] > Ci) a[i] = Ci, a[j] = sum - Ci;
      } else {
        if (a[j] < 0) a[j] = 0, a[i] = sum;
      }
      if (sum > Cj) {
        if (a[j] > Cj) a[j] = Cj, a[i] = sum - Cj;
      } else {
        if (a[i] < 0) a[i] = 0, a[j] = sum;
      }
    }
    // G_k += Q_ki d_i + Q_kj d_j over the active set, Q_ki = y_k y_i K_ki.
    const double di = (a[i] - old_ai) * y[i], dj = (a[j] - old_aj) * y[j];
    for (int k : active) G[k] += y[k] * (Ki[k] * di + Kj[k] * dj);
  }

  // calculate_rho
  double ub = kInf, lb = -kInf, sum_free = 0;
  int nr_free = 0;
  for (int t = 0; t < n; ++t) {
    const double yG = y[t] * G[t];
    if (upper(t)) {
      if (y[t] == -1)
        ub = std::min(ub, yG);
      else
        lb = std::max(lb, yG);
    } else if (lower(t)) {
      if (y[t] == +1)
        ub = std::min(ub, yG);
      else
        lb = std::max(lb, yG);
    } else {
      ++nr_free;
      sum_free += yG;
    }
  }
  r.rho = nr_free > 0 ? sum_free / nr_free : (ub + lb) / 2;
  return r;
}

}  // namespace topicrawl
