// Algorithm 1 of seed 000 on the frontier. The seed's loop and ours:
//
//   seed step                                   here
//   1) init: i = 0, f0 = e, L = 0, S = {}        WangLandauDensity(options)
//   2) X1 = queue head (highest R(l));           first Select(): X1 = GlobalBest,
//      S += [E1], H([E1]) = 1, g(E1) = 1         Visit(bin(E1)); X1 stays queued
//   3) DP < 15000 && queue non-empty: m = 0      the crawler's page budget and
//                                                empty-queue stop; each Select()
//                                                starts with m = 0
//   4) X2 = regional competition (2.3), L++     BestMeanHost + SampleByScore
//   5) new [E2]: g = 1, H = 1, S += [E2];        Visit(bin(E2)); AcceptProbability
//      P = min(e^(ln g(E1) - ln g(E2)), 1)
//   6) accept: X1 = X2, ln g(E2) += ln f,        Update(bin(E2)); X2 is handed out
//      H(E2)++  -> 8
//      reject: ln g(E1) += ln f, H(E1)++, m++   Update(bin(E1))
//   7) m >= 5: X1 = queue best -> 8; else -> 4  GlobalBest is handed out
//   8) take X1 out of the queue, expand it       Select() returns X1; the crawler
//      (children with R(l) >= 0.2, deduped)      fetches it, the strategy's Assess
//                                                admits children (R(l) >= 0.2 or
//                                                PR >= 2), the Frontier dedups
//   9) count LP (R(P) >= beta)                   the crawler / eval
//  10) L % T == 0: flat? f = sqrt f -> 11        at the end of Select(), when L
//      else -> 3                                 passed a multiple of T (see below)
//  11) L < 1e6: H = 0 over S, keep g -> 3        Refine(); at max_steps the walk
//      else stop                                 ends (queue best served after)
//
// So one Select() is one pass 3 -> 8 of the seed's loop: between 1 and
// max_rejections Monte Carlo steps, and exactly one link handed out. The
// link handed out is always X1 after the pass (the accepted X2, or the
// queue's best after m >= 5 rejections), and it remains the walk's current
// state (its energy E1) for the next pass although it has left the queue, as
// in the seed, where X1 is removed from Queue in step 8 and still compared
// against in step 5.
//
// Step 10 tests "L % T == 0" once per pass, after step 8; L grows by 1..5 per
// pass, so the literal test would skip most multiples of T. We test whenever
// L crossed a multiple of T during the pass, i.e. once per T steps.
//
// The queue the seed sees is the whole frontier; ours is the set of ready
// hosts (politeness). With no delays they coincide.
#include "strategies/wang_landau/wang_landau_link_selector.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace topicrawl {

StatusOr<FlatnessRule> ParseFlatnessRule(std::string_view name) {
  if (name == "ln2") return FlatnessRule::kLn2OverLnF;
  if (name == "mean") return FlatnessRule::kMeanFraction;
  if (name == "both") return FlatnessRule::kBoth;
  return Status::Error("unknown flatness rule '" + std::string(name) +
                       "'; known: ln2, mean, both");
}

std::string_view FlatnessRuleName(FlatnessRule rule) {
  switch (rule) {
    case FlatnessRule::kLn2OverLnF: return "ln2";
    case FlatnessRule::kMeanFraction: return "mean";
    case FlatnessRule::kBoth: return "both";
  }
  return "?";
}

Status WangLandauOptions::Validate() const {
  if (bins < 1 || bins > 100000) return Status::Error("wang-landau: bins must be in 1..100000");
  if (!(ln_f0 > 0) || !std::isfinite(ln_f0)) return Status::Error("wang-landau: ln_f0 must be > 0");
  if (max_rejections < 1) return Status::Error("wang-landau: max_rejections must be >= 1");
  if (check_every < 1) return Status::Error("wang-landau: check_every must be >= 1");
  if (!(flatness_k > 0 && flatness_k < 1)) {
    return Status::Error("wang-landau: flatness_k must be in (0, 1)");
  }
  if (max_steps < 1) return Status::Error("wang-landau: max_steps must be >= 1");
  return Status::Ok();
}

// ---- WangLandauDensity ------------------------------------------------------

