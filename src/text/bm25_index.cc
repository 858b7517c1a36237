#include "text/bm25_index.h"

#include "text/bm25_gallop.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string_view>

namespace topicrawl {
namespace {

using bm25_internal::Gallop;
using bm25_internal::BeatsTop1;
using bm25_internal::kEnd;
using bm25_internal::SumInQueryOrder;

// Distinct terms of one field with their counts, in first-occurrence order
// (the summation order of a query, identical in Top1 and BruteForceTop1).
// Short fields (anchors, URLs) are deduplicated by a linear scan; longer
// ones (contexts: up to 64 words) through a small open-addressing table of
// indices into `out` (a linear scan there was ~n^2 / 2 string compares per
// query, a visible share of a crawl's lookups).
template <typename S>
std::vector<std::pair<std::string_view, uint32_t>> CountTerms(const std::vector<S>& terms) {
  std::vector<std::pair<std::string_view, uint32_t>> out;
  out.reserve(terms.size());
  if (terms.size() <= 12) {
    for (const auto& t : terms) {
      const std::string_view v(t);
      bool found = false;
      for (auto& [u, n] : out) {
        if (u == v) {
          ++n;
          found = true;
          break;
        }
      }
      if (!found) out.emplace_back(v, 1);
    }
    return out;
  }
  size_t cap = 32;
  while (cap < 2 * terms.size()) cap <<= 1;
  std::vector<uint32_t> slot(cap, UINT32_MAX);
  const std::hash<std::string_view> hasher;
  for (const auto& t : terms) {
    const std::string_view v(t);
    size_t h = hasher(v) & (cap - 1);
    while (true) {
      if (slot[h] == UINT32_MAX) {
        slot[h] = static_cast<uint32_t>(out.size());
        out.emplace_back(v, 1);
        break;
      }
      if (out[slot[h]].first == v) {
        ++out[slot[h]].second;
        break;
      }
      h = (h + 1) & (cap - 1);
    }
  }
  return out;
}

// The tiny slack covers rounding of bound sums (scores are summed in query
// order, bounds in bound order): what a document's bound must exceed to
// stay in the search.
double MaxScoreNeed(double theta) { return theta * (1.0 - 1e-9); }

// The hit's score over s(q, q), clamped to 1 (0 when the query scores 0
// against itself).
void SetBm25Normalized(double self, Bm25Hit* hit) {
  if (hit->doc >= 0) hit->normalized = self > 0 ? std::min(1.0, hit->score / self) : 0.0;
}

// A candidate's contributions against the best so far (the top-1 rule):
// true when it takes the hit's place and raises theta.
bool OfferBm25Candidate(const std::vector<double>& contrib, uint32_t d, double* theta,
                        Bm25Hit* hit) {
  const double s = SumInQueryOrder(contrib);
  ++hit->docs_scored;
  if (!BeatsTop1(s, d, *theta, hit->doc)) return false;
  *theta = s;
  hit->doc = d;
  hit->score = s;
  return true;
}

}  // namespace

Bm25Query AsQuery(const Bm25Doc& doc) {
  Bm25Query q;
  for (int f = 0; f < kBm25Fields; ++f) q[f].assign(doc[f].begin(), doc[f].end());
  return q;
}

void Bm25Index::Finalize(size_t tiered_from) {
  for (int f = 0; f < kBm25Fields; ++f) {
    norm_[f].resize(doc_len_.size());
    const double a = avgdl(f);
    for (size_t d = 0; d < doc_len_.size(); ++d) {
      // The expression of TfPart, so that the value is the same double.
      norm_[f][d] = params_.k1 * (1.0 - params_.b +
                                  params_.b * static_cast<double>(doc_len_[d][f]) / a);
    }
  }
  finalized_ = true;
  for (int f = 0; f < kBm25Fields; ++f) {
    for (PostingList& list : lists_[f]) {
      const size_t L = list.postings.size();
      list.impact.resize(L);
      for (size_t i = 0; i < L; ++i) {
        list.impact[i] = DocTfPart(list.postings[i].tf, list.postings[i].doc, f);
      }
    }
  }
  // Below kTieredFrom documents the plain max-score is cheaper (fewer
  // lists to set up per query; bench/jlse_bench): no tiers.
  tiered_ = doc_len_.size() >= tiered_from;
  for (int f = 0; f < kBm25Fields; ++f) {
    for (PostingList& list : lists_[f]) {
      list.tiers.clear();
      if (tiered_) CutImpactTiers(&list);
    }
  }
}

// A list's postings are cut by their tf part into up to four bands: the top
// ~1/1024, ~1/64 and ~1/8 of the postings and the rest (cuts only where the
// value changes, so a list of equal impacts is one tier). A document is in
// exactly one tier of a term, and its contribution is at most weight * that
// tier's maximum: TierScan can leave a term's low tiers out of the
// candidates while its high, short tiers stay in.
void Bm25Index::CutImpactTiers(PostingList* list) {
  constexpr size_t kMinTiered = 32;
  const std::vector<double>& imp = list->impact;
  const size_t L = list->postings.size();
  std::vector<double> cuts;  // descending: tier k holds (cuts[k], cuts[k-1]]
  if (L >= kMinTiered) {
    std::vector<double> sorted = imp;
    std::sort(sorted.begin(), sorted.end(), std::greater<double>());
    double above = sorted[0];
    for (size_t r : {L / 1024, L / 64, L / 8}) {
      if (r == 0) continue;
      const double c = sorted[r];
      if (c < above) {
        cuts.push_back(c);
        above = c;
      }
    }
  }
  list->tiers.resize(cuts.size() + 1);
  for (size_t i = 0; i < L; ++i) {
    size_t k = 0;
    while (k < cuts.size() && imp[i] <= cuts[k]) ++k;
    Tier& t = list->tiers[k];
    t.postings.push_back(list->postings[i]);
    t.impact.push_back(imp[i]);
    t.max_impact = std::max(t.max_impact, imp[i]);
  }
}

double Bm25Index::DocTfPart(uint32_t tf, uint32_t doc, int field) const {
  if (!finalized_) return TfPart(tf, doc_len_[doc][field], field);
  const double t = static_cast<double>(tf);
  return t * (params_.k1 + 1.0) / (t + norm_[field][doc]);
}

int64_t Bm25Index::Add(const Bm25Doc& doc) { return Add(AsQuery(doc)); }

int64_t Bm25Index::Add(const Bm25Query& doc) {
  finalized_ = false;
  const uint32_t id = static_cast<uint32_t>(doc_len_.size());
  std::array<uint32_t, kBm25Fields> len{};
  for (int f = 0; f < kBm25Fields; ++f) {
    len[f] = static_cast<uint32_t>(doc[f].size());
    total_len_[f] += len[f];
    for (const auto& [term, tf] : CountTerms(doc[f])) {
      // Look up before inserting: a known term costs no string copy.
      auto it = term_ids_[f].find(term);
      if (it == term_ids_[f].end()) {
        it = term_ids_[f]
                 .emplace(std::string(term), static_cast<uint32_t>(lists_[f].size()))
                 .first;
        lists_[f].emplace_back();
      }
      PostingList& list = lists_[f][it->second];
      list.postings.push_back({id, tf});
      list.max_tf = std::max(list.max_tf, tf);
      list.min_len = std::min(list.min_len, len[f]);
    }
  }
  doc_len_.push_back(len);
  return id;
}

double Bm25Index::avgdl(int field) const {
  if (doc_len_.empty() || total_len_[field] == 0) return 1.0;
  return static_cast<double>(total_len_[field]) / static_cast<double>(doc_len_.size());
}

double Bm25Index::idf(int field, std::string_view term) const {
  auto it = term_ids_[field].find(term);
  const double n = it == term_ids_[field].end()
                       ? 0.0
                       : static_cast<double>(lists_[field][it->second].postings.size());
  return Idf(static_cast<double>(doc_len_.size()), n);
}

double Bm25Index::Idf(double N, double n) const {
  if (params_.robertson_idf) return std::max(0.0, std::log((N - n + 0.5) / (n + 0.5)));
  return std::log(1.0 + (N - n + 0.5) / (n + 0.5));
}

double Bm25Index::TfPart(uint32_t tf, uint32_t len, int field) const {
  const double t = static_cast<double>(tf);
  const double norm =
      params_.k1 * (1.0 - params_.b + params_.b * static_cast<double>(len) / avgdl(field));
  return t * (params_.k1 + 1.0) / (t + norm);
}

std::vector<Bm25Index::QueryTerm> Bm25Index::Prepare(const Bm25Query& query,
                                                     double* self) const {
  std::vector<QueryTerm> terms;
  size_t order = 0;
  double self_score = 0;
  const double N = static_cast<double>(doc_len_.size());
  for (int f = 0; f < kBm25Fields; ++f) {
    if (params_.weights[f] <= 0) continue;
    const uint32_t len = static_cast<uint32_t>(query[f].size());
    for (const auto& [term, qtf] : CountTerms(query[f])) {
      auto it = term_ids_[f].find(term);
      const PostingList* list = it == term_ids_[f].end() ? nullptr : &lists_[f][it->second];
      // idf() without a second lookup (same expression).
      const double n = list ? static_cast<double>(list->postings.size()) : 0.0;
      const double term_idf = Idf(N, n);
      // SelfScore's sum, term by term in the same order.
      if (self) self_score += params_.weights[f] * term_idf * qtf * TfPart(qtf, len, f);
      if (!list) continue;
      QueryTerm q;
      q.list = list;
      q.field = f;
      q.weight = params_.weights[f] * term_idf * static_cast<double>(qtf);
      q.bound = q.weight * TfPart(list->max_tf, list->min_len, f);
      q.order = order++;
      terms.push_back(q);
    }
  }
  if (self) *self = self_score;
  return terms;
}

double Bm25Index::Score(const Bm25Query& query, int64_t doc) const {
  double s = 0;
  for (const QueryTerm& q : Prepare(query, nullptr)) {
    const auto& p = q.list->postings;
    auto it = std::lower_bound(p.begin(), p.end(), static_cast<uint32_t>(doc),
                               [](const Posting& a, uint32_t d) { return a.doc < d; });
    if (it == p.end() || it->doc != doc) continue;
    s += q.weight * TfPart(it->tf, doc_len_[doc][q.field], q.field);
  }
  return s;
}

double Bm25Index::SelfScore(const Bm25Query& query) const {
  // Every query term counts, also those no document has (idf with n = 0):
  // a query that shares only its common words with Gw stays far from 1.
  double s = 0;
  Prepare(query, &s);
  return s;
}

Bm25Hit Bm25Index::BruteForceTop1(const Bm25Query& query) const {
  Bm25Hit hit;
  double self = 0;
  const auto terms = Prepare(query, &self);
  hit.shares_term = !terms.empty();
  for (size_t d = 0; d < doc_len_.size(); ++d) {
    double s = 0;
    bool any = false;
    for (const QueryTerm& q : terms) {
      const auto& p = q.list->postings;
      auto it = std::lower_bound(p.begin(), p.end(), static_cast<uint32_t>(d),
                                 [](const Posting& a, uint32_t x) { return a.doc < x; });
      ++hit.postings_touched;
      if (it == p.end() || it->doc != d) continue;
      s += q.weight * DocTfPart(it->tf, static_cast<uint32_t>(d), q.field);
      any = true;
    }
    ++hit.docs_scored;
    if (any && s > hit.score) {
      hit.score = s;
      hit.doc = static_cast<int64_t>(d);
    }
  }
  SetBm25Normalized(self, &hit);
  return hit;
}

double Bm25Index::ImpactOf(const QueryTerm& q, size_t at, uint32_t doc) const {
  return finalized_ ? q.list->impact[at] : DocTfPart(q.list->postings[at].tf, doc, q.field);
}

// Scores the first postings of the rarest (highest-bound) term. A good
// theta early makes the common lists non-essential before the scan starts;
// the scan still sees every document that could beat or tie it (ties:
// smallest id wins). The seeds come in increasing id order, so every other
// list is probed by a galloping seek from its own seed cursor (not a binary
// search over the whole list), highest bound first, and a seed is dropped
// as soon as the remaining bounds cannot lift it above theta.
double Bm25Index::SeedTheta(const std::vector<QueryTerm>& terms, const std::vector<double>& prefix,
                            double theta, Bm25Hit* hit) const {
  const size_t n = terms.size();
  const QueryTerm& rarest = terms[n - 1];
  const auto& seed_list = rarest.list->postings;
  const size_t m = std::min<size_t>(seed_list.size(), 64);
  std::vector<double> contrib(n, 0.0);  // by query order
  std::vector<size_t> seed_pos(n, 0);
  for (size_t k = 0; k < m; ++k) {
    const uint32_t d = seed_list[k].doc;
    std::fill(contrib.begin(), contrib.end(), 0.0);
    double partial = rarest.weight * ImpactOf(rarest, k, d);
    contrib[rarest.order] = partial;
    ++hit->postings_touched;
    bool pruned = false;
    for (size_t i = n - 1; i-- > 0;) {
      if (partial + prefix[i + 1] <= MaxScoreNeed(theta)) {
        pruned = true;
        break;
      }
      const auto& p = terms[i].list->postings;
      size_t at = seed_pos[i];
      Gallop(p, d, &at, &hit->postings_touched);
      seed_pos[i] = at;
      if (at == p.size() || p[at].doc != d) continue;
      const double c = terms[i].weight * ImpactOf(terms[i], at, d);
      contrib[terms[i].order] = c;
      partial += c;
    }
    if (!pruned) OfferBm25Candidate(contrib, d, &theta, hit);
  }
  return theta;
}

// Max-score over whole posting lists (terms by ascending bound, prefix[i]
// = bounds of terms 0..i-1). Terms 0..first_-1 are "non-essential":
// together they cannot beat theta, so only documents of the essential lists
// are candidates, and the non-essential lists are probed (galloping) only
// for those.
class Bm25Index::ListScan {
 public:
  ListScan(const Bm25Index& index, const std::vector<QueryTerm>& terms,
           const std::vector<double>& prefix, double theta, Bm25Hit* hit)
      : index_(index), terms_(terms), prefix_(prefix), n_(terms.size()), theta_(theta),
        hit_(hit), pos_(n_, 0), cur_doc_(n_), contrib_(n_, 0.0) {
    for (size_t i = 0; i < n_; ++i) {
      const auto& p = terms_[i].list->postings;
      cur_doc_[i] = p.empty() ? kEnd : p[0].doc;
    }
  }

