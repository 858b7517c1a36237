// RelevanceLinkScorer: link relevance of seed 000 (000_b5a9e3e8aba53bab),
// eq. 5:   R(l) = alpha * R(anchor_l) + (1 - alpha) * R(P_l)
// with R(.) the topic cosine of eq. 3-4 and alpha the topic's `alpha`
// (0.3 in the seed). Used by best-first ("OPS") and Wang-Landau.
//
// P_l: the seed's wording reads as the page l points to, which is unknown
// before download; as in SPEC.md, P_l is the page that CONTAINS l (its
// parent), whose R(P) is LinkParent::page->relevance. R(anchor_l) is the
// cosine of the anchor text (img alt included) with the current document
// frequencies; anchors are not counted as documents. An empty anchor has
// R = 0.
#ifndef TOPICRAWL_SCORING_RELEVANCE_LINK_SCORER_H_
#define TOPICRAWL_SCORING_RELEVANCE_LINK_SCORER_H_

#include <memory>

#include "scoring/scorer.h"
#include "scoring/topic_relevance.h"

namespace topicrawl {

class RelevanceLinkScorer : public LinkScorer {
 public:
  // alpha defaults to relevance->topic().alpha.
  explicit RelevanceLinkScorer(std::shared_ptr<const TopicRelevance> relevance);
  RelevanceLinkScorer(std::shared_ptr<const TopicRelevance> relevance,
                      double alpha);

  // parts: "anchor" = R(anchor_l), "parent" = R(P_l).
  LinkScore Score(const Outlink& link, const LinkParent& parent) const override;
  // Eq. 5 reads the anchor text and the parent page, no context.
  LinkContextNeeds NeededContexts() const override { return {false, false}; }

 private:
  std::shared_ptr<const TopicRelevance> relevance_;
  double alpha_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_SCORING_RELEVANCE_LINK_SCORER_H_
