// Regional competition + roulette wheel, seed 000 section 2.3:
//   1) the queue is split into regions by host;
//   2) the region with the highest mean link relevance R(l) wins;
//   3) inside the winner, a link is drawn by roulette-wheel selection on
//      R(l) (eq. 5), implemented by stochastic acceptance [23].
// This is the proposal step (X2) of the Wang-Landau crawler (Algorithm 1,
// step 4); the WL acceptance test lives in its own selector built on top.
#include <random>

#include "frontier/link_selector.h"

namespace topicrawl {
namespace {

class RegionRouletteLinkSelector : public LinkSelector {
 public:
  explicit RegionRouletteLinkSelector(const LinkSelectorOptions& options)
      : rng_(options.seed), max_draws_(options.max_sample_draws) {}

  std::string_view Name() const override { return "region-roulette"; }
  // Heap order by score keeps each region's max exact (the wheel's s_max)
  // and makes the fallback (Top) the region's best link.
  double Priority(double score, uint64_t /*seq*/) const override {
    return score;
  }
  bool PriorityFollowsScore() const override { return true; }

  std::optional<LinkRef> Select(const SelectionView& view) override {
    std::optional<HostId> region = view.BestMeanHost();
    if (!region) return std::nullopt;
    return SampleByScore(view, *region, rng_, max_draws_);
  }

 private:
  std::mt19937_64 rng_;
  int max_draws_;
};

}  // namespace

std::unique_ptr<LinkSelector> NewRegionRouletteLinkSelector(
    const LinkSelectorOptions& options) {
  return std::make_unique<RegionRouletteLinkSelector>(options);
}

}  // namespace topicrawl