  void Run() {
    SkipNonEssential();
    while (first_ < n_) {
      uint32_t d = kEnd;
      for (size_t i = first_; i < n_; ++i) d = std::min(d, cur_doc_[i]);
      if (d == kEnd) break;
      ++hit_->candidates;
      std::fill(contrib_.begin(), contrib_.end(), 0.0);
      const double partial = ConsumeEssential(d);
      if (!ProbeNonEssential(d, partial)) continue;
      if (OfferBm25Candidate(contrib_, d, &theta_, hit_)) SkipNonEssential();
    }
  }

 private:
  uint32_t CursorDoc(size_t i) const {
    const auto& p = terms_[i].list->postings;
    return pos_[i] < p.size() ? p[pos_[i]].doc : kEnd;
  }

  // The terms that together cannot beat theta leave the essential set.
  void SkipNonEssential() {
    while (first_ < n_ && prefix_[first_ + 1] <= MaxScoreNeed(theta_)) ++first_;
  }

  // The essential lists on candidate d: their contributions, and their
  // cursors move past it. Returns the partial score.
  double ConsumeEssential(uint32_t d) {
    double partial = 0;
    for (size_t i = first_; i < n_; ++i) {
      if (cur_doc_[i] != d) continue;
      const double c = terms_[i].weight * index_.ImpactOf(terms_[i], pos_[i], d);
      contrib_[terms_[i].order] = c;
      partial += c;
      ++pos_[i];
      cur_doc_[i] = CursorDoc(i);
      ++hit_->postings_touched;
    }
    return partial;
  }

