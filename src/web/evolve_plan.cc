#include "web/evolve_plan.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace topicrawl::web {
namespace {

uint64_t SplitMix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Purposes of the draws (the `c` of PlanHash for page draws).
enum Purpose : uint64_t { kHideOrder = 1, kGoneOrder = 2, kGoneCode = 3, kVolatile = 4, kEdit = 5 };

// Indices sorted by a seeded hash: a shuffle that depends only on the seed
// and the page index.
std::vector<uint32_t> SeededOrder(std::vector<uint32_t> items, uint64_t seed, uint64_t purpose) {
  std::vector<std::pair<uint64_t, uint32_t>> keyed;
  keyed.reserve(items.size());
  for (uint32_t i : items) keyed.emplace_back(PlanHash(seed, i, 0, purpose), i);
  std::sort(keyed.begin(), keyed.end());
  for (size_t k = 0; k < keyed.size(); ++k) items[k] = keyed[k].second;
  return items;
}

size_t RoundCount(double rate, size_t n) {
  return static_cast<size_t>(std::llround(rate * static_cast<double>(n)));
}

}  // namespace

uint64_t PlanHash(uint64_t seed, uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = SplitMix(seed ^ 0x746f70696372776cULL);
  h = SplitMix(h ^ a);
  h = SplitMix(h ^ (b * 0x9e3779b97f4a7c15ULL));
  return SplitMix(h ^ (c * 0xc2b2ae3d27d4eb4fULL));
}

double PlanRandom(uint64_t seed, uint64_t a, uint64_t b, uint64_t c) {
  return static_cast<double>(PlanHash(seed, a, b, c) >> 11) * (1.0 / 9007199254740992.0);
}

Status EvolveOptions::Validate() const {
  if (rounds < 1 || rounds > 1000) return Status::Error("--rounds must be in 1..1000");
  auto rate = [](double r, const char* name) -> Status {
    if (!(r >= 0 && r <= 1)) return Status::Error(std::string(name) + " must be in [0, 1]");
    return Status::Ok();
  };
  for (auto [r, name] : {std::pair{new_rate, "--new-rate"}, {change_rate, "--change-rate"},
                         {gone_rate, "--gone-rate"}, {volatile_share, "volatile share"},
                         {volatile_change_share, "volatile change share"}}) {
    if (Status s = rate(r, name); !s.ok()) return s;
  }
  if (volatile_share <= 0 || volatile_share >= 1) return Status::Error("volatile share must be in (0, 1)");
  double hidden = HiddenAtStart();
  if (!(hidden >= 0 && hidden <= 0.9)) {
    return Status::Error("--hidden-at-start (default new-rate x rounds) must be in [0, 0.9]; got " +
                         std::to_string(hidden));
  }
  return Status::Ok();
}

bool PagePlan::EditedIn(int round) const {
  return std::binary_search(edit_rounds.begin(), edit_rounds.end(), round);
}

