// SharkSearchLinkScorer: the potential score of Shark-search (M. Hersovici,
// M. Jacovi, Y. S. Maarek, D. Pelleg, M. Shtalhaim, S. Ur, "The shark-search
// algorithm. An application: tailored Web site mapping", WWW7, 1998), the
// baseline of seed 002's experiments. For a child link of page `current`:
//
//   inherited(child) = delta * sim(current)        if current is relevant
//                      delta * inherited(current)  otherwise
//   anchor_score     = sim(anchor text)
//   anchor_context   = 1                           if anchor_score > 0
//                      sim(text around the anchor) otherwise
//   neighbourhood    = beta * anchor_score + (1 - beta) * anchor_context
//   potential(child) = gamma * inherited(child) + (1 - gamma) * neighbourhood
//
// sim() is the topic cosine of seed 000 eq. 3-4 (the paper's vector-space
// similarity), sim(current) is the parent's R(P). "Relevant" means
// sim(current) > relevance_threshold (0: any match, as in the paper).
// Depth (inherited from fish-search): a child of a relevant page gets the
// full depth D; a child of an irrelevant page gets the parent's depth - 1;
// a child whose depth would drop below 0 is cut (LinkScore::admit = false).
//
// Parameters, read from the topic's [strategy.shark-search] table (unknown
// keys are an error):
//   delta = 0.5   decay of the inherited score
//   beta  = 0.8   anchor vs anchor-context weight
//   gamma = 0.8   inherited vs neighbourhood weight
//   depth = 3     D, how far the crawl follows irrelevant pages
//   relevance_threshold = 0.0
//   context = "context"  anchor context: Outlink::context (seed 001 window)
//                        or "dom_context" (seed 004 DOM neighbourhood)
//
// The parent's inherited score and depth travel with the child's task:
// LinkScore::carry must be stored with the child (CrawlTask) and passed back
// as LinkParent::carry when the child's own links are scored. A parent
// without a carry (a seed) counts as inherited 0 and depth D.
#ifndef TOPICRAWL_STRATEGIES_BASELINES_SHARK_SEARCH_LINK_SCORER_H_
#define TOPICRAWL_STRATEGIES_BASELINES_SHARK_SEARCH_LINK_SCORER_H_

#include <memory>

#include "core/status.h"
#include "scoring/scorer.h"
#include "scoring/topic_relevance.h"

namespace topicrawl {

struct SharkSearchParams {
  double delta = 0.5;
  double beta = 0.8;
  double gamma = 0.8;
  int depth = 3;
  double relevance_threshold = 0.0;
  bool use_dom_context = false;

  // From a [strategy.shark-search] table; errors name the bad key.
  static StatusOr<SharkSearchParams> FromStrategy(const StrategyParams& params);
};

class SharkSearchLinkScorer : public LinkScorer {
 public:
  SharkSearchLinkScorer(std::shared_ptr<const TopicRelevance> relevance,
                        SharkSearchParams params)
      : relevance_(std::move(relevance)), params_(params) {}
  // Reads the parameters from relevance->topic().Strategy("shark-search").
  static StatusOr<std::unique_ptr<SharkSearchLinkScorer>> Create(
      std::shared_ptr<const TopicRelevance> relevance);

  // parts: "inherited", "anchor", "context", "neighbourhood", "parent".
  LinkScore Score(const Outlink& link, const LinkParent& parent) const override;
  LinkContextNeeds NeededContexts() const override {
    return {!params_.use_dom_context, params_.use_dom_context};
  }

  // The carry for a seed (inherited 0, full depth).
  LinkCarry SeedCarry() const { return {0.0, params_.depth}; }
  const SharkSearchParams& params() const { return params_; }

 private:
  std::shared_ptr<const TopicRelevance> relevance_;
  SharkSearchParams params_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_BASELINES_SHARK_SEARCH_LINK_SCORER_H_
