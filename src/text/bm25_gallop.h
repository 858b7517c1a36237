// Internal helper of the BM25 index (bm25_index.cc, bm25_block_max.cc):
// galloping search over document-sorted arrays. Not a public interface.
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

}  // namespace topicrawl::bm25_internal

#endif  // TOPICRAWL_TEXT_BM25_GALLOP_H_