  // The non-essential lists, highest bound first, probed for d by galloping
  // from their cursors; false (pruned) as soon as even every remaining term
  // cannot lift d above theta.
  bool ProbeNonEssential(uint32_t d, double partial) {
    for (size_t i = first_; i-- > 0;) {
      if (partial + prefix_[i + 1] <= MaxScoreNeed(theta_)) return false;
      Gallop(terms_[i].list->postings, d, &pos_[i], &hit_->postings_touched);
      cur_doc_[i] = CursorDoc(i);
      if (cur_doc_[i] != d) continue;
      const double c = terms_[i].weight * index_.ImpactOf(terms_[i], pos_[i], d);
      contrib_[terms_[i].order] = c;
      partial += c;
      ++hit_->postings_touched;
    }
    return true;
  }

  const Bm25Index& index_;
  const std::vector<QueryTerm>& terms_;
  const std::vector<double>& prefix_;
  const size_t n_;
  double theta_;
  Bm25Hit* const hit_;
  size_t first_ = 0;  // first essential term
  std::vector<size_t> pos_;
  // Each list's current document, contiguous: the per-candidate min and
  // match passes read this array, not list -> postings -> posting.
  std::vector<uint32_t> cur_doc_;
  std::vector<double> contrib_;  // by query order
};

// Max-score over impact tiers. Every (term, tier) is a list with bound
// weight * tier maximum. A term whose top e tiers are "essential" can add
// at most c_t = the bound of its tier e to a document outside them (0 when
// all are essential). Candidates are the documents of the essential tiers;
// every other document scores at most sum_t c_t, so the essential set only
// has to make that sum <= theta. Tiers enter it in a fixed order: by bound
// reduction per posting (a term's tiers top-down), so when theta grows the
// set shrinks from the end of that order, like max-score's first essential
// term. A candidate's other contributions are probed in the non-essential
// tiers of its terms (galloping seeks, monotone), and it is dropped when
// its partial score plus the remaining c_t cannot beat theta. Scores are
// summed in query order as in BruteForceTop1: the same top-1, the same
// double.
class Bm25Index::TierScan {
 public:
  TierScan(const std::vector<QueryTerm>& terms, double theta, Bm25Hit* hit)
      : terms_(terms), n_(terms.size()), theta_(theta), hit_(hit), first_tier_(n_ + 1, 0),
        ess_(n_, 0), contrib_(n_, 0.0), matched_(n_, 0) {
    BuildCursors();
    OrderSteps();
    EnterEssentialPrefix();
  }

