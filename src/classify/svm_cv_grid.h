// libsvm's (C, gamma) grid with k-fold cross-validation, made fast for data
// whose scaled feature vectors repeat (URL features are discrete: on 2,000
// URLs of the dev web, 1,266 distinct vectors: docs/strategies/hub-svm.md). Internal to
// classify/svm_model.cc (SvmGridOptions::deduplicate).
//
// Equivalence with training libsvm on the rows as they are (why merging is
// allowed): in the C-SVC primal min 1/2|w|^2 + C sum_i xi_i, m examples with
// the same scaled vector x and the same label have the same constraint
// y (w.phi(x) + b) >= 1 - xi, so at the optimum their xi are equal and they
// contribute m C xi: the problem equals one example with the bound m C. In
// the dual, only the sum of their alphas enters the objective and the
// equality constraint, and that sum ranges over [0, m C]. So one weighted
// example (box bound m C) has the same optimal decision function; the same
// vector with both labels stays two examples (one per label). The solver
// (svm_smo.h) is libsvm's SMO with the same stopping rule (eps), so the
// decision values agree to the solvers' tolerance (tested against libsvm).
//
// Speed: the kernel of the distinct vectors is built once per (gamma, fold)
// and shared by every C of that fold; C runs from small to large with the
// previous solution scaled by C'/C as the start (alpha seeding); tasks are
// (gamma, fold) pairs spread over `threads` threads, each writing only its
// own slots, so the result does not depend on the thread count.
#ifndef TOPICRAWL_CLASSIFY_SVM_CV_GRID_H_
#define TOPICRAWL_CLASSIFY_SVM_CV_GRID_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace topicrawl {

struct CvGridStats {
  size_t unique_vectors = 0;  // distinct scaled vectors (labels ignored)
  size_t trainings = 0;       // (grid point, fold) solves
  int64_t iterations = 0;     // SMO iterations over all solves
  size_t capped = 0;          // solves stopped by the iteration cap
};

// Out-of-fold decision values dec[p][i] (> 0 = label 1) of every grid point
// p = (log2c, log2g) for every example i. on_task(fits) is called after
// each (gamma, fold) task with the (point, fold) fits it made (any thread,
// not serialised). `scaled` are the scaled rows,
// `fold` the fold of each example (0..folds-1). positive_weight multiplies
// the bound of label-1 examples (libsvm's -w1). max_iterations is per solve.
std::vector<std::vector<double>> DeduplicatedGridCv(const std::vector<std::vector<double>>& scaled,
                                                    const std::vector<int>& labels,
                                                    const std::vector<int>& fold, int folds,
                                                    const std::vector<std::pair<int, int>>& points,
                                                    double positive_weight, double eps, int64_t max_iterations, int threads,
                                                    CvGridStats* stats,
                                                    const std::function<void(size_t)>& on_task = {});

}  // namespace topicrawl

#endif  // TOPICRAWL_CLASSIFY_SVM_CV_GRID_H_
