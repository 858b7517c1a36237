// Breadth-first baseline (seed 000's "BFS"): links leave in the order they
// were discovered, across all hosts. Discovery order of a breadth-first crawl
// is depth order, so this is a BFS over the link graph up to politeness: a
// host that is not ready is skipped, not waited for.
#include "frontier/link_selector.h"

namespace topicrawl {
namespace {

class BfsLinkSelector : public LinkSelector {
 public:
  std::string_view Name() const override { return "bfs"; }
  // -seq makes the oldest link the best; doubles hold seq exactly below 2^53.
  double Priority(double /*score*/, uint64_t seq) const override {
    return -static_cast<double>(seq);
  }
  bool PriorityFollowsScore() const override { return false; }
  std::optional<LinkRef> Select(const SelectionView& view) override {
    return view.GlobalBest();
  }
};

}  // namespace

std::unique_ptr<LinkSelector> NewBfsLinkSelector() {
  return std::make_unique<BfsLinkSelector>();
}

}  // namespace topicrawl
