// Wang-Landau sampling over the frontier, seed 000 (000_b5a9e3e8aba53bab),
// section 2.4 and Algorithm 1 (Wang & Landau 2001, ref. [20]).
//
// The walk's states are queued links, the energy of a link is its relevance
// E = R(l) in [0, 1] (eq. 5), cut into `bins` energy bins of equal width
// ([0, 0.02), ..., [0.98, 1] by default). For every visited bin the walk keeps
// ln g (log density of states) and H (visit histogram). A proposal X2 comes
// from regional competition (section 2.3: the ready host with the highest
// mean R(l), then a roulette wheel on R(l) inside it) and is accepted against
// the current link X1 with
//       P(X1 -> X2) = min(exp(ln g(E1) - ln g(E2)), 1),
// so rarely visited energies are favoured. Every T steps the histogram is
// tested for flatness; when flat, ln f is halved and H reset (g is kept).
//
// WangLandauDensity is the bookkeeping alone (testable on known sequences);
// the selector runs Algorithm 1's steps on the frontier's SelectionView, one
// Select() call per page handed out (the .cc maps the steps).
#ifndef TOPICRAWL_STRATEGIES_WANG_LANDAU_WANG_LANDAU_LINK_SELECTOR_H_
#define TOPICRAWL_STRATEGIES_WANG_LANDAU_WANG_LANDAU_LINK_SELECTOR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "frontier/link_selector.h"

namespace topicrawl {

// When is the histogram flat (Algorithm 1 step 10)? Over the bins the walk
// has visited since the last reset of H (the current iteration; see
// WangLandauDensity::IsFlat for why not over all of S):
enum class FlatnessRule {
  kLn2OverLnF,    // "ln2":  every H([E]) >= ln 2 / ln f  (Algorithm 1 as printed)
  kMeanFraction,  // "mean": every H([E]) >= k * mean(H)  (section 2.4's prose)
  kBoth,          // "both": both of the above
};
// "ln2" | "mean" | "both"; an error naming the known values otherwise.
StatusOr<FlatnessRule> ParseFlatnessRule(std::string_view name);
std::string_view FlatnessRuleName(FlatnessRule rule);

struct WangLandauOptions {
  int bins = 50;                 // energy bins over [0, 1] (width 0.02)
  double ln_f0 = 1.0;            // ln f_0 (f_0 = e)
  int max_rejections = 5;        // m: after this many, take the queue's best
  int64_t check_every = 1000;    // T: flatness test every T steps
  FlatnessRule flatness = FlatnessRule::kLn2OverLnF;
  double flatness_k = 0.8;       // k of the "mean" rule, 0 < k < 1
  // L limit (step 11). When reached the walk stops and the selector serves
  // the queue's best link (the crawler itself stops at its page budget).
  int64_t max_steps = 1'000'000;
  // Checked ranges; an error names the field.
  Status Validate() const;
};

// ln g and H per energy bin and the modification factor ln f.
class WangLandauDensity {
 public:
  explicit WangLandauDensity(const WangLandauOptions& options);

  // The bin of an energy; energies outside [0, 1] are clamped into it. The
  // top edge 1.0 belongs to the last bin ("[0.98, 1]").
  int Bin(double energy) const;
  // Steps 2 and 5: a bin seen for the first time joins S with g = 1
  // (ln g = 0) and H = 1. No-op for a visited bin.
  void Visit(int bin);
  bool Visited(int bin) const { return visited_[bin]; }
  // min(exp(ln g(b1) - ln g(b2)), 1). REQUIRES: both bins visited.
  double AcceptProbability(int b1, int b2) const;
  // Step 6: ln g(bin) += ln f and H(bin) += 1.
  void Update(int bin);
  // Step 10: the histogram test of `rule` over the bins of the current
  // iteration: those visited (Visit or Update) since the last Refine().
  // Bins of S that the walk has not entered since then are left out: in a
  // crawl the state space is the queue, which loses its links as they are
  // fetched, so an energy of S may no longer exist (the seeds' R = 1.0, for
  // one); requiring H > 0 there would stop the refinement for good. This is
  // the usual Wang-Landau rule for a walk whose energy range is not known in
  // advance (docs/strategies/wang-landau.md, "Flatness"). False when no bin qualifies.
  bool IsFlat() const;
  // Steps 10-11 after a flat histogram: ln f /= 2 (f = sqrt f), H = 0 over
  // S, a new iteration starts (no bin in it yet); ln g is kept.
  void Refine();
  // Visited (Visit or Update) since the last Refine().
  bool InIteration(int bin) const { return in_iteration_[bin]; }
  // The bins of the current iteration.
  int IterationBins() const;

