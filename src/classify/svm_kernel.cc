#include "classify/svm_kernel.h"

#include <cmath>

namespace topicrawl {

double RbfKernelSum(const double* x, size_t dims, const double* sv, const double* coef,
                    size_t n, double gamma) {
  // Blocks of support vectors: distances first (vectorised across support
  // vectors), then one exp pass over the block (libmvec under -ffast-math).
  constexpr size_t kBlock = 256;
  double dist[kBlock];
  double sum = 0;
  for (size_t start = 0; start < n; start += kBlock) {
    const size_t m = n - start < kBlock ? n - start : kBlock;
    for (size_t i = 0; i < m; ++i) dist[i] = 0;
    for (size_t k = 0; k < dims; ++k) {
      const double xk = x[k];
      const double* s = sv + k * n + start;
      for (size_t i = 0; i < m; ++i) {
        const double diff = xk - s[i];
        dist[i] += diff * diff;
      }
    }
    const double* c = coef + start;
    for (size_t i = 0; i < m; ++i) sum += c[i] * std::exp(-gamma * dist[i]);
  }
  return sum;
}

void RbfFromSquaredDistances(double* v, size_t n, double gamma) {
  for (size_t i = 0; i < n; ++i) v[i] = std::exp(-gamma * v[i]);
}

}  // namespace topicrawl
