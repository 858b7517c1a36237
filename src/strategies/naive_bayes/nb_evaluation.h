// The offline analyses of seed 001 (001_596420367c7d3764 §3.2.1, §4.2):
// precision / recall / F1 / accuracy of a classifier on the labelled test
// links (tables 1 and 2), and the Kullback-Leibler distance between the word
// distributions of pages and of link contexts (eq. 3-5).
#ifndef TOPICRAWL_STRATEGIES_NAIVE_BAYES_NB_EVALUATION_H_
#define TOPICRAWL_STRATEGIES_NAIVE_BAYES_NB_EVALUATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "classify/naive_bayes.h"
#include "strategies/naive_bayes/link_dataset.h"
#include "text/utf8_util.h"

namespace topicrawl {

// Confusion counts with "+" (on topic) as the positive class.
struct BinaryMetrics {
  int64_t tp = 0, fp = 0, tn = 0, fn = 0;

  void Add(bool predicted_positive, bool actual_positive);
  int64_t total() const { return tp + fp + tn + fn; }
  // 0 when the denominator is 0.
  double precision() const;  // tp / (tp + fp)
  double recall() const;     // tp / (tp + fn)
  double f1() const;         // harmonic mean of precision and recall
  double accuracy() const;   // (tp + tn) / total
};

// Training (seed 001 §4.2): a binary-event link model on feature group 1 or
// 2 from the labelled links with split == `split` (kNone: every labelled
// link); a multinomial page model from the labelled pages likewise. The
// dictionary is stored in the model.
NaiveBayes TrainLinkModel(const std::vector<LinkExample>& links, int group,
                          Split split, const std::vector<std::string>& dictionary);
NaiveBayes TrainPageModel(const std::vector<PageExample>& pages, Split split,
                          const std::vector<std::string>& dictionary);

// How a model reads a link when it is evaluated.
enum class LinkView {
  kFeatures,   // the model's own feature group (link-trained models)
  kPageWords,  // anchor + context words as page words (table 2)
};
// Confusion counts over the labelled links with split == `split`;
// predicted positive when P(+|x) >= 0.5 (the argmax of eq. 1).
BinaryMetrics EvaluateLinks(const NaiveBayes& model, const std::vector<LinkExample>& links,
                            Split split, LinkView view);

// Word occurrence counts of a collection of texts.
using WordCounts = StringMap<int64_t>;
void AddWords(const std::vector<std::string>& words, WordCounts* counts);

// Seed 001 eq. 3-5. Only the words that occur in BOTH collections are kept
// (§3.2.1: "保留兩個集合交集中的單詞,去除其他單詞"); on that common vocabulary
//   P(W) = C(W, set) / sum_{W' common} C(W', set)             (eq. 3, 4)
//   KL(P || Q) = sum_W P(W) log(P(W) / Q(W))                  (eq. 5)
// No smoothing is needed: both probabilities of every common word are > 0.
// The log is natural (nats); `bits` = nats / ln 2. The seed does not say
// which base its 2.0865 uses.
struct KlResult {
  double nats = 0;
  double bits = 0;
  size_t vocabulary_p = 0;  // distinct words in P's collection
  size_t vocabulary_q = 0;
  size_t common = 0;        // words in both
  int64_t tokens_p = 0;     // occurrences of common words
  int64_t tokens_q = 0;
};
KlResult KlDivergence(const WordCounts& p, const WordCounts& q);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_NAIVE_BAYES_NB_EVALUATION_H_
