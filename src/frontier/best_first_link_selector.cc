// Best-first ("OPS" in seed 000; seed 001's frontier "ordered by score,
// highest first"): the highest-scored link over all ready hosts; equal
// scores leave in discovery order.
#include "frontier/link_selector.h"

namespace topicrawl {
namespace {

class BestFirstLinkSelector : public LinkSelector {
 public:
  std::string_view Name() const override { return "best-first"; }
  double Priority(double score, uint64_t /*seq*/) const override {
    return score;
  }
  bool PriorityFollowsScore() const override { return true; }
  std::optional<LinkRef> Select(const SelectionView& view) override {
    return view.GlobalBest();
  }
};

}  // namespace

std::unique_ptr<LinkSelector> NewBestFirstLinkSelector() {
  return std::make_unique<BestFirstLinkSelector>();
}

}  // namespace topicrawl
