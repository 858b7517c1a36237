// Crawl-time TF-IDF and the topic cosine of seed 000 (000_b5a9e3e8aba53bab).
//
// Eq. 3: the weight of term i in page j is
//     w_ji = (n_ji / sum_k n_jk) * lg(D / (1 + D_i))
// with n_ji the count of term i in the page, sum_k n_jk the page's token
// count (after stop-word removal), D the number of pages processed so far
// and D_i the number of those containing term i. D and D_i grow during the
// crawl (DocumentFrequencies::ObserveDocument).
//
// lg(D / (1 + D_i)) is <= 0 whenever D_i >= D - 1 — always for the first
// pages of a crawl, and for terms that occur in nearly every page. A zero or
// negative IDF would make an on-topic term count against the page or make
// the cosine undefined, so the IDF is clamped from below at `min_idf`
// (default 0.01, i.e. D / (1 + D_i) = 1.023). Consequence, by design: while
// every topic term is clamped (start of a crawl, or one file scored alone)
// all IDFs are equal and cancel in the cosine, so R(P) is the cosine between
// the topic weights and the raw term frequencies.
//
// Eq. 4: R(P) = cos(W_TK, W_DK) = sum_i w_tk_i w_dk_i /
//               sqrt(sum_i w_tk_i^2 * sum_i w_dk_i^2), i over the n topic
// terms only (a page without any topic term has R = 0).
#ifndef TOPICRAWL_TEXT_TFIDF_H_
#define TOPICRAWL_TEXT_TFIDF_H_

#include <atomic>
#include <cstdint>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "text/utf8_util.h"

namespace topicrawl {

// Document frequencies observed during a crawl. Thread-safe: the parse pool
// observes and reads concurrently.
class DocumentFrequencies {
 public:
  explicit DocumentFrequencies(double min_idf = 0.01) : min_idf_(min_idf) {}

  // Counts one more document (D += 1) containing `terms` (each distinct term
  // counted once, duplicates in `terms` are ignored).
  void ObserveDocument(const std::vector<std::string>& terms);

  int64_t documents() const;
  int64_t DocumentsWith(std::string_view term) const;
  // lg(D / (1 + D_i)) clamped below at min_idf (also when D = 0).
  double Idf(std::string_view term) const;
  // The IDFs of several terms read under one lock (a consistent snapshot).
  std::vector<double> Idfs(const std::vector<std::string>& terms) const;
  double min_idf() const { return min_idf_; }

  // Snapshot file (UTF-8 text): first line `#documents<TAB>D`, then
  // `term<TAB>D_i` per line. Written by a crawl, read by `topicrawl score
  // --df-from`.
  Status WriteSnapshot(const std::string& path) const;
  // Replaces the current counts with the file's. Errors name the line.
  Status ReadSnapshot(const std::string& path);

  // D and every (term, D_i), sorted by term, read under one lock (for a
  // crawl's saved state, crawl/strategy_state.h).
  int64_t Counts(std::vector<std::pair<std::string, int64_t>>* counts) const;
  // Replaces D and every D_i.
  void SetCounts(int64_t documents,
                 const std::vector<std::pair<std::string, int64_t>>& counts);

 private:
  double IdfLocked(int64_t d, int64_t di) const;

  const double min_idf_;
  mutable std::shared_mutex mu_;
  int64_t documents_ = 0;
  StringMap<int64_t> counts_;
};

// A topic's weighted terms in normal form (as the tokeniser emits them).
struct TopicVector {
  std::vector<std::string> terms;
  std::vector<double> weights;
  StringMap<size_t> index;  // term -> position

  // Adds or, for a repeated term, keeps the larger weight.
  void Add(std::string term, double weight);
};

// One topic term found in a text.
struct TermWeight {
  std::string term;
  int count = 0;            // n_ji
  double tf = 0;            // n_ji / sum_k n_jk
  double idf = 0;           // clamped lg(D / (1 + D_i))
  double weight = 0;        // tf * idf (eq. 3)
  double topic_weight = 0;  // w_tk_i
};

struct CosineResult {
  double cosine = 0;             // eq. 4, in [0, 1]
  int total_terms = 0;           // sum_k n_jk
  std::vector<TermWeight> terms;  // topic terms present, by contribution
};

// How often each topic term occurs in a tokenised text.
struct TopicCounts {
  std::vector<int> counts;  // parallel to TopicVector::terms
  int total = 0;            // number of tokens (sum_k n_jk)
};
TopicCounts CountTopicTerms(const TopicVector& topic,
                            const std::vector<std::string>& tokens);

// Eq. 3 + 4 for a tokenised text against the topic vector.
CosineResult TopicCosine(const TopicVector& topic, const TopicCounts& counts,
                         const DocumentFrequencies& df);
CosineResult TopicCosine(const TopicVector& topic,
                         const std::vector<std::string>& tokens,
                         const DocumentFrequencies& df);

// The topic terms present in a text (what a scorer passes to
// ObserveDocument when only topic-term frequencies are needed).
std::vector<std::string> DistinctTopicTerms(const TopicVector& topic,
                                            const TopicCounts& counts);

}  // namespace topicrawl

#endif  // TOPICRAWL_TEXT_TFIDF_H_