  void Run() {
    uint32_t d = kEnd;
    while (NextCandidate(&d)) {
      ++hit_->candidates;
      std::fill(contrib_.begin(), contrib_.end(), 0.0);
      std::fill(matched_.begin(), matched_.end(), 0);
      double rem = total_c_;
      const double partial = ConsumeEssential(&rem);
      if (!ProbeOtherTerms(d, partial, rem)) continue;
      if (OfferBm25Candidate(contrib_, d, &theta_, hit_)) ShrinkEssential();
    }
  }

 private:
  struct Cursor {
    const std::vector<Posting>* p;
    const double* impact;  // the tier's DocTfPart per posting
    size_t pos;
    size_t term;
    double bound;
  };
  // A tier entering the essential set, with the reduction of sum_t c_t it
  // brings.
  struct Step {
    size_t term;
    size_t cursor;
    double reduction;
    double ratio;
  };
  using Entry = std::pair<uint32_t, size_t>;  // (document, step)

  size_t TiersOf(size_t i) const { return first_tier_[i + 1] - first_tier_[i]; }
  double COf(size_t i) const {
    return ess_[i] < TiersOf(i) ? cur_[first_tier_[i] + ess_[i]].bound : 0.0;
  }
  static uint32_t DocAt(const Cursor& c) {
    return c.pos < c.p->size() ? (*c.p)[c.pos].doc : kEnd;
  }
  // sum_t c_t over every term; a candidate's rem is this minus its matched
  // terms' c_t (recomputed when the essential set shrinks).
  double AllC() const {
    double t = 0;
    for (size_t i = 0; i < n_; ++i) t += COf(i);
    return t;
  }