WangLandauDensity::WangLandauDensity(const WangLandauOptions& options)
    : options_(options),
      width_(1.0 / options.bins),
      ln_f_(options.ln_f0),
      ln_g_(options.bins, 0.0),
      h_(options.bins, 0.0),
      visited_(options.bins, false),
      in_iteration_(options.bins, false) {}

int WangLandauDensity::Bin(double energy) const {
  if (!(energy > 0)) return 0;  // also NaN
  // The epsilon keeps edges exact: 0.62 / 0.02 is 30.999... in binary, but
  // the seed puts 0.62 in [0.62, 0.64).
  int bin = static_cast<int>(std::floor(energy / width_ + 1e-9));
  return std::min(bin, bins() - 1);
}

void WangLandauDensity::Visit(int bin) {
  if (visited_[bin]) return;
  visited_[bin] = true;
  in_iteration_[bin] = true;
  ln_g_[bin] = 0.0;
  h_[bin] = 1.0;
}

double WangLandauDensity::AcceptProbability(int b1, int b2) const {
  return std::min(std::exp(ln_g_[b1] - ln_g_[b2]), 1.0);
}

void WangLandauDensity::Update(int bin) {
  ln_g_[bin] += ln_f_;
  h_[bin] += 1.0;
  in_iteration_[bin] = true;
}

int WangLandauDensity::IterationBins() const {
  return static_cast<int>(std::count(in_iteration_.begin(), in_iteration_.end(), true));
}

// Why the current iteration and not all of S (docs/strategies/wang-landau.md): the
// literal reading of step 10 ("every [E] in S") with step 11's reset of H
// over S means a bin the walk can no longer reach keeps H = 0 forever and
// ln f is halved at most once. That happened in every measured crawl: the
// first X1 is a seed (R = 1.0, bin 49), no real link reaches R(l) >= 0.98,
// so after the first refinement the test never passed again (final ln f =
// 0.5 in all runs). Wang & Landau (2001) test flatness over the energies
// the walk visits; with an unknown range that is the set with H > 0 in the
// current iteration.
bool WangLandauDensity::IsFlat() const {
  double sum = 0, min = 0;
  int n = 0;
  for (int b = 0; b < bins(); ++b) {
    if (!in_iteration_[b]) continue;
    min = n == 0 ? h_[b] : std::min(min, h_[b]);
    sum += h_[b];
    ++n;
  }
  if (n == 0) return false;
  const bool ln2 = min >= std::log(2.0) / ln_f_;
  const bool mean = min >= options_.flatness_k * (sum / n);
  switch (options_.flatness) {
    case FlatnessRule::kLn2OverLnF: return ln2;
    case FlatnessRule::kMeanFraction: return mean;
    case FlatnessRule::kBoth: return ln2 && mean;
  }
  return false;
}

void WangLandauDensity::Refine() {
  ln_f_ /= 2;  // f_{i+1} = sqrt(f_i)
  ++refinements_;
  for (int b = 0; b < bins(); ++b) {
    if (visited_[b]) h_[b] = 0.0;
  }
  std::fill(in_iteration_.begin(), in_iteration_.end(), false);
}

WangLandauDensity::Raw WangLandauDensity::raw() const {
  return Raw{ln_f_, refinements_, ln_g_, h_, visited_, in_iteration_};
}

Status WangLandauDensity::SetRaw(Raw raw) {
  const size_t n = static_cast<size_t>(bins());
  if (raw.ln_g.size() != n || raw.h.size() != n || raw.visited.size() != n ||
      raw.in_iteration.size() != n) {
    return Status::Error("wang-landau state: " + std::to_string(raw.ln_g.size()) +
                         " energy bins saved, this walk has " + std::to_string(n) +
                         " (bins changed?)");
  }
  if (!(raw.ln_f > 0) || !std::isfinite(raw.ln_f) || raw.refinements < 0) {
    return Status::Error("wang-landau state: bad ln f or refinement count");
  }
  for (size_t b = 0; b < n; ++b) {
    if (!std::isfinite(raw.ln_g[b]) || !(raw.h[b] >= 0) || !std::isfinite(raw.h[b])) {
      return Status::Error("wang-landau state: bad ln g or H in bin " + std::to_string(b));
    }
  }
  ln_f_ = raw.ln_f;
  refinements_ = raw.refinements;
  ln_g_ = std::move(raw.ln_g);
  h_ = std::move(raw.h);
  visited_ = std::move(raw.visited);
  in_iteration_ = std::move(raw.in_iteration);
  return Status::Ok();
}

