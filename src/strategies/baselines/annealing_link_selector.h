// Simulated-annealing link selection (strategy "annealing"), the SA / FCSA-
// host baseline of seed 000 (refs. [16], [28]): each selection compares a
// neighbour link with the queue's best and takes the worse neighbour with
// probability exp(-delta / T), T cooling geometrically. The .cc documents
// the step and the schedule.
#ifndef TOPICRAWL_STRATEGIES_BASELINES_ANNEALING_LINK_SELECTOR_H_
#define TOPICRAWL_STRATEGIES_BASELINES_ANNEALING_LINK_SELECTOR_H_

#include <cstdint>
#include <memory>
#include <random>

#include "core/status.h"
#include "frontier/link_selector.h"

namespace topicrawl {

struct AnnealingOptions {
  double t0 = 0.2;       // initial temperature (energies are R(l) in [0, 1])
  double rate = 0.9998;  // T_k = T0 * rate^k per selection
  double t_min = 0.001;  // floor of T
  // Checked ranges; an error names the field.
  Status Validate() const;
  // T_k = max(t0 * rate^k, t_min).
  double Temperature(int64_t step) const;
};

struct AnnealingStats {
  int64_t steps = 0;            // selections made (k)
  int64_t equal_or_better = 0;  // the neighbour was no worse than the best
  int64_t worse_accepted = 0;   // a worse neighbour taken (exp(-delta/T))
  int64_t best_taken = 0;       // the neighbour refused, the best served
};

// Shared with the caller for reporting and saved state; crawl thread only.
// The temperature is a function of stats.steps; the RNG lives here so a
// restored state continues the same random sequence.
struct AnnealingState {
  explicit AnnealingState(const AnnealingOptions& o, uint64_t seed = 1)
      : options(o), rng(seed) {}
  AnnealingOptions options;
  AnnealingStats stats;
  std::mt19937_64 rng;
};

// The state's RNG is used (options.seed is not). REQUIRES: state != nullptr.
std::unique_ptr<LinkSelector> NewAnnealingLinkSelector(
    const LinkSelectorOptions& options, std::shared_ptr<AnnealingState> state);
// The same with a fresh state of default parameters seeded by options.seed.
std::unique_ptr<LinkSelector> NewAnnealingLinkSelector(
    const LinkSelectorOptions& options);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_BASELINES_ANNEALING_LINK_SELECTOR_H_