  // One cursor per (term, tier); a term's tiers are contiguous from
  // first_tier_[term].
  void BuildCursors() {
    for (size_t i = 0; i < n_; ++i) {
      first_tier_[i] = cur_.size();
      for (const Tier& t : terms_[i].list->tiers) {
        cur_.push_back({&t.postings, t.impact.data(), 0, i, terms_[i].weight * t.max_impact});
      }
    }
    first_tier_[n_] = cur_.size();
  }

  // The order tiers become essential. Reduction per posting is made
  // non-increasing within a term, and ties keep tier order, so a term's
  // tiers enter top-down. remaining_[j] = sum_t c_t when steps 0..j-1 are
  // essential.
  void OrderSteps() {
    double total = 0;  // sum_t c_t with nothing essential
    for (size_t i = 0; i < n_; ++i) {
      const size_t k0 = first_tier_[i];
      total += cur_[k0].bound;
      double ratio = std::numeric_limits<double>::infinity();
      for (size_t k = 0; k < TiersOf(i); ++k) {
        const double here = cur_[k0 + k].bound;
        const double below = k + 1 < TiersOf(i) ? cur_[k0 + k + 1].bound : 0.0;
        const double len = static_cast<double>(std::max<size_t>(1, cur_[k0 + k].p->size()));
        ratio = std::min(ratio, (here - below) / len);
        steps_.push_back({i, k0 + k, here - below, ratio});
      }
    }
    std::stable_sort(steps_.begin(), steps_.end(),
                     [](const Step& a, const Step& b) { return a.ratio > b.ratio; });
    remaining_.resize(steps_.size() + 1);
    remaining_[0] = total;
    for (size_t j = 0; j < steps_.size(); ++j) {
      remaining_[j + 1] = remaining_[j] - steps_[j].reduction;
    }
  }

