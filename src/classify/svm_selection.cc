#include "classify/svm_selection.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace topicrawl {
namespace {

CvScore Make(double threshold, size_t tp, size_t fp, size_t pos, size_t n, SvmSelection select) {
  CvScore s;
  s.threshold = threshold;
  const size_t neg = n - pos, tn = neg - fp;
  s.accuracy = n ? static_cast<double>(tp + tn) / n : 0;
  const size_t denom = 2 * tp + fp + (pos - tp);
  s.f1 = denom ? 2.0 * tp / denom : 0;
  s.score = select == SvmSelection::kF1 ? s.f1 : s.accuracy;
  return s;
}

bool Better(const CvScore& a, const CvScore& b) {
  if (a.score != b.score) return a.score > b.score;
  return std::fabs(a.threshold) < std::fabs(b.threshold);
}

}  // namespace

CvScore ScoreAt(const std::vector<double>& dec, const std::vector<int>& labels, double threshold,
                SvmSelection select) {
  size_t tp = 0, fp = 0, pos = 0;
  for (size_t i = 0; i < dec.size(); ++i) {
    pos += labels[i] == 1;
    if (dec[i] > threshold) (labels[i] == 1 ? tp : fp) += 1;
  }
  return Make(threshold, tp, fp, pos, dec.size(), select);
}

CvScore BestThreshold(const std::vector<double>& dec, const std::vector<int>& labels,
                      SvmSelection select, bool tune) {
  if (!tune || dec.empty()) return ScoreAt(dec, labels, 0, select);
  const size_t n = dec.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return dec[a] > dec[b]; });
  size_t pos = 0;
  for (int y : labels) pos += y == 1;
  // Cut 0: nothing predicted positive (threshold at the largest value, or 0
  // when that is above it).
  const double top = dec[order[0]];
  CvScore best = Make(top <= 0 ? 0.0 : top, 0, 0, pos, n, select);
  size_t tp = 0, fp = 0;
  for (size_t j = 0; j < n;) {
    // Take the whole run of equal values: a threshold cannot split it.
    const double v = dec[order[j]];
    for (; j < n && dec[order[j]] == v; ++j) (labels[order[j]] == 1 ? tp : fp) += 1;
    double t;
    if (j < n) {
      const double lo = dec[order[j]];  // next smaller value: the cut is in [lo, v)
      t = (lo <= 0 && 0 < v) ? 0.0 : lo + (v - lo) / 2;
      if (!(t >= lo && t < v)) t = lo;  // midpoint rounded onto v
    } else {
      t = v > 0 ? 0.0 : v - 1;  // everything positive
    }
    CvScore s = Make(t, tp, fp, pos, n, select);
    if (Better(s, best)) best = s;
  }
  return best;
}

}  // namespace topicrawl
