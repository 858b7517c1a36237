// TopicStrategy: the shared machinery of strategies driven by a weighted
// topic (seed 000 eq. 3-5): it loads the topic, owns the crawl-time
// document frequencies, scores every page's R(P), and delegates link scores
// to a LinkScorer. Concrete strategies (one file each) choose the selector
// and the link scorer.
#ifndef TOPICRAWL_STRATEGIES_BASELINES_TOPIC_STRATEGY_H_
#define TOPICRAWL_STRATEGIES_BASELINES_TOPIC_STRATEGY_H_

#include <memory>
#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "crawl/crawl_strategy.h"
#include "crawl/state_blob.h"
#include "scoring/scorer.h"
#include "scoring/topic_relevance.h"

namespace topicrawl {

// Plays the judge and learner roles of its Strategy (ComposeTopicStrategy).
class TopicStrategy : public PageJudge, public StrategyLearner {
 public:
  // Loads the topic file named in `context`; an error when it is missing or
  // invalid (`require_topic`), else strategies run topic-less (R(P) = 0).
  static StatusOr<std::shared_ptr<TopicRelevance>> LoadRelevance(
      const StrategyContext& context, bool require_topic);

  // `selector` names a LinkSelector of the selector registry
  // (frontier/link_selector.h); an unknown name makes MakeSelector() fail.
  TopicStrategy(std::string name, std::string selector,
                std::shared_ptr<TopicRelevance> relevance,
                std::unique_ptr<LinkScorer> link_scorer, const StrategyContext& context);

  const std::string& Name() const { return name_; }
  // The selector role (SelectorFactory).
  virtual StatusOr<std::unique_ptr<LinkSelector>> MakeSelector();
  void Assess(const CrawlTask& task, const ParsedPage& page,
              PageAssessment* out) override;
  // beta: the topic's, none without a topic; focus-gated with the
  // best-first selector; link contexts: what the link scorer reads, none
  // without one (bfs). Subclasses adjust them. Read once, after
  // construction.
  virtual StrategyTraits Traits() const;
  // Writes the crawl-time document frequencies to DIR/df.tsv (for
  // `topicrawl score --df-from DIR`). Subclasses that override Finish()
  // call it too.
  Status Finish() override;

  Status SaveState(std::string* blob) const final;
  Status RestoreState(std::string_view blob) final;

 protected:
  // A subclass's part of the saved state, after the "topic" section.
  virtual void SaveMore(StateWriter* /*out*/) const {}
  virtual Status RestoreMore(StateReader* /*in*/) { return Status::Ok(); }

  const std::string& out_dir() const { return out_dir_; }
  uint64_t rng_seed() const { return rng_seed_; }
  // The crawl's de-duplication id of a canonical URL (crawl/dedup.h, with
  // the crawl's dedup_ignore_scheme).
  UrlId Dedup(std::string_view canonical_url) const;

  // Carry (Shark-search inherited score, remaining depth) of a queued URL;
  // strategies that use it set uses_carry_. Thread-safe.
  LinkCarry TakeCarry(UrlId url_id, const LinkCarry& fallback);
  void PutCarry(UrlId url_id, const LinkCarry& carry);

  // Makes Assess() hand each page the carry its discovering link left, and
  // record the carry of every scored outlink. `seed` is what seeds get.
  void EnableCarry(LinkCarry seed) {
    uses_carry_ = true;
    seed_carry_ = seed;
  }
  void SetLinkScorer(std::unique_ptr<LinkScorer> scorer) {
    link_scorer_ = std::move(scorer);
  }
  const std::shared_ptr<TopicRelevance>& relevance() const { return relevance_; }

 private:
  bool uses_carry_ = false;
  LinkCarry seed_carry_;
  std::string name_;
  std::string selector_;
  std::shared_ptr<TopicRelevance> relevance_;  // null: no topic
  std::unique_ptr<PageScorer> page_scorer_;
  std::unique_ptr<LinkScorer> link_scorer_;    // null: every link scores 0
  uint64_t rng_seed_;
  std::string out_dir_;
  bool dedup_ignore_scheme_;
  mutable std::mutex carry_mu_;
  absl::flat_hash_map<UrlId, LinkCarry> carry_;  // guarded by carry_mu_
};

// The Strategy of a fully built TopicStrategy: its name, its traits, and
// the object in the judge, learner and selector roles.
Strategy ComposeTopicStrategy(std::shared_ptr<TopicStrategy> strategy);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_BASELINES_TOPIC_STRATEGY_H_