  // Essential prefix: the shortest with remaining <= need (rounding: the
  // last step leaves exactly 0). Its cursors go into a min-heap by current
  // document (entries of steps that left the essential set are dropped when
  // they surface), so a candidate costs O(log J) per posting, not a pass
  // over all J cursors.
  void EnterEssentialPrefix() {
    while (J_ < steps_.size() && remaining_[J_] > MaxScoreNeed(theta_)) ++J_;
    for (size_t j = 0; j < J_; ++j) ++ess_[steps_[j].term];
    heap_.reserve(J_);
    for (size_t j = 0; j < J_; ++j) heap_.emplace_back(DocAt(cur_[steps_[j].cursor]), j);
    std::make_heap(heap_.begin(), heap_.end(), std::greater<Entry>());
    total_c_ = AllC();
  }

  // The smallest document under an essential cursor, with the steps whose
  // cursors are on it popped into at_d_; false when none is left.
  bool NextCandidate(uint32_t* d) {
    while (true) {
      while (!heap_.empty() && heap_.front().second >= J_) {
        std::pop_heap(heap_.begin(), heap_.end(), std::greater<Entry>());
        heap_.pop_back();
      }
      if (heap_.empty() || heap_.front().first == kEnd) return false;
      *d = heap_.front().first;
      at_d_.clear();
      while (!heap_.empty() && heap_.front().first == *d) {
        std::pop_heap(heap_.begin(), heap_.end(), std::greater<Entry>());
        if (heap_.back().second < J_) at_d_.push_back(heap_.back().second);
        heap_.pop_back();
      }
      if (!at_d_.empty()) return true;
    }
  }

