// A three-field BM25 index over the vertices of seed 004's web link graph Gw
// (004_d65f8d41b01a9f7d §3.2.1-3.2.2, eq. 5-8), with a sublinear top-1
// lookup.
//
// Every document (Gw vertex) and every query (a new link) has three fields,
// f = 0 anchor text, 1 URL string, 2 context (DOM text within delta). Per
// field, the seed's eq. 5:
//
//   sim_f(q, d) = sum_{t in q_f} idf_f(t) * tf(t,d_f) (k1 + 1)
//                                 / (tf(t,d_f) + k1 (1 - b + b |d_f| / avgdl_f))
//   idf_f(t)    = ln(1 + (N - n_f(t) + 0.5) / (n_f(t) + 0.5))
//
// (the "+1" keeps idf positive for terms in more than half of the documents,
// as Lucene does; the seed's eq. 6 is the classic Robertson form, which goes
// negative there and would break the top-1 upper bounds:
// Bm25Params::robertson_idf selects it, floored at 0). A query term that
// occurs qtf times counts qtf times. The vertex score is the weighted sum
// (eq. 8), s(q, d) = sum_f w_f sim_f(q, d), w = (0.5, 0.2, 0.3), k1 = 2,
// b = 0.75.
//
// Normalisation to [0, 1] (the seed needs s_j * Q(v_j) comparable with
// sim_anchor, but does not say how): s_j / s(q, q), the score the query
// would get against a document identical to itself (its own field lengths
// and term counts, same N, n(t) and avgdl; terms no document has count with
// n(t) = 0), clamped to 1. A vertex that repeats the query exactly scores 1;
// a query sharing only common words (the host name) with Gw scores near 0.
//
// Top-1 lookup (Top1): max-score (Turtle & Flood 1995) over per-(field,
// term) posting lists sorted by document id. Each list keeps max tf and min
// document length, which give an upper bound of its contribution valid for
// any avgdl. Query terms are ordered by bound; the low-bound terms whose
// bounds together cannot beat the best score so far are "non-essential":
// only documents of the essential (rare, high-idf) lists are candidates, the
// others are probed by galloping search for those candidates only, and a
// candidate is dropped as soon as its partial score plus the remaining
// bounds cannot win. A query then costs about the postings of its rare
// terms plus a few log-time probes of the common ones, not |Gw|
// (bench/jlse_bench). Ties go to the smallest document id; Top1 returns
// exactly what BruteForceTop1 returns (the same contributions summed in the
// same order).
//
// Before the scan, theta is seeded from the first 64 postings of the
// rarest query term, each probed in the other lists by galloping seeks
// (seeds come in id order) with the same pruning. Finalize() stores every
// posting's tf part (the same double DocTfPart computes), so a query reads
// impacts instead of dividing.
//
// From kTieredFrom documents on, Finalize() cuts every posting list into
// impact tiers and Top1 runs max-score over (term, tier) lists, so that a
// common term's long low tier can stay out of the candidates while its
// short high tiers stay in (bm25_index.cc, TierScan; the essential
// cursors sit in a min-heap). A threshold (min_normalized) starts the
// search there: the caller that only needs a vertex above it (jlse: above
// sim_anchor) prunes more, and a query whose bounds together cannot reach
// it returns at once. Cost growth with |Gw|: docs/strategies/jlse.md (the < 3x target
// from 10^3 to 10^6 vertices is not met).
//
// No Block-Max WAND (Ding & Suel 2011): on our data BM25 impacts with
// tf ~ 1 vary only with field length, so a block's maximum is near its
// list's; it skips few blocks and is slower than max-score at every size
// (docs/notebook/jlse.md, "Block-Max WAND").
//
// Thread-safety: const methods may run concurrently; Add() needs exclusive
// access.
#ifndef TOPICRAWL_TEXT_BM25_INDEX_H_
#define TOPICRAWL_TEXT_BM25_INDEX_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "text/utf8_util.h"

namespace topicrawl {

constexpr int kBm25Fields = 3;  // anchor, url, context

struct Bm25Params {
  double k1 = 2.0;
  double b = 0.75;
  std::array<double, kBm25Fields> weights{0.5, 0.2, 0.3};
  // idf form: false (default) Lucene's ln(1 + (N - n + 0.5) / (n + 0.5));
  // true the seed's eq. 6, Robertson's ln((N - n + 0.5) / (n + 0.5)),
  // floored at 0: a term in more than half of the documents adds nothing
  // (unfloored it would subtract, and the top-1 bounds assume terms only
  // add). [strategy.jlse] bm25_idf = "lucene" | "robertson".
  bool robertson_idf = false;
};

// The terms of one document or query, per field, in order (repeats count).
using Bm25Doc = std::array<std::vector<std::string>, kBm25Fields>;
// The same as views (a query built without copying its words).
using Bm25Query = std::array<std::vector<std::string_view>, kBm25Fields>;
Bm25Query AsQuery(const Bm25Doc& doc);

struct Bm25Hit {
  int64_t doc = -1;     // document id (Add order, 0-based); -1: no match
  double score = 0;     // s(q, d), eq. 8
  double normalized = 0;  // min(1, score / s(q, q))
  // Work done (for benches and tests): postings visited, documents scored.
  int64_t postings_touched = 0;
  int64_t docs_scored = 0;
  int64_t candidates = 0;  // documents of the essential lists visited
  // Whether the query shares a term with the index (then an unrestricted
  // Top1 has a hit; with min_normalized the hit may still be -1).
  bool shares_term = false;
  int64_t seed_postings = 0;  // of postings_touched, while seeding theta
};

// Which exact top-1 search a finalized index runs (an index that was not
// finalized, or was changed by Add() since, always runs kMaxScore).
// kAuto: the plain max-score below Finalize()'s tiered_from, the tiers
// above (the fastest on bench/jlse_bench).
enum class Bm25Search { kAuto, kMaxScore, kTiers };

class Bm25Index {
 public:
  explicit Bm25Index(Bm25Params params = {}) : params_(params) {}

