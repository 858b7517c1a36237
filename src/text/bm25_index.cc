#include "text/bm25_index.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace topicrawl {
namespace {

constexpr uint32_t kEnd = std::numeric_limits<uint32_t>::max();

// Distinct terms of one field with their counts, in first-occurrence order
// (the summation order of a query, identical in Top1 and BruteForceTop1).
// Short fields (anchors, URLs, contexts of <= 64 words) are deduplicated by
// a linear scan: cheaper than a hash map for the sizes a link has.
template <typename S>
std::vector<std::pair<std::string_view, uint32_t>> CountTerms(const std::vector<S>& terms) {
  std::vector<std::pair<std::string_view, uint32_t>> out;
  out.reserve(terms.size());
  if (terms.size() <= 64) {
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
  StringMap<size_t> at;
  for (const auto& t : terms) {
    auto [it, inserted] = at.try_emplace(std::string(t), out.size());
    if (inserted) {
      out.emplace_back(std::string_view(t), 1);
    } else {
      ++out[it->second].second;
    }
  }
  return out;
}

}  // namespace

Bm25Query AsQuery(const Bm25Doc& doc) {
  Bm25Query q;
  for (int f = 0; f < kBm25Fields; ++f) q[f].assign(doc[f].begin(), doc[f].end());
  return q;
}

void Bm25Index::Finalize() {
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
}

double Bm25Index::DocTfPart(uint32_t tf, uint32_t doc, int field) const {
  if (!finalized_) return TfPart(tf, doc_len_[doc][field], field);
  const double t = static_cast<double>(tf);
  return t * (params_.k1 + 1.0) / (t + norm_[field][doc]);
}

int64_t Bm25Index::Add(const Bm25Doc& doc) {
  finalized_ = false;
  const uint32_t id = static_cast<uint32_t>(doc_len_.size());
  std::array<uint32_t, kBm25Fields> len{};
  for (int f = 0; f < kBm25Fields; ++f) {
    len[f] = static_cast<uint32_t>(doc[f].size());
    total_len_[f] += len[f];
    for (const auto& [term, tf] : CountTerms(doc[f])) {
      auto [it, inserted] =
          term_ids_[f].try_emplace(std::string(term), static_cast<uint32_t>(lists_[f].size()));
      if (inserted) lists_[f].emplace_back();
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
  const double N = static_cast<double>(doc_len_.size());
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
      const double term_idf = std::log(1.0 + (N - n + 0.5) / (n + 0.5));
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
  if (hit.doc >= 0) {
    hit.normalized = self > 0 ? std::min(1.0, hit.score / self) : 0.0;
  }
  return hit;
}

Bm25Hit Bm25Index::Top1(const Bm25Query& query, double min_normalized) const {
  Bm25Hit hit;
  double self = 0;
  std::vector<QueryTerm> terms = Prepare(query, &self);
  const size_t n = terms.size();
  if (n == 0) return hit;
  hit.shares_term = true;
  // Max-score: terms by ascending bound; prefix[i] = bounds of terms 0..i-1.
  // Terms 0..first-1 are "non-essential": together they cannot beat theta,
  // so only documents of the essential lists are candidates, and the
  // non-essential lists are probed (galloping) only for those.
  std::sort(terms.begin(), terms.end(),
            [](const QueryTerm& a, const QueryTerm& b) { return a.bound < b.bound; });
  std::vector<double> prefix(n + 1, 0.0);
  for (size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + terms[i].bound;
  std::vector<size_t> pos(n, 0);
  auto doc_of = [&](size_t i) -> uint32_t {
    const auto& p = terms[i].list->postings;
    return pos[i] < p.size() ? p[pos[i]].doc : kEnd;
  };
  // First posting >= target, galloping from the cursor.
  auto seek = [&](size_t i, uint32_t target) {
    const auto& p = terms[i].list->postings;
    size_t lo = pos[i];
    size_t step = 1;
    size_t hi = lo;
    while (hi < p.size() && p[hi].doc < target) {
      lo = hi + 1;
      hi += step;
      step *= 2;
      ++hit.postings_touched;
    }
    hi = std::min(hi, p.size());
    auto it = std::lower_bound(p.begin() + static_cast<std::ptrdiff_t>(lo),
                               p.begin() + static_cast<std::ptrdiff_t>(hi), target,
                               [](const Posting& a, uint32_t d) { return a.doc < d; });
    pos[i] = static_cast<size_t>(it - p.begin());
  };
  std::vector<double> contrib(n, 0.0);  // by query order
  // Best score so far; a document must beat it strictly. With a minimum,
  // the search starts there: only a document above it can be the answer.
  const double floor_score = min_normalized > 0 ? min_normalized * self : 0.0;
  double theta = floor_score;
  // The tiny slack covers rounding of bound sums (scores are summed in
  // query order, bounds in bound order).
  auto need = [&] { return theta * (1.0 - 1e-9); };
  // Seed theta: score the first postings of the rarest (highest-bound)
  // term by random access. A good theta early makes the common lists
  // non-essential before the scan starts; the scan below still sees every
  // document that could beat or tie it (ties: smallest id wins).
  {
    const auto& seed_list = terms[n - 1].list->postings;
    const size_t m = std::min<size_t>(seed_list.size(), 64);
    for (size_t k = 0; k < m; ++k) {
      const uint32_t d = seed_list[k].doc;
      std::fill(contrib.begin(), contrib.end(), 0.0);
      for (size_t i = 0; i < n; ++i) {
        const auto& p = terms[i].list->postings;
        auto it = std::lower_bound(p.begin(), p.end(), d,
                                   [](const Posting& a, uint32_t x) { return a.doc < x; });
        ++hit.postings_touched;
        if (it == p.end() || it->doc != d) continue;
        contrib[terms[i].order] = terms[i].weight * DocTfPart(it->tf, d, terms[i].field);
      }
      double sc = 0;
      for (size_t i = 0; i < n; ++i) {
        if (contrib[i] != 0.0) sc += contrib[i];
      }
      ++hit.docs_scored;
      if (sc > theta || (sc == theta && hit.doc >= 0 && d < hit.doc)) {
        theta = sc;
        hit.doc = d;
        hit.score = sc;
      }
    }
  }
  size_t first = 0;  // first essential term
  while (first < n && prefix[first + 1] <= need()) ++first;
  while (first < n) {
    uint32_t d = kEnd;
    for (size_t i = first; i < n; ++i) d = std::min(d, doc_of(i));
    if (d == kEnd) break;
    ++hit.candidates;
    std::fill(contrib.begin(), contrib.end(), 0.0);
    double partial = 0;
    for (size_t i = first; i < n; ++i) {
      if (doc_of(i) != d) continue;
      const Posting& p = terms[i].list->postings[pos[i]];
      const double c = terms[i].weight * DocTfPart(p.tf, d, terms[i].field);
      contrib[terms[i].order] = c;
      partial += c;
      ++pos[i];
      ++hit.postings_touched;
    }
    bool pruned = false;
    for (size_t i = first; i-- > 0;) {
      if (partial + prefix[i + 1] <= need()) {
        pruned = true;  // even every remaining term cannot lift it above theta
        break;
      }
      seek(i, d);
      if (doc_of(i) != d) continue;
      const Posting& p = terms[i].list->postings[pos[i]];
      const double c = terms[i].weight * DocTfPart(p.tf, d, terms[i].field);
      contrib[terms[i].order] = c;
      partial += c;
      ++hit.postings_touched;
    }
    if (pruned) continue;
    double s = 0;
    for (size_t i = 0; i < n; ++i) {
      if (contrib[i] != 0.0) s += contrib[i];
    }
    ++hit.docs_scored;
    if (s > theta || (s == theta && hit.doc >= 0 && d < hit.doc)) {
      theta = s;
      hit.doc = d;
      hit.score = s;
      while (first < n && prefix[first + 1] <= need()) ++first;
    }
  }
  if (hit.doc >= 0) {
    hit.normalized = self > 0 ? std::min(1.0, hit.score / self) : 0.0;
  }
  return hit;
}

}  // namespace topicrawl