StatusOr<EvolvePlan> PlanEvolution(const PageGraph& graph, const EvolveOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  const size_t n = graph.size();
  EvolvePlan plan;
  plan.rounds = options.rounds;
  plan.pages.resize(n);
  plan.bfs_parent.assign(n, UINT32_MAX);
  plan.published.assign(options.rounds + 1, 0);
  plan.edited.assign(options.rounds + 1, 0);
  plan.gone.assign(options.rounds + 1, 0);

  // Breadth-first from the roots.
  std::vector<char> is_root(n, 0);
  std::deque<uint32_t> queue;
  for (uint32_t r : graph.roots) {
    if (r >= n) return Status::Error("root page " + std::to_string(r) + " out of range");
    if (!plan.pages[r].reachable) {
      plan.pages[r].reachable = true;
      is_root[r] = 1;
      queue.push_back(r);
    }
  }
  std::vector<char> has_child(n, 0);
  while (!queue.empty()) {
    uint32_t p = queue.front();
    queue.pop_front();
    for (uint32_t t : graph.links[p]) {
      if (t >= n || plan.pages[t].reachable) continue;
      plan.pages[t].reachable = true;
      plan.bfs_parent[t] = p;
      has_child[p] = 1;
      queue.push_back(t);
    }
  }
  std::vector<uint32_t> leaves, reachable;
  for (uint32_t i = 0; i < n; ++i) {
    if (!plan.pages[i].reachable) continue;
    reachable.push_back(i);
    if (!is_root[i] && !has_child[i]) leaves.push_back(i);
  }

  // Hidden pages and their publication rounds. Weighted sampling without
  // replacement (Efraimidis & Spirakis 2006: key u^(1/w), largest first) with
  // weight 1/in-degree: like new articles, new pages are mostly linked from a
  // few hubs, not from a hundred sibling pages (a rust-doc sidebar).
  std::vector<uint32_t> in_degree(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<uint32_t> targets = graph.links[i];
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (uint32_t t : targets) {
      if (t < n && t != i) ++in_degree[t];
    }
  }
  std::vector<std::pair<double, uint32_t>> keyed;
  keyed.reserve(leaves.size());
  for (uint32_t i : leaves) {
    // log(u^(1/w)) = log(u) * in_degree; u in (0, 1].
    double u = 1.0 - PlanRandom(options.seed, i, 0, kHideOrder);
    keyed.emplace_back(std::log(u) * std::max<uint32_t>(1, in_degree[i]), i);
  }
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<uint32_t> hide_order;
  hide_order.reserve(keyed.size());
  for (const auto& [key, i] : keyed) hide_order.push_back(i);
  const size_t per_round = RoundCount(options.new_rate, n);
  const size_t want_hidden = options.hidden_at_start < 0 ? per_round * static_cast<size_t>(options.rounds)
                                                         : RoundCount(options.hidden_at_start, n);
  const size_t hidden = std::min(hide_order.size(), want_hidden);
  for (size_t k = 0; k < hidden; ++k) {
    PagePlan& page = plan.pages[hide_order[k]];
    size_t round = per_round == 0 ? kNever : 1 + k / per_round;
    page.publish_round = round > static_cast<size_t>(options.rounds) ? kNever : static_cast<int>(round);
    if (page.publish_round != kNever) ++plan.published[page.publish_round];
  }
  plan.published[0] = hidden;

  // Gone pages: the other leaves, in their own seeded order.
  std::vector<uint32_t> gone_pool;
  for (size_t k = hidden; k < hide_order.size(); ++k) gone_pool.push_back(hide_order[k]);
  gone_pool = SeededOrder(std::move(gone_pool), options.seed, kGoneOrder);
  size_t next_gone = 0;
  size_t present = n - hidden;
  for (int round = 1; round <= options.rounds; ++round) {
    size_t want = RoundCount(options.gone_rate, present);
    for (size_t k = 0; k < want && next_gone < gone_pool.size(); ++k) {
      uint32_t i = gone_pool[next_gone++];
      PagePlan& page = plan.pages[i];
      page.gone_round = round;
      page.gone_code = PlanRandom(options.seed, i, 0, kGoneCode) < 0.5 ? 404 : 410;
      ++plan.gone[round];
    }
    present = present + plan.published[round] - plan.gone[round];
  }

  // Edits.
  const double vs = options.volatile_share, vcs = options.volatile_change_share;
  const double p_hot = std::min(1.0, options.change_rate * vcs / vs);
  const double p_cold = std::min(1.0, options.change_rate * (1 - vcs) / (1 - vs));
  for (uint32_t i : reachable) {
    PagePlan& page = plan.pages[i];
    page.is_volatile = PlanRandom(options.seed, i, 0, kVolatile) < vs;
    const double p = page.is_volatile ? p_hot : p_cold;
    for (int round = 1; round <= options.rounds; ++round) {
      if (!page.Present(round - 1) || !page.Present(round)) continue;
      if (PlanRandom(options.seed, i, static_cast<uint64_t>(round), kEdit) < p) {
        page.edit_rounds.push_back(round);
        ++plan.edited[round];
      }
    }
  }
  return plan;
}

}  // namespace topicrawl::web
