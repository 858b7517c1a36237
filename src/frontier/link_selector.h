// LinkSelector: the strategy's choice of the next link among the hosts that
// may be fetched now. One small interface per role (STYLE.md): the Frontier
// owns queues and politeness; the selector only decides *which* queued link
// of a *ready* host goes next.
//
// The Frontier keeps, per host, an indexed binary heap of queued links ordered
// by (priority desc, discovery seq asc). The selector defines the priority of
// a link (Priority()) and picks a link through a SelectionView, which exposes
// only hosts that are ready (politeness allows a request now, not held) and
// non-empty. Primitives and their costs (H = ready hosts, n = host queue):
//   GlobalBest()      best priority over all ready hosts          O(1)
//   BestMeanHost()    ready host with the highest mean score      O(1)
//                     (seed 000 section 2.3, "regional competition")
//   Top(h), At(ref)   the host's best entry, any entry by slot    O(1)
//   Stats(h)          count / sum / max of scores                 O(1)
//   SampleByScore()   roulette wheel within a host by stochastic acceptance
//                     (Lipowski & Lipowska 2012)  expected O(s_max / s_mean)
// The Frontier maintains the two host orders incrementally (O(log H) per
// change), so a selection step costs O(1) + the sampling, independent of the
// number of queued links.
//
// Generic selectors (one file each, explicit registry below):
//   "bfs"             FIFO by discovery order across hosts (priority = -seq)
//   "best-first"      global highest score (seed 001's ordered frontier)
//   "region-roulette" seed 000 section 2.3: host with highest mean score,
//                     then roulette on R(l) inside it
// A strategy's own selectors live in its family and are built by the
// strategy, not named here: strategies/wang_landau/wang_landau_link_selector.h
// (seed 000 Algorithm 1), strategies/baselines/annealing_link_selector.h.
#ifndef TOPICRAWL_FRONTIER_LINK_SELECTOR_H_
#define TOPICRAWL_FRONTIER_LINK_SELECTOR_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/crawl_task.h"
#include "core/status.h"

namespace topicrawl {

// A queued link addressed by its host and its slot in the host's heap. Valid
// only during the Select() call that produced it.
struct LinkRef {
  HostId host = 0;
  uint32_t slot = 0;
  bool operator==(const LinkRef&) const = default;
};

// What a selector may read about a queued link.
struct LinkInfo {
  UrlId url_id = 0;
  double score = 0;     // the scorer's R(l)
  double priority = 0;  // the heap key (LinkSelector::Priority)
  uint64_t seq = 0;     // global discovery order, 0 = first link ever added
  uint32_t depth = 0;
};

// Per-host aggregates, maintained incrementally by the Frontier.
struct HostStats {
  size_t count = 0;      // queued links, in RAM and spilled
  size_t in_ram = 0;     // queued links in RAM (selectable now)
  double sum_score = 0;  // over all `count` links
  // Upper bound of the scores of the in-RAM links. Exact when the selector's
  // priority is the score (best-first, region-roulette); otherwise the
  // largest score since the host queue was last empty.
  double max_score = 0;
  double mean_score() const { return count ? sum_score / count : 0.0; }
};

// Read-only selection primitives over the ready, non-empty hosts. Implemented
// by the Frontier (and by fakes in tests). Valid only during Select().
class SelectionView {
 public:
  virtual ~SelectionView() = default;
  virtual size_t ReadyHosts() const = 0;
  // nullopt when no host is ready.
  virtual std::optional<LinkRef> GlobalBest() const = 0;
  // Ready host with the highest mean score (ties: lower HostId).
  virtual std::optional<HostId> BestMeanHost() const = 0;
  // REQUIRES (all below): `host` is ready; `ref.slot` < Stats(host).in_ram.
  virtual HostStats Stats(HostId host) const = 0;
  virtual LinkRef Top(HostId host) const = 0;
  virtual LinkInfo At(LinkRef ref) const = 0;
  // At(ref).score, possibly rounded to float; the cheap read for sampling
  // (reads only the host's contiguous heap array).
  virtual double ScoreAt(LinkRef ref) const { return At(ref).score; }
};

// Roulette-wheel choice of an in-RAM link of `host` with probability
// proportional to max(score, 0), by stochastic acceptance: draw a uniform
// slot i, accept with probability s_i / s_max, repeat. Expected draws
// s_max / s_mean. After `max_draws` rejections (or when all scores are <= 0)
// returns Top(host) — a bounded-time fallback, reported by *fell_back.
LinkRef SampleByScore(const SelectionView& view, HostId host,
                      std::mt19937_64& rng, int max_draws = 64,
                      bool* fell_back = nullptr);

class LinkSelector {
 public:
  virtual ~LinkSelector() = default;
  // The registry name ("bfs", ...).
  virtual std::string_view Name() const = 0;
  // Heap key of a link; higher is served first, ties in discovery order.
  // Called when a link is queued or re-scored. Must be a pure function.
  virtual double Priority(double score, uint64_t seq) const = 0;
  // True when Priority() is increasing in score (lets the Frontier keep the
  // per-host max score exact from the heap top).
  virtual bool PriorityFollowsScore() const = 0;
  // Chooses the link to hand out next. Only called when view.ReadyHosts() > 0;
  // returning nullopt means "nothing now" (Next() then returns nullopt).
  virtual std::optional<LinkRef> Select(const SelectionView& view) = 0;
};

struct LinkSelectorOptions {
  uint64_t seed = 1;       // RNG seed of sampling selectors (reproducible runs)
  int max_sample_draws = 64;  // stochastic-acceptance cap before the fallback
};

// The explicit registry. Unknown names fail with a message listing the
// known ones.
StatusOr<std::unique_ptr<LinkSelector>> MakeLinkSelector(
    std::string_view name, const LinkSelectorOptions& options = {});
std::vector<std::string> LinkSelectorNames();

// Direct constructors (the registry calls these).
std::unique_ptr<LinkSelector> NewBfsLinkSelector();
std::unique_ptr<LinkSelector> NewBestFirstLinkSelector();
std::unique_ptr<LinkSelector> NewRegionRouletteLinkSelector(
    const LinkSelectorOptions& options);

}  // namespace topicrawl

#endif  // TOPICRAWL_FRONTIER_LINK_SELECTOR_H_