  int bins() const { return static_cast<int>(ln_g_.size()); }
  double ln_f() const { return ln_f_; }
  int refinements() const { return refinements_; }  // i of f_i
  double ln_g(int bin) const { return ln_g_[bin]; }
  double h(int bin) const { return h_[bin]; }
  // Lower edge of a bin's energy range.
  double Energy(int bin) const { return bin * width_; }
  double width() const { return width_; }

  // The whole bookkeeping, for saving a crawl's state and restoring it.
  struct Raw {
    double ln_f = 0;
    int refinements = 0;
    std::vector<double> ln_g, h;
    std::vector<bool> visited, in_iteration;
  };
  Raw raw() const;
  // An error (nothing changed) when the sizes do not match bins() or a value
  // is not finite / negative where it cannot be.
  Status SetRaw(Raw raw);

 private:
  WangLandauOptions options_;
  double width_;
  double ln_f_;
  int refinements_ = 0;
  std::vector<double> ln_g_;
  std::vector<double> h_;
  std::vector<bool> visited_;
  std::vector<bool> in_iteration_;
};

// One Monte Carlo step of the walk (Algorithm 1 steps 4-6), as logged to
// wl_steps.tsv. `flat` is true on the step at which a flatness test passed.
struct WangLandauStep {
  int64_t step = 0;  // L after the step
  double e1 = 0;     // energy of the current link X1 before the step
  double e2 = 0;     // energy of the proposal X2
  bool accepted = false;
  double ln_f = 0;   // ln f used by the step
  bool flat = false;
};

struct WangLandauStats {
  int64_t steps = 0;         // L
  int64_t accepted = 0;
  int64_t rejected = 0;
  int64_t forced_best = 0;   // step 7: m >= max_rejections, queue best taken
  int64_t flat_checks = 0;   // flatness tests run
  int64_t refinements = 0;   // tests passed (ln f halved)
  int64_t after_walk = 0;    // links served best-first after L reached max_steps
};

// State shared between the selector (owned by the Frontier) and whoever
// reports on it (the wang-landau strategy writes wl_dos.tsv from it). Used
// on the crawl thread only.
// The walk's own position (X1's energy) and its random generator live here
// too, so that a saved and restored state continues the same walk.
struct WangLandauState {
  explicit WangLandauState(const WangLandauOptions& o, uint64_t seed = 1)
      : options(o), density(o), rng(seed) {}
  WangLandauOptions options;
  WangLandauDensity density;
  WangLandauStats stats;
  bool started = false;  // step 2 done: X1 exists
  double e1 = 0;         // energy of the current link X1
  std::mt19937_64 rng;
  // Called for every step, in order (may be empty).
  std::function<void(const WangLandauStep&)> on_step;
};

// The "wang-landau" selector. Priority = score (each host's heap is ordered
// by R(l), so GlobalBest is the queue's best and the roulette's s_max exact).
// `state` may be shared with the caller; it holds the walk's RNG (seeded by
// the state's constructor; options.seed is not used here).
// REQUIRES: state != nullptr.
std::unique_ptr<LinkSelector> NewWangLandauLinkSelector(
    const LinkSelectorOptions& options, std::shared_ptr<WangLandauState> state);
// The same with a fresh state of default parameters seeded by options.seed.
std::unique_ptr<LinkSelector> NewWangLandauLinkSelector(
    const LinkSelectorOptions& options);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_WANG_LANDAU_WANG_LANDAU_LINK_SELECTOR_H_
