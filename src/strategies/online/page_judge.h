// SelfTrainedJudge: the relevance judge of strategy `online` when `judge =
// "self-trained"`: a page classifier that starts from the topic and retrains
// on the crawl's own confident pages (self-training, Yarowsky 1995; as ACHE
// retrains its page classifier online).
//
//   P(c | P) = sigmoid(logit(min(0.99, R(P) / (2 beta))) + w . x(P))
//
// with R(P) the topic cosine (seed 000 eq. 3-4) as the prior margin (so an
// untrained judge says 0.5 exactly at R(P) = beta) and x(P) hashed words of
// the title, the headings and the text (no URL, host or directory: see
// page_judge.cc). After each page: an FTRL-proximal step (ftrl.h) towards 1 when
// R(P) >= beta, towards 0 when R(P) <= negative_fraction * beta, none in
// between (those are the pages the judge decides). The judged relevance is
//   J(P) = max(R(P), beta * P(c|P) / threshold)
// so J(P) >= beta iff the cosine or the classifier says relevant.
//
// Thread-safe (a lock inside): Judge() runs on the parse pool.
#ifndef TOPICRAWL_STRATEGIES_ONLINE_PAGE_JUDGE_H_
#define TOPICRAWL_STRATEGIES_ONLINE_PAGE_JUDGE_H_

#include <mutex>
#include <string>
#include <vector>

#include "core/crawl_task.h"
#include "strategies/online/ftrl.h"

namespace topicrawl {

struct PageScore;

// The topic-term density of a page: D(P) = sum_t w_t n_t / max(N, N0), the
// topic weights of the topic terms it contains times their counts, over its
// N tokens (one topic term of weight 1 in every 100 words: D = 0.01). Unlike
// the cosine R(P), which is computed over the topic terms alone, it falls
// with the page's other text: one "http" in a 1,000-word page gives
// R = 0.30 and D = 0.0007. A page shorter than N0 tokens counts as N0 long:
// a few words are weak evidence (a 9-word page with one keyword would
// otherwise weigh as a long page full of them).
double TopicDensity(const PageScore& score, int min_tokens);

// The judge `judge = "density"`: J(P) = min(1, beta D(P) / D0), so a page is
// judged relevant (J >= beta) iff D(P) >= D0.
struct DensityJudgeParams {
  double d0 = 0.01;      // judge_density
  int min_tokens = 100;  // judge_min_tokens: N0
};
double DensityRelevance(const PageScore& score, double beta, const DensityJudgeParams& params);

struct SelfTrainedJudgeParams {
  FtrlParams ftrl;                 // judge_alpha, judge_bits (lambda as the link model)
  double threshold = 0.5;          // P(c|P) >= it: relevant
  double negative_fraction = 0.25; // R(P) <= it * beta: a confident negative
  size_t max_words = 400;          // text words per page
};

struct Judgement {
  double probability = 0;  // P(c | P)
  double relevance = 0;    // J(P)
  std::vector<HashedFeature> features;  // for Train
};

class SelfTrainedJudge {
 public:
  SelfTrainedJudge(const SelfTrainedJudgeParams& params, double beta);

  Judgement Judge(const ParsedPage& page, double cosine) const;
  // The self-training step for a judged page of topic cosine R(P).
  void Train(const Judgement& j, double cosine);

  uint64_t positives() const { return positives_; }
  uint64_t negatives() const { return negatives_; }
  size_t MemoryBytes() const { return model_.MemoryBytes(); }
  void Save(StateWriter* out) const;
  Status Restore(StateReader* in);

 private:
  double Margin(double cosine) const;

  SelfTrainedJudgeParams params_;
  double beta_;
  mutable std::mutex mu_;
  FtrlProximal model_;  // guarded by mu_
  uint64_t positives_ = 0, negatives_ = 0;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_ONLINE_PAGE_JUDGE_H_
