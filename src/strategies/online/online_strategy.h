// Strategy "online": a link-value model trained online on the crawl's own
// outcomes (docs/strategies/online.md; issue 33).
//
//   reward   r(P) = min(1, J(P) / beta)^k (reward = "graded") or
//            [J(P) >= beta] (reward = "relevant"), J(P) the crawl's own judgement
//            of the fetched page: by default SelfTrainedJudge's (page_judge.h);
//            with judge = "density" the topic-term density's DensityRelevance;
//            with judge = "topic" the topic cosine R(P) (seed 000 eq. 3-4);
//   value    Q(l) = sigmoid(logit(prior(l)) + w . x(l)), x the hashed link
//            features of link_features.h, prior the cold start from the
//            topic: alpha R(anchor) + (1 - alpha) R(parent) (seed 000 eq. 5)
//            plus url_weight R(URL words);
//   learning after every page P reached through link l, one FTRL-proximal
//            step (ftrl.h) towards the one-step Q-learning target
//            y = min(1, r(P) + gamma max_{l' in P} Q(l'))  (Watkins 1989;
//            as deep-deep and TRES, over features instead of a table);
//   priority Bayes-UCB of the link's two groups (group_bandit.h): the
//            target's directory and the link's page region, each with
//            prior Q(l); the higher of the two (optimism under either
//            grouping: a new directory linked from a spent region, or a
//            new region pointing into a spent directory, is still probed);
//   re-scoring every `rescore_every` pages the whole queue is re-scored
//            (Frontier::RescoreAll) from the URL, anchor and depth the queue
//            holds and a LinkSide per queued link in a bounded side table.
#ifndef TOPICRAWL_STRATEGIES_ONLINE_ONLINE_STRATEGY_H_
#define TOPICRAWL_STRATEGIES_ONLINE_ONLINE_STRATEGY_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "crawl/crawl_strategy.h"
#include "scoring/scorer.h"
#include "scoring/topic_relevance.h"
#include "strategies/online/ftrl.h"
#include "strategies/online/group_bandit.h"
#include "strategies/online/link_features.h"
#include "strategies/online/online_params.h"
#include "strategies/online/page_judge.h"

namespace topicrawl {

// The registry's constructor (strategies/strategy_registry.cc).
StatusOr<Strategy> NewOnlineStrategy(const StrategyContext& context);

// Plays both roles (PageJudge, StrategyLearner): the learner re-scores what
// the judge scored, with one model.
class OnlineStrategy : public PageJudge, public StrategyLearner {
 public:
  OnlineStrategy(const OnlineParams& params, std::shared_ptr<TopicRelevance> relevance,
                 const StrategyContext& context);

  StatusOr<std::unique_ptr<LinkSelector>> MakeSelector();
  double Beta() const { return relevance_->topic().beta; }
  void Assess(const CrawlTask& task, const ParsedPage& page, PageAssessment* out) override;
  void OnPageStored(const CrawlTask& task, PageId id, const ParsedPage& page,
                    const PageAssessment& assessment, Frontier* frontier) override;
  Status Finish() override;
  Status SaveState(std::string* blob) const override;
  Status RestoreState(std::string_view blob) override;

  // The reward of a page of relevance R(P).
  double Reward(double relevance) const;
  // Priority of a queued link as the next re-scoring would give it.
  double ScoreQueued(std::string_view url, std::string_view anchor, uint32_t depth) const;
  // Re-scores every queued link now.
  void RescoreQueue(Frontier* frontier);
  const FtrlProximal& model() const { return model_; }
  const GroupBandit& bandit() const { return bandit_; }
  size_t MemoryBytes() const;

 private:
  struct Scored {
    double q = 0, score = 0;
  };
  // Q and priority of a link with features x and cold-start prior.
  // REQUIRES: model_mu_ held (either way).
  Scored ScoreLocked(const std::vector<HashedFeature>& x, double prior, std::string_view url,
                     uint64_t block_group) const;
  LinkSide MakeSide(const Outlink& link, std::string_view parent_host, double parent_relevance,
                    double prior, std::vector<std::string>* context_words) const;
  double Prior(const Outlink& link, double parent_relevance) const;
  // Sets out->relevance to the configured judge's J(P) and appends the
  // judge's figures to out->explanation (params_.judge).
  void JudgePage(const ParsedPage& page, const PageScore& ps, PageAssessment* out);
  std::string Explain(const Scored& s, double prior, const std::vector<HashedFeature>& x,
                      const std::vector<std::string>& names) const;
  void Learn(const CrawlTask& task, double reward);
  void CollectSideGarbage();

  OnlineParams params_;
  std::shared_ptr<TopicRelevance> relevance_;
  std::unique_ptr<PageScorer> page_scorer_;
  std::unique_ptr<SelfTrainedJudge> judge_;  // null: judge = "topic"
  uint64_t rng_seed_;
  std::string out_dir_;
  bool dedup_ignore_scheme_;

  mutable std::shared_mutex model_mu_;  // model_, bandit_: Assess reads, OnPageStored writes
  FtrlProximal model_;
  GroupBandit bandit_;
  LinkFeaturizer featurizer_;

  mutable std::mutex side_mu_;
  absl::flat_hash_map<UrlId, LinkSide> side_;      // guarded by side_mu_
  absl::flat_hash_map<UrlId, double> page_value_;  // guarded by side_mu_: max Q below a page
  std::atomic<uint16_t> generation_{1};

  // Crawl thread only.
  int pages_since_rescore_ = 0;
  uint64_t rescores_ = 0;
  double rescore_seconds_ = 0;
  std::atomic<uint64_t> side_dropped_{0};  // links kept without a side entry (table full)
  uint64_t pages_ = 0;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_ONLINE_ONLINE_STRATEGY_H_
