#include "classify/svm_smo.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace topicrawl {
namespace {

constexpr double kTau = 1e-12;  // libsvm's TAU: floor of a non-positive curvature
constexpr double kInf = std::numeric_limits<double>::infinity();

// libsvm's Solver over a dense kernel: the alphas, the gradient
// G_k = (Q a)_k - 1 and the active set that shrinking reduces. Bound status
// is read as libsvm keeps it (exact comparisons: clipping assigns the bound
// itself).
class CSvcSmoSolver {
 public:
  CSvcSmoSolver(const SmoProblem& p, double eps, const std::vector<double>* alpha0)
      : n_(p.n), K_(p.kernel), y_(p.y), C_(p.upper), eps_(eps), G_(p.n), active_(p.n) {
    a_.assign(n_, 0.0);
    if (alpha0 != nullptr) a_ = *alpha0;
    for (int i = 0; i < n_; ++i) active_[i] = i;
    AddGradient(active_);
  }

  // SMO steps until the working-set selection finds every example optimal
  // to eps, or until max_iterations steps (r->hit_iteration_cap).
  void Run(int64_t max_iterations, SmoResult* r);
  // libsvm's calculate_rho over all examples.
  double Rho() const;
  std::vector<double> TakeAlpha() { return std::move(a_); }

 private:
  const double* Row(int i) const { return K_ + static_cast<size_t>(i) * n_; }
  bool AtUpper(int i) const { return a_[i] >= C_[i]; }
  bool AtLower(int i) const { return a_[i] <= 0; }
  bool AllActive() const { return static_cast<int>(active_.size()) == n_; }

  void AddGradient(const std::vector<int>& which);
  void ReconstructGradient();
  void Shrink();
  bool SelectWorkingSet();
  void StepPair();
  void UpdateGradient(double old_ai, double old_aj);

