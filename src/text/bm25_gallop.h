// Internal helpers of the BM25 index's searches (bm25_index.cc):
// galloping search over document-sorted arrays, a
// candidate's score and the top-1 rule. Not a public interface.
#ifndef TOPICRAWL_TEXT_BM25_GALLOP_H_
#define TOPICRAWL_TEXT_BM25_GALLOP_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace topicrawl::bm25_internal {

constexpr uint32_t kEnd = std::numeric_limits<uint32_t>::max();

inline uint32_t DocOf(uint32_t d) { return d; }
template <typename P>
uint32_t DocOf(const P& p) { return p.doc; }

// First posting of `p` at or after *at with doc >= target, by galloping
// from *at (targets only grow): O(log distance), not O(log |p|).
template <typename P>
void Gallop(const std::vector<P>& p, uint32_t target, size_t* at, int64_t* touched) {
  size_t lo = *at, hi = *at, step = 1;
  while (hi < p.size() && DocOf(p[hi]) < target) {
    lo = hi + 1;
    hi += step;
    step *= 2;
    ++*touched;
  }
  hi = std::min(hi, p.size());
  *at = static_cast<size_t>(
      std::lower_bound(p.begin() + static_cast<std::ptrdiff_t>(lo),
                       p.begin() + static_cast<std::ptrdiff_t>(hi), target,
                       [](const P& a, uint32_t d) { return DocOf(a) < d; }) -
      p.begin());
}

// A candidate's score: its per-term contributions (0 for absent terms)
// summed in query order, the order of every search and of BruteForceTop1,
// so the same document gets the same double on every path and a tie is
// decided on the id alone.
inline double SumInQueryOrder(const std::vector<double>& contrib) {
  double s = 0;
  for (double c : contrib) {
    if (c != 0.0) s += c;
  }
  return s;
}

// The top-1 rule: a higher score wins; an equal score goes to the smaller
// id. `best` is -1 while there is no hit yet (theta is then the threshold).
inline bool BeatsTop1(double s, uint32_t d, double theta, int64_t best) {
  return s > theta || (s == theta && best >= 0 && static_cast<int64_t>(d) < best);
}

}  // namespace topicrawl::bm25_internal

#endif  // TOPICRAWL_TEXT_BM25_GALLOP_H_
