// The hot loop of SVM prediction, in its own translation unit so that it can
// be compiled with -O3 -ffast-math (vectorised exp from glibc's libmvec)
// without changing the floating-point rules of anything else.
#ifndef TOPICRAWL_CLASSIFY_SVM_KERNEL_H_
#define TOPICRAWL_CLASSIFY_SVM_KERNEL_H_

#include <cstddef>

namespace topicrawl {

// sum_i coef[i] * exp(-gamma * sum_k (x[k] - sv[k * n + i])^2) over the n
// support vectors; sv is dimension-major (n values of dimension 0, then of
// dimension 1, ...), x has `dims` values. Pure; thread-safe.
double RbfKernelSum(const double* x, size_t dims, const double* sv, const double* coef,
                    size_t n, double gamma);

// v[i] = exp(-gamma * v[i]) for i < n: RBF kernel values from squared
// distances (the cross-validation grid's kernel matrices). Pure.
void RbfFromSquaredDistances(double* v, size_t n, double gamma);

}  // namespace topicrawl

#endif  // TOPICRAWL_CLASSIFY_SVM_KERNEL_H_