  const int n_;
  const double* const K_;
  const int8_t* const y_;
  const double* const C_;
  const double eps_;
  std::vector<double> a_;
  std::vector<double> G_;
  std::vector<int> active_;
  bool unshrunk_ = false;
  int i_ = -1, j_ = -1;  // the working set SelectWorkingSet() chose
};

// Sets G_k = (Q a)_k - 1 for the examples in `which`.
void CSvcSmoSolver::AddGradient(const std::vector<int>& which) {
  for (int k : which) G_[k] = -1.0;
  for (int i = 0; i < n_; ++i) {
    if (a_[i] == 0) continue;
    const double* Ki = Row(i);
    const double s = a_[i] * y_[i];
    for (int k : which) G_[k] += s * y_[k] * Ki[k];
  }
}

// The shrunk examples' gradient is stale; all of the kernel is in memory,
// so it is rebuilt from it, and every example becomes active again.
void CSvcSmoSolver::ReconstructGradient() {
  if (AllActive()) return;
  std::vector<char> in(n_, 0);
  for (int k : active_) in[k] = 1;
  std::vector<int> rest;
  for (int k = 0; k < n_; ++k) {
    if (!in[k]) rest.push_back(k);
  }
  AddGradient(rest);
  active_.resize(n_);
  for (int i = 0; i < n_; ++i) active_[i] = i;
}

// libsvm's do_shrinking: the examples at a bound whose gradient says they
// will stay there leave the active set; the first time the violation falls
// below 10 eps, the gradient is rebuilt first ("unshrink").
void CSvcSmoSolver::Shrink() {
  double g1 = -kInf, g2 = -kInf;  // max -y G over I_up, max y G over I_low
  for (int t : active_) {
    if (y_[t] == +1) {
      if (!AtUpper(t)) g1 = std::max(g1, -G_[t]);
      if (!AtLower(t)) g2 = std::max(g2, G_[t]);
    } else {
      if (!AtUpper(t)) g2 = std::max(g2, -G_[t]);
      if (!AtLower(t)) g1 = std::max(g1, G_[t]);
    }
  }
  if (!unshrunk_ && g1 + g2 <= eps_ * 10) {
    unshrunk_ = true;
    ReconstructGradient();
  }
  auto be_shrunk = [&](int t) {
    if (AtUpper(t)) return y_[t] == +1 ? -G_[t] > g1 : -G_[t] > g2;
    if (AtLower(t)) return y_[t] == +1 ? G_[t] > g2 : G_[t] > g1;
    return false;
  };
  size_t keep = 0;
  for (int t : active_) {
    if (!be_shrunk(t)) active_[keep++] = t;
  }
  active_.resize(keep);
}

// select_working_set (WSS 3 of Fan, Chen and Lin 2005) over the active set;
// false when the active set is optimal to eps.
bool CSvcSmoSolver::SelectWorkingSet() {
  double gmax = -kInf, gmax2 = -kInf;
  i_ = -1;
  for (int t : active_) {
    if (y_[t] == +1) {
      if (!AtUpper(t) && -G_[t] >= gmax) gmax = -G_[t], i_ = t;
    } else {
      if (!AtLower(t) && G_[t] >= gmax) gmax = G_[t], i_ = t;
    }
  }
  j_ = -1;
  double obj_min = kInf;
  const double* Ki = i_ >= 0 ? Row(i_) : nullptr;
  for (int t : active_) {
    if (y_[t] == +1) {
      if (!AtLower(t)) {
        const double grad_diff = gmax + G_[t];
        if (G_[t] >= gmax2) gmax2 = G_[t];
        if (grad_diff > 0 && Ki != nullptr) {
          // Q_ii + Q_tt - 2 y_i Q_it, with Q_it = y_i y_t K_it.
          const double quad = Ki[i_] + Row(t)[t] - 2.0 * y_[t] * Ki[t];
          const double obj = -(grad_diff * grad_diff) / (quad > 0 ? quad : kTau);
          if (obj <= obj_min) j_ = t, obj_min = obj;
        }
      }
    } else {
      if (!AtUpper(t)) {
        const double grad_diff = gmax - G_[t];
        if (-G_[t] >= gmax2) gmax2 = -G_[t];
        if (grad_diff > 0 && Ki != nullptr) {
          const double quad = Ki[i_] + Row(t)[t] + 2.0 * y_[t] * Ki[t];
          const double obj = -(grad_diff * grad_diff) / (quad > 0 ? quad : kTau);
          if (obj <= obj_min) j_ = t, obj_min = obj;
        }
      }
    }
  }
  return !(gmax + gmax2 < eps_ || j_ == -1);
}

// libsvm's analytic two-variable step on alpha_i, alpha_j, clipped to the
// per-example bounds C_i, C_j.
void CSvcSmoSolver::StepPair() {
  const int i = i_, j = j_;
  std::vector<double>& a = a_;
  const double* Ki = Row(i);
  const double* Kj = Row(j);
  const double Qij = y_[i] * y_[j] * Ki[j];
  const double Qii = Ki[i], Qjj = Kj[j];
  const double Ci = C_[i], Cj = C_[j];
  if (y_[i] != y_[j]) {
    double quad = Qii + Qjj + 2 * Qij;
    if (quad <= 0) quad = kTau;
    const double delta = (-G_[i] - G_[j]) / quad;
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
    const double delta = (G_[i] - G_[j]) / quad;
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
}

// G_k += Q_ki d_i + Q_kj d_j over the active set, Q_ki = y_k y_i K_ki.
void CSvcSmoSolver::UpdateGradient(double old_ai, double old_aj) {
  const int i = i_, j = j_;
  const double* Ki = Row(i);
  const double* Kj = Row(j);
  const double di = (a_[i] - old_ai) * y_[i], dj = (a_[j] - old_aj) * y_[j];
  for (int k : active_) G_[k] += y_[k] * (Ki[k] * di + Kj[k] * dj);
}

void CSvcSmoSolver::Run(int64_t max_iterations, SmoResult* r) {
  // Shrinking every min(n, 1000) iterations, as libsvm does.
  int counter = std::min(n_, 1000);
  while (true) {
    if (r->iterations >= max_iterations) {
      r->hit_iteration_cap = true;
      ReconstructGradient();
      return;
    }
    if (--counter == 0) {
      counter = std::min(n_, 1000);
      Shrink();
    }
    if (!SelectWorkingSet()) {
      // Optimal on the active set; on all examples only if nothing was
      // shrunk, else rebuild the gradient and check every example.
      if (AllActive()) return;
      ReconstructGradient();
      if (!SelectWorkingSet()) return;
      counter = 1;  // shrink again after this step
    }
    ++r->iterations;
    const double old_ai = a_[i_], old_aj = a_[j_];
    StepPair();
    UpdateGradient(old_ai, old_aj);
  }
}

double CSvcSmoSolver::Rho() const {
  double ub = kInf, lb = -kInf, sum_free = 0;
  int nr_free = 0;
  for (int t = 0; t < n_; ++t) {
    const double yG = y_[t] * G_[t];
    if (AtUpper(t)) {
      if (y_[t] == -1)
        ub = std::min(ub, yG);
      else
        lb = std::max(lb, yG);
    } else if (AtLower(t)) {
      if (y_[t] == +1)
        ub = std::min(ub, yG);
      else
        lb = std::max(lb, yG);
    } else {
      ++nr_free;
      sum_free += yG;
    }
  }
  return nr_free > 0 ? sum_free / nr_free : (ub + lb) / 2;
}

}  // namespace

SmoResult SolveCSvc(const SmoProblem& p, double eps, int64_t max_iterations,
                    const std::vector<double>* alpha0) {
  CSvcSmoSolver solver(p, eps, alpha0);
  SmoResult r;
  solver.Run(max_iterations, &r);
  r.rho = solver.Rho();
  r.alpha = solver.TakeAlpha();
  return r;
}

}  // namespace topicrawl
