// Simulated annealing over the frontier (strategy "annealing"; the SA
// baseline of seed 000, ref. [28] He et al. 2009, and with host memory in
// the link scores its FCSA-host baseline, ref. [16]).
//
// Each Select() is one annealing step k = 0, 1, 2, ...:
//   1) X* = the queue's best link (GlobalBest), energy E* = R(l*);
//   2) a neighbour X2: the region of regional competition (the ready host
//      with the highest mean score, seed 000 section 2.3), a uniformly drawn
//      link inside it (any link, not score-weighted: a real "worse move");
//   3) delta = E* - E2 >= 0; X2 is taken with probability exp(-delta / T_k),
//      otherwise X*. (delta <= 0: X2 is at least as good, taken.)
// Cooling schedule: geometric, T_k = max(T0 * rate^k, T_min), k counting
// selections (pages handed out). Defaults T0 = 0.2, rate = 0.9998,
// T_min = 0.001, so T = 0.2 * e^(-k/5000): a link worse than the best by 0.2
// is taken with p = e^-1 = 0.37 at the start, 0.066 after 5000 pages
// (T = 0.074), 0.0007 after 10000 (T = 0.027) and ~0 after 15000 (T = 0.01):
// exploration early, best-first late.
#include "strategies/baselines/annealing_link_selector.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace topicrawl {

Status AnnealingOptions::Validate() const {
  if (!(t0 > 0) || !std::isfinite(t0)) return Status::Error("annealing: t0 must be > 0");
  if (!(rate > 0 && rate <= 1)) return Status::Error("annealing: rate must be in (0, 1]");
  if (!(t_min > 0) || t_min > t0) {
    return Status::Error("annealing: t_min must be in (0, t0]");
  }
  return Status::Ok();
}

double AnnealingOptions::Temperature(int64_t step) const {
  return std::max(t0 * std::pow(rate, static_cast<double>(step)), t_min);
}

namespace {

class AnnealingLinkSelector : public LinkSelector {
 public:
  AnnealingLinkSelector(const LinkSelectorOptions& /*options*/,
                        std::shared_ptr<AnnealingState> state)
      : state_(std::move(state)) {}

  std::string_view Name() const override { return "annealing"; }
  double Priority(double score, uint64_t /*seq*/) const override {
    return score;
  }
  bool PriorityFollowsScore() const override { return true; }

  std::optional<LinkRef> Select(const SelectionView& view) override {
    std::optional<LinkRef> best = view.GlobalBest();
    if (!best) return std::nullopt;
    AnnealingStats& stats = state_->stats;
    const double t = state_->options.Temperature(stats.steps++);
    std::optional<HostId> region = view.BestMeanHost();
    if (!region) return best;
    const HostStats hs = view.Stats(*region);
    if (hs.in_ram == 0) return best;
    std::uniform_int_distribution<uint32_t> slot(
        0, static_cast<uint32_t>(hs.in_ram - 1));
    LinkRef x2{*region, slot(state_->rng)};
    const double delta = view.At(*best).score - view.At(x2).score;
    if (delta <= 0) {
      ++stats.equal_or_better;
      return x2;
    }
    if (coin_(state_->rng) < std::exp(-delta / t)) {
      ++stats.worse_accepted;
      return x2;
    }
    ++stats.best_taken;
    return best;
  }

 private:
  std::uniform_real_distribution<double> coin_{0.0, 1.0};
  std::shared_ptr<AnnealingState> state_;
};

}  // namespace

std::unique_ptr<LinkSelector> NewAnnealingLinkSelector(
    const LinkSelectorOptions& options, std::shared_ptr<AnnealingState> state) {
  return std::make_unique<AnnealingLinkSelector>(options, std::move(state));
}

std::unique_ptr<LinkSelector> NewAnnealingLinkSelector(
    const LinkSelectorOptions& options) {
  return NewAnnealingLinkSelector(
      options, std::make_shared<AnnealingState>(AnnealingOptions{}, options.seed));
}

}  // namespace topicrawl