  // Adds a document; returns its id (0, 1, 2, ...).
  int64_t Add(const Bm25Doc& doc);
  int64_t Add(const Bm25Query& doc);
  // Finalize() builds impact tiers from this many documents on (below it
  // Top1 stays the plain max-score, cheaper there; bench/jlse_bench).
  static constexpr size_t kTieredFrom = 20000;
  // Precomputes each document's length normaliser k1 (1 - b + b |d_f| /
  // avgdl_f) for the current N (queries then skip the division). Optional:
  // the same values are computed on the fly until it is called, and Add()
  // undoes it. Needs exclusive access like Add().
  // From `tiered_from` documents on it also cuts every posting list into
  // impact tiers, and Top1 runs max-score over the tiers (bm25_index.cc).
  void Finalize(size_t tiered_from = kTieredFrom);
  // Chooses the search of a finalized index (kTiers needs tiers: Finalize
  // with tiered_from <= size(); otherwise the plain max-score runs).
  void set_search(Bm25Search s) { search_ = s; }
  Bm25Search search() const { return search_; }
  // eq. 8 for one document (by id). REQUIRES: 0 <= doc < size().
  double Score(const Bm25Query& query, int64_t doc) const;
  double Score(const Bm25Doc& query, int64_t doc) const { return Score(AsQuery(query), doc); }
  // The query against a document identical to itself (normaliser).
  double SelfScore(const Bm25Query& query) const;
  double SelfScore(const Bm25Doc& query) const { return SelfScore(AsQuery(query)); }

  // The best document by max-score (see above); doc = -1 when no document shares
  // a term with the query. With `min_normalized` > 0 only a document whose
  // normalised score is above it counts: doc = -1 when none is (the search
  // starts with that threshold, so it prunes more). Otherwise the hit is
  // exactly the unrestricted top-1.
  Bm25Hit Top1(const Bm25Query& query, double min_normalized = 0) const;
  Bm25Hit Top1(const Bm25Doc& query, double min_normalized = 0) const {
    return Top1(AsQuery(query), min_normalized);
  }
  // The same by scoring every document; for tests and benches.
  Bm25Hit BruteForceTop1(const Bm25Query& query) const;
  Bm25Hit BruteForceTop1(const Bm25Doc& query) const { return BruteForceTop1(AsQuery(query)); }

  size_t size() const { return doc_len_.size(); }
  const Bm25Params& params() const { return params_; }
  double idf(int field, std::string_view term) const;
  double avgdl(int field) const;

 private:
  struct Posting {
    uint32_t doc;
    uint32_t tf;
  };
  // An impact tier of a posting list (Finalize): the postings whose
  // tf part lies in one band, in document order, with the band's maximum.
  struct Tier {
    std::vector<Posting> postings;
    std::vector<double> impact;  // DocTfPart of each posting
    double max_impact = 0;
  };
  struct PostingList {
    std::vector<Posting> postings;
    // After Finalize(): DocTfPart of each posting (the same doubles, read
    // instead of recomputed; stale after Add, when finalized_ is false).
    std::vector<double> impact;
    uint32_t max_tf = 0;
    uint32_t min_len = UINT32_MAX;
    std::vector<Tier> tiers;  // after Finalize(), by descending max_impact
  };
  // One query term: a posting list, its weight and bound.
  struct QueryTerm {
    const PostingList* list = nullptr;
    double weight = 0;   // w_f * idf * qtf
    double bound = 0;    // weight * max tf part
    int field = 0;
    size_t order = 0;    // position in the query (summation order)
  };

  // The query's terms found in the index; `self` (optional) receives
  // SelfScore(query), computed in the same pass.
  std::vector<QueryTerm> Prepare(const Bm25Query& query, double* self) const;
  double TfPart(uint32_t tf, uint32_t len, int field) const;
  // idf of a term in n of N documents (Bm25Params::robertson_idf).
  double Idf(double N, double n) const;
  // Top1's steps (bm25_index.cc): theta from the rarest term's first
  // postings, then the max-score scan over whole lists or over impact tiers
  // (finalized index).
  double SeedTheta(const std::vector<QueryTerm>& terms, const std::vector<double>& prefix,
                   double theta, Bm25Hit* hit) const;
  class ListScan;
  class TierScan;
  // Finalize(): the list's impact tiers, from its impacts.
  static void CutImpactTiers(PostingList* list);
  // DocTfPart of posting `at` of a term's list (precomputed once finalized).
  double ImpactOf(const QueryTerm& q, size_t at, uint32_t doc) const;
  // TfPart of document `doc` (its field length), through the precomputed
  // normaliser when finalized: the same double either way.
  double DocTfPart(uint32_t tf, uint32_t doc, int field) const;

  Bm25Params params_;
  std::array<StringMap<uint32_t>, kBm25Fields> term_ids_;
  std::array<std::vector<PostingList>, kBm25Fields> lists_;
  std::vector<std::array<uint32_t, kBm25Fields>> doc_len_;
  std::array<uint64_t, kBm25Fields> total_len_{0, 0, 0};
  // Finalize(): per field, the length normaliser of every document.
  bool finalized_ = false;
  bool tiered_ = false;
  Bm25Search search_ = Bm25Search::kAuto;
  std::array<std::vector<double>, kBm25Fields> norm_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_TEXT_BM25_INDEX_H_
