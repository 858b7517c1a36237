// The C-SVC dual solver used by the deduplicated cross-validation grid
// (classify/svm_cv_grid.h): libsvm's SMO (Fan, Chen and Lin, "Working set
// selection using second order information for training SVM", JMLR 2005;
// libsvm 3.24 svm.cpp Solver::Solve, select_working_set, calculate_rho),
// written over a dense precomputed kernel matrix, with three additions
// libsvm's C API does not offer:
//   * a box bound per example (C_i = C x multiplicity of a merged duplicate,
//     see svm_cv_grid.h for why that is the same problem),
//   * a warm start (alpha seeding: the solution at C scaled to C' is feasible
//     at C'; the gradient follows in O(n)),
//   * an iteration cap whose hit is reported in the result, not printed.
//
//   min_a  1/2 a' Q a - e' a   s.t.  y' a = 0,  0 <= a_i <= upper_i,
//   Q_ij = y_i y_j K_ij;  decision(x) = sum_i y_i a_i K(x_i, x) - rho.
// y_i = +1 for the positive class (label 1), -1 for label 0; libsvm orients
// by the first label it meets, the decision function is the same up to sign.
// Stopping: libsvm's, m(a) - M(a) < eps on the maximal violating pair.
#ifndef TOPICRAWL_CLASSIFY_SVM_SMO_H_
#define TOPICRAWL_CLASSIFY_SVM_SMO_H_

#include <cstdint>
#include <vector>

namespace topicrawl {

struct SmoProblem {
  int n = 0;
  const double* kernel = nullptr;  // n x n, row-major, symmetric
  const int8_t* y = nullptr;       // +1 / -1
  const double* upper = nullptr;   // per-example bound, > 0
};

struct SmoResult {
  std::vector<double> alpha;
  double rho = 0;
  int64_t iterations = 0;
  bool hit_iteration_cap = false;  // stopped by max_iterations, not by eps
};

// Solves the problem from `alpha0` (feasible: y' alpha0 = 0 and within the
// bounds; nullptr = all zero). REQUIRES: p.n >= 1, both signs present.
SmoResult SolveCSvc(const SmoProblem& p, double eps, int64_t max_iterations,
                    const std::vector<double>* alpha0 = nullptr);

}  // namespace topicrawl

#endif  // TOPICRAWL_CLASSIFY_SVM_SMO_H_
