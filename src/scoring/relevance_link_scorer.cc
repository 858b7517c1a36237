#include "scoring/relevance_link_scorer.h"

#include <nlohmann/json.hpp>

#include "scoring/explanation.h"

namespace topicrawl {

RelevanceLinkScorer::RelevanceLinkScorer(
    std::shared_ptr<const TopicRelevance> relevance)
    : RelevanceLinkScorer(relevance, relevance->topic().alpha) {}

RelevanceLinkScorer::RelevanceLinkScorer(
    std::shared_ptr<const TopicRelevance> relevance, double alpha)
    : relevance_(std::move(relevance)), alpha_(alpha) {}

LinkScore RelevanceLinkScorer::Score(const Outlink& link,
                                     const LinkParent& parent) const {
  CosineResult anchor = relevance_->Cosine(link.anchor);
  const double parent_r = parent.page ? parent.page->relevance : 0.0;
  LinkScore s;
  s.score = alpha_ * anchor.cosine + (1 - alpha_) * parent_r;  // eq. 5
  s.parts = {{"anchor", anchor.cosine}, {"parent", parent_r}};
  s.carry = parent.carry;
  nlohmann::json j = ExplanationBase(s);
  j["alpha"] = alpha_;
  j["anchor_terms"] = TermsJson(anchor.terms);
  s.explanation = DumpCompact(j);
  return s;
}

}  // namespace topicrawl
