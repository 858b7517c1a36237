// Per-range maxima of Bm25Index's long posting lists, the bounds the tiered
// search uses to drop a candidate without probing the long lists.
//
// Why: at 10^6 vertices the tiered max-score visits ~570 candidates a query
// and ~4 of them are scored (docs/jlse.md). Each candidate used to be
// probed (galloping seeks) in every non-essential list until its partial
// score plus the remaining bounds fell under theta; in lists of 10^5-10^6
// postings every probe is a cache (and TLB) miss. A candidate's term t can
// add at most weight_t * (the largest tf part of t's list among the 64 ids
// around it), which is 0 when t has no posting there and otherwise usually
// the tf = 1 impact instead of the list's maximum. One byte per range keeps
// a long list's maxima at N / 64 bytes (15.6 KB at 10^6 vertices), so the
// ~15 a query reads stay in the L2 cache while the postings do not.
#include <algorithm>
#include <cmath>
#include <vector>

#include "text/bm25_index.h"

namespace topicrawl {

void Bm25Index::BuildRangeMax() {
  const size_t ranges = (doc_len_.size() + (size_t{1} << kRangeShift) - 1) >> kRangeShift;
  const size_t min_postings = std::max<size_t>(1, ranges / kRangeMinShare);
  // Columns by descending list length: a query's common words (the lists a
  // candidate is bounded in most often) share the first cache lines of a row.
  std::vector<PostingList*> long_lists;
  for (int f = 0; f < kBm25Fields; ++f) {
    for (PostingList& list : lists_[f]) {
      list.range_col = -1;
      list.range_step = 0;
      if (list.postings.size() >= min_postings && list.max_impact > 0) long_lists.push_back(&list);
    }
  }
  std::stable_sort(long_lists.begin(), long_lists.end(), [](const PostingList* a, const PostingList* b) {
    return a->postings.size() > b->postings.size();
  });
  range_cols_ = long_lists.size();
  range_table_.assign(ranges * range_cols_, 0);
  for (size_t c = 0; c < long_lists.size(); ++c) {
    PostingList& list = *long_lists[c];
    list.range_col = static_cast<int32_t>(c);
    // q * step >= impact for q = ceil(impact / step), checked (rounding)
    // and raised where needed; step = max / 254 leaves room up to 255.
    const double step = list.max_impact / 254.0;
    list.range_step = step;
    for (size_t i = 0; i < list.postings.size(); ++i) {
      const double imp = list.impact[i];
      double q = std::ceil(imp / step);
      while (q * step < imp) q += 1;
      q = std::max(q, 1.0);  // a posting's range is never 0
      uint8_t& m = range_table_[(list.postings[i].doc >> kRangeShift) * range_cols_ + c];
      m = std::max<uint8_t>(m, static_cast<uint8_t>(std::min(q, 255.0)));
    }
  }
}

bool Bm25Index::RangeBoundsHold() const {
  const size_t ranges = range_cols_ ? range_table_.size() / range_cols_ : 0;
  for (int f = 0; f < kBm25Fields; ++f) {
    for (const PostingList& list : lists_[f]) {
      if (list.range_col < 0) continue;
      std::vector<char> seen(ranges, 0);
      for (size_t i = 0; i < list.postings.size(); ++i) {
        const size_t r = list.postings[i].doc >> kRangeShift;
        if (r >= ranges) return false;
        const double part = DocTfPart(list.postings[i].tf, list.postings[i].doc, f);
        if (RangeQ(list, r) * list.range_step < part) return false;
        seen[r] = 1;
      }
      for (size_t r = 0; r < ranges; ++r) {
        if ((RangeQ(list, r) != 0) != (seen[r] != 0)) return false;
      }
    }
  }
  return true;
}

}  // namespace topicrawl