// ---- The selector -------------------------------------------------------------

namespace {

class WangLandauLinkSelector : public LinkSelector {
 public:
  WangLandauLinkSelector(const LinkSelectorOptions& options,
                         std::shared_ptr<WangLandauState> state)
      : max_draws_(options.max_sample_draws),
        state_(std::move(state)) {}

  std::string_view Name() const override { return "wang-landau"; }
  double Priority(double score, uint64_t /*seq*/) const override {
    return score;
  }
  bool PriorityFollowsScore() const override { return true; }

  std::optional<LinkRef> Select(const SelectionView& view) override {
    std::optional<LinkRef> best = view.GlobalBest();
    if (!best) return std::nullopt;
    WangLandauDensity& dos = state_->density;
    WangLandauStats& stats = state_->stats;
    if (stats.steps >= state_->options.max_steps) {  // step 11: walk over
      ++stats.after_walk;
      return best;
    }
    std::mt19937_64& rng = state_->rng;
    double& e1 = state_->e1;
    if (!state_->started) {  // step 2
      e1 = view.At(*best).score;
      dos.Visit(dos.Bin(e1));
      state_->started = true;
    }
    const int64_t l_before = stats.steps;
    std::optional<LinkRef> chosen;
    pass_.clear();
    for (int m = 0; !chosen;) {  // step 3: m = 0
      std::optional<HostId> region = view.BestMeanHost();  // step 4
      if (!region) return best;
      LinkRef x2 = SampleByScore(view, *region, rng, max_draws_);
      WangLandauStep step;
      step.e1 = e1;
      step.e2 = view.At(x2).score;
      step.ln_f = dos.ln_f();
      step.step = ++stats.steps;
      const int b1 = dos.Bin(e1), b2 = dos.Bin(step.e2);
      dos.Visit(b2);  // step 5
      const double p = dos.AcceptProbability(b1, b2);
      if (coin_(rng) < p) {  // step 6, accepted
        step.accepted = true;
        ++stats.accepted;
        dos.Update(b2);
        e1 = step.e2;
        chosen = x2;
      } else {  // step 6, rejected
        ++stats.rejected;
        dos.Update(b1);
        if (++m >= state_->options.max_rejections) {  // step 7
          ++stats.forced_best;
          e1 = view.At(*best).score;
          // The new X1's bin joins S as in step 2 when it is new.
          dos.Visit(dos.Bin(e1));
          chosen = best;
        }
      }
      pass_.push_back(step);
      if (stats.steps >= state_->options.max_steps && !chosen) chosen = best;
    }
    CheckFlatness(l_before);
    if (state_->on_step) {
      for (const WangLandauStep& s : pass_) state_->on_step(s);
    }
    return chosen;
  }

 private:
  // Step 10, once per multiple of T crossed by this pass; the result is
  // marked on the pass's last step. Step 11: H is reset after a flat test
  // (Refine); past max_steps the walk ends anyway.
  void CheckFlatness(int64_t l_before) {
    const int64_t t = state_->options.check_every;
    if (l_before / t == state_->stats.steps / t) return;
    ++state_->stats.flat_checks;
    if (!state_->density.IsFlat()) return;
    state_->density.Refine();
    ++state_->stats.refinements;
    pass_.back().flat = true;
  }

  std::uniform_real_distribution<double> coin_{0.0, 1.0};
  int max_draws_;
  std::shared_ptr<WangLandauState> state_;
  std::vector<WangLandauStep> pass_;
};

}  // namespace

std::unique_ptr<LinkSelector> NewWangLandauLinkSelector(
    const LinkSelectorOptions& options, std::shared_ptr<WangLandauState> state) {
  return std::make_unique<WangLandauLinkSelector>(options, std::move(state));
}

std::unique_ptr<LinkSelector> NewWangLandauLinkSelector(
    const LinkSelectorOptions& options) {
  return NewWangLandauLinkSelector(
      options, std::make_shared<WangLandauState>(WangLandauOptions{}, options.seed));
}

}  // namespace topicrawl
