// Block-Max WAND top-1 of Bm25Index (Ding & Suel, SIGIR 2011) and the
// block-bound check for tests.
#include <algorithm>
#include <vector>

#include "text/bm25_gallop.h"
#include "text/bm25_index.h"

namespace topicrawl {

using bm25_internal::Gallop;
using bm25_internal::BeatsTop1;
using bm25_internal::kEnd;
using bm25_internal::SumInQueryOrder;

bool Bm25Index::BlockBoundsHold() const {
  if (!finalized_) return true;
  for (int f = 0; f < kBm25Fields; ++f) {
    for (const PostingList& list : lists_[f]) {
      const size_t L = list.postings.size();
      if (list.block_last.size() != (L + kBlockSize - 1) / kBlockSize) return false;
      if (list.block_max.size() != list.block_last.size()) return false;
      for (size_t i = 0; i < L; ++i) {
        const size_t b = i / kBlockSize;
        // The bound must hold for the value a query would compute.
        const double part = DocTfPart(list.postings[i].tf, list.postings[i].doc, f);
        if (part > list.block_max[b] || part > list.max_impact) return false;
        if (list.postings[i].doc > list.block_last[b]) return false;
        if (b > 0 && list.postings[i].doc <= list.block_last[b - 1]) return false;
      }
    }
  }
  return true;
}

double Bm25Index::MeanBlockMaxRatio() const {
  if (!finalized_) return 0;
  double sum = 0;
  size_t blocks = 0;
  for (int f = 0; f < kBm25Fields; ++f) {
    for (const PostingList& list : lists_[f]) {
      if (list.block_max.size() < 2 || list.max_impact <= 0) continue;
      for (double m : list.block_max) sum += m / list.max_impact;
      blocks += list.block_max.size();
    }
  }
  return blocks ? sum / static_cast<double>(blocks) : 0;
}

// Why several lists at once: max-score's candidates are every document of
// its essential lists, and at 10^6 vertices those are ~570 a query of which
// ~4 are scored (docs/strategies/jlse.md). WAND only stops at a document where the
// lists positioned on or before it can together beat theta (the pivot), and
// the block maxima then bound the pivot's neighbourhood much tighter than
// the lists' global maxima: when the blocks that hold the pivot cannot beat
// theta, every document up to the end of the shortest of them is skipped
// unscored.
//
// The pivot and the blocks run over max-score's essential lists only: the
// low-bound lists whose bounds together (R) cannot beat theta stay out of
// the pivot order and count as the constant R. Reason: the common words
// (the host name in every URL) have lists as long as Gw, so their blocks
// span only 64 consecutive vertices; in the pivot order they would cap
// every skip at 64 documents and be galloped at every step (a first
// version with all lists in the order: 312 us at 10^5 against max-score's
// 119). A scored document probes them like max-score, highest bound first,
// with its pruning.
//
// Correctness (top-1, ties to the smallest id). Essential cursors are
// sorted by current document; a document before the pivot's is only in the
// essential lists before the pivot position, whose bounds plus R are <=
// theta, so it cannot beat or tie theta: they jump to the pivot document d.
// Let P = the essential lists whose cursor is <= d. A document x in [d, e],
// e = the smallest last document of P's blocks that contain d, and x < the
// next essential cursor outside P, is only in P's lists (inside the very
// blocks bounded) and the non-essential ones: if R + the block sum <=
// theta none of them can win. Scores are summed in query order from the
// same doubles as BruteForceTop1; a document wins on s > theta, or s ==
// theta with a smaller id than the hit (the threshold seeding may have set
// a larger one). Bounds are compared with theta (1 - 1e-9) so that rounding
// of bound sums never drops a tie.
void Bm25Index::Top1BlockMax(std::vector<QueryTerm>& terms, double theta, Bm25Hit* hit) const {
  const size_t n = terms.size();
  // Bounds from the precomputed impacts (tighter than max tf / min length).
  for (QueryTerm& q : terms) q.bound = q.weight * q.list->max_impact;
  std::sort(terms.begin(), terms.end(),
            [](const QueryTerm& a, const QueryTerm& b) { return a.bound < b.bound; });
  std::vector<double> prefix(n + 1, 0.0);
  for (size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + terms[i].bound;
  struct Cursor {
    const PostingList* list;
    size_t pos;    // current posting
    size_t blk;    // block of the shallow position (<= the block of pos)
    uint32_t doc;  // current document (kEnd when exhausted)
  };
  // Built by push_back from the terms themselves: GCC 12 warned
  // (-Walloc-size-larger-than) on `std::vector<Cursor> cur(n)` here for an
  // n of 2^59 - 1 that its value ranges did not exclude although n =
  // terms.size() (a false positive: the constructor throws length_error
  // above max_size() before it allocates).
  std::vector<Cursor> cur;
  cur.reserve(terms.size());
  for (const QueryTerm& q : terms) {
    const PostingList* l = q.list;
    cur.push_back({l, 0, 0, l->postings.empty() ? kEnd : l->postings[0].doc});
  }
  auto need = [&] { return theta * (1.0 - 1e-9); };
  size_t first = 0;  // first essential term (terms in ascending bound)
  while (first < n && prefix[first + 1] <= need()) ++first;
  // Essential cursor indices by current document (insertion sort: few
  // change per step).
  std::vector<size_t> by_doc;
  for (size_t i = first; i < n; ++i) by_doc.push_back(i);
  auto resort = [&] {
    for (size_t k = 1; k < by_doc.size(); ++k) {
      const size_t v = by_doc[k];
      const uint32_t dv = cur[v].doc;
      size_t j = k;
      while (j > 0 && cur[by_doc[j - 1]].doc > dv) {
        by_doc[j] = by_doc[j - 1];
        --j;
      }
      by_doc[j] = v;
    }
  };
  resort();
  auto advance = [&](Cursor& c, uint32_t target) {
    Gallop(c.list->postings, target, &c.pos, &hit->postings_touched);
    c.doc = c.pos < c.list->postings.size() ? c.list->postings[c.pos].doc : kEnd;
  };
  std::vector<double> contrib(n, 0.0);  // by query order
  while (first < n) {
    const size_t m = by_doc.size();
    // Pivot: the first position where R plus the summed bounds beat theta.
    double acc = prefix[first];
    size_t p = m;
    for (size_t k = 0; k < m; ++k) {
      const size_t i = by_doc[k];
      if (cur[i].doc == kEnd) break;
      acc += terms[i].bound;
      if (acc > need()) {
        p = k;
        break;
      }
    }
    if (p == m) break;  // no document left can beat theta
    ++hit->pivots;
    const uint32_t d = cur[by_doc[p]].doc;
    size_t e = p + 1;  // P = by_doc[0, e): cursors <= d
    while (e < m && cur[by_doc[e]].doc == d) ++e;
    // Shallow moves: each list of P to its block that may hold d.
    double block_sum = prefix[first];
    uint32_t block_end = kEnd;
    for (size_t k = 0; k < e; ++k) {
      const size_t i = by_doc[k];
      Cursor& c = cur[i];
      const auto& last = c.list->block_last;
      c.blk = std::max(c.blk, c.pos / kBlockSize);
      Gallop(last, d, &c.blk, &hit->postings_touched);
      if (c.blk == last.size()) continue;  // no posting >= d: adds nothing
      block_sum += terms[i].weight * c.list->block_max[c.blk];
      block_end = std::min(block_end, last[c.blk]);
    }
    if (block_sum <= need()) {
      // No document in [d, next) can win: skip them all unscored.
      ++hit->blocks_skipped;
      uint32_t next = block_end == kEnd ? kEnd : block_end + 1;
      if (e < m) next = std::min(next, cur[by_doc[e]].doc);
      for (size_t k = 0; k < e; ++k) {
        Cursor& c = cur[by_doc[k]];
        if (c.doc < next) advance(c, next);
      }
      resort();
      continue;
    }
    if (cur[by_doc[0]].doc != d) {
      // Documents before d cannot win: the lists behind it jump to d.
      for (size_t k = 0; k < p; ++k) {
        Cursor& c = cur[by_doc[k]];
        if (c.doc < d) advance(c, d);
      }
      resort();
      continue;
    }
    // Every list of P is on d (the essential lists after P are > d): score
    // it, probing the non-essential lists highest bound first.
    ++hit->candidates;
    std::fill(contrib.begin(), contrib.end(), 0.0);
    double partial = 0;
    for (size_t k = 0; k < e; ++k) {
      const size_t i = by_doc[k];
      Cursor& c = cur[i];
      const double v = terms[i].weight * c.list->impact[c.pos];
      contrib[terms[i].order] = v;
      partial += v;
      ++hit->postings_touched;
      ++c.pos;
      c.doc = c.pos < c.list->postings.size() ? c.list->postings[c.pos].doc : kEnd;
    }
    bool pruned = false;
    for (size_t i = first; i-- > 0;) {
      if (partial + prefix[i + 1] <= need()) {
        pruned = true;
        break;
      }
      Cursor& c = cur[i];
      advance(c, d);
      if (c.doc != d) continue;
      const double v = terms[i].weight * c.list->impact[c.pos];
      contrib[terms[i].order] = v;
      partial += v;
      ++hit->postings_touched;
    }
    if (!pruned) {
      const double s = SumInQueryOrder(contrib);
      ++hit->docs_scored;
      if (BeatsTop1(s, d, theta, hit->doc)) {
        theta = s;
        hit->doc = d;
        hit->score = s;
        const size_t before = first;
        while (first < n && prefix[first + 1] <= need()) ++first;
        if (first != before) {
          by_doc.erase(std::remove_if(by_doc.begin(), by_doc.end(),
                                      [&](size_t i) { return i < first; }),
                       by_doc.end());
        }
      }
    }
    resort();
  }
}

}  // namespace topicrawl