  // The essential tiers on the candidate: their contributions, and their
  // cursors move past it (back into the heap). Returns the partial score;
  // *rem loses the matched terms' c_t.
  double ConsumeEssential(double* rem) {
    double partial = 0;
    for (size_t j : at_d_) {
      Cursor& c = cur_[steps_[j].cursor];
      const QueryTerm& q = terms_[c.term];
      const double v = q.weight * c.impact[c.pos];
      contrib_[q.order] = v;
      partial += v;
      if (!matched_[c.term]) *rem -= COf(c.term);
      matched_[c.term] = 1;
      ++hit_->postings_touched;
      ++c.pos;
      heap_.emplace_back(DocAt(c), j);
      std::push_heap(heap_.begin(), heap_.end(), std::greater<Entry>());
    }
    return partial;
  }

  // The other terms, highest bound first (terms are in ascending bound),
  // probed in their non-essential tiers; false (pruned) as soon as the
  // partial score plus the remaining c_t cannot beat theta.
  bool ProbeOtherTerms(uint32_t d, double partial, double rem) {
    for (size_t i = n_; i-- > 0;) {
      if (matched_[i]) continue;
      if (partial + rem <= MaxScoreNeed(theta_)) return false;
      rem -= COf(i);
      for (size_t k = first_tier_[i] + ess_[i]; k < first_tier_[i + 1]; ++k) {
        Cursor& c = cur_[k];
        Gallop(*c.p, d, &c.pos, &hit_->postings_touched);
        if (DocAt(c) != d) continue;
        const QueryTerm& q = terms_[i];
        const double v = q.weight * c.impact[c.pos];
        contrib_[q.order] = v;
        partial += v;
        ++hit_->postings_touched;
        break;  // a document is in one tier of a term
      }
    }
    return true;
  }

  // After theta grew: the essential set shrinks from the end of the order.
  void ShrinkEssential() {
    const size_t before = J_;
    while (J_ > 0 && remaining_[J_ - 1] <= MaxScoreNeed(theta_)) {
      --J_;
      --ess_[steps_[J_].term];
    }
    if (J_ != before) total_c_ = AllC();
  }

  const std::vector<QueryTerm>& terms_;
  const size_t n_;
  double theta_;
  Bm25Hit* const hit_;
  std::vector<Cursor> cur_;
  std::vector<size_t> first_tier_;
  std::vector<Step> steps_;
  std::vector<double> remaining_;
  size_t J_ = 0;             // steps_[0..J_) are essential
  std::vector<size_t> ess_;  // essential tiers per term (a top-down prefix)
  std::vector<Entry> heap_;
  std::vector<double> contrib_;  // by query order
  std::vector<char> matched_;
  double total_c_ = 0;
  std::vector<size_t> at_d_;  // steps whose cursor is on the candidate
};

Bm25Hit Bm25Index::Top1(const Bm25Query& query, double min_normalized) const {
  Bm25Hit hit;
  double self = 0;
  std::vector<QueryTerm> terms = Prepare(query, &self);
  const size_t n = terms.size();
  if (n == 0) return hit;
  hit.shares_term = true;
  // Max-score: terms by ascending bound; prefix[i] = bounds of terms 0..i-1.
  std::sort(terms.begin(), terms.end(),
            [](const QueryTerm& a, const QueryTerm& b) { return a.bound < b.bound; });
  std::vector<double> prefix(n + 1, 0.0);
  for (size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + terms[i].bound;
  // Best score so far; a document must beat it strictly. With a minimum,
  // the search starts there: only a document above it can be the answer.
  double theta = min_normalized > 0 ? min_normalized * self : 0.0;
  // Every term together cannot lift a document above the minimum: no hit
  // (the seeds would all be pruned; this skips setting them up).
  if (prefix[n] <= MaxScoreNeed(theta)) return hit;
  theta = SeedTheta(terms, prefix, theta, &hit);
  hit.seed_postings = hit.postings_touched;
  if (finalized_ && tiered_ && search_ != Bm25Search::kMaxScore) {
    TierScan(terms, theta, &hit).Run();
  } else {
    ListScan(*this, terms, prefix, theta, &hit).Run();
  }
  SetBm25Normalized(self, &hit);
  return hit;
}

}  // namespace topicrawl
