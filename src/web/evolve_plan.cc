#include "web/evolve_plan.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <unordered_map>

namespace topicrawl::web {
namespace {

uint64_t SplitMix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Purposes of the draws (the `c` of PlanHash for page draws).
enum Purpose : uint64_t {
  kHideOrder = 1, kGoneOrder = 2, kGoneCode = 3, kVolatile = 4, kEdit = 5, kSectionOrder = 6,
  kSectionOffset = 7, kRate = 8
};

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

double PlanGamma(double shape, uint64_t seed, uint64_t page, uint64_t purpose) {
  // Draw t of this variate uses the hash inputs (seed, page, 1000 + 4t + j,
  // purpose): independent of every other draw of the plan.
  auto uniform = [&](uint64_t t, uint64_t j) { return PlanRandom(seed, page, 1000 + 4 * t + j, purpose); };
  const double a = shape < 1 ? shape + 1 : shape;
  const double d = a - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  double g = d;  // fallback after 64 rejections (practically never: acceptance > 95 %)
  for (uint64_t t = 0; t < 64; ++t) {
    const double u1 = 1.0 - uniform(t, 0), u2 = uniform(t, 1);
    const double x = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    const double v0 = 1.0 + c * x;
    if (v0 <= 0) continue;
    const double v = v0 * v0 * v0;
    const double u = 1.0 - uniform(t, 2);
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) {
      g = d * v;
      break;
    }
  }
  if (shape < 1) g *= std::pow(1.0 - uniform(0, 3), 1.0 / shape);
  return g;
}

const char* EvolveModelName(EvolveModel model) {
  return model == EvolveModel::kNews ? "news" : "legacy";
}

bool ParseEvolveModel(const std::string& name, EvolveModel* model) {
  if (name == "news") *model = EvolveModel::kNews;
  else if (name == "legacy") *model = EvolveModel::kLegacy;
  else return false;
  return true;
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
  if (!(rate_shape >= 0.01 && rate_shape <= 100)) return Status::Error("--rate-shape must be in [0.01, 100]");
  if (Status s = rate(index_change_share, "--index-change-share"); !s.ok()) return s;
  double hidden = HiddenAtStart();
  if (!(hidden >= 0 && hidden <= 0.9)) {
    return Status::Error("--hidden-at-start (default new-rate x rounds) must be in [0, 0.9]; got " +
                         std::to_string(hidden));
  }
  return Status::Ok();
}

PageRate TruePageRate(const EvolvePlan& plan, const PageGraph& graph, uint32_t page) {
  PageRate r;
  const PagePlan& p = plan.pages[page];
  r.edit_p = p.change_p;
  int present = 0, hub = 0;
  for (int k = 1; k <= plan.rounds; ++k) {
    // A change in round k needs the page in k - 1 and k.
    if (!p.Present(k) || !p.Present(k - 1)) continue;
    ++present;
    bool gains = false;
    for (uint32_t t : graph.links[page]) gains = gains || plan.pages[t].publish_round == k;
    hub += gains ? 1 : 0;
  }
  r.hub_share = present > 0 ? static_cast<double>(hub) / present : 0.0;
  r.change_p = 1.0 - (1.0 - r.edit_p) * (1.0 - r.hub_share);
  return r;
}

bool PagePlan::EditedIn(int round) const {
  return std::binary_search(edit_rounds.begin(), edit_rounds.end(), round);
}

void RootsFromUnlinkedPages(const std::vector<char>& included, PageGraph* graph) {
  const size_t n = graph->size();
  std::vector<char> linked(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t t : graph->links[i]) {
      if (t != i) linked[t] = 1;
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (!linked[i] && included[i]) graph->roots.push_back(i);
  }
  if (graph->roots.empty()) graph->roots.push_back(0);
}

namespace {

// The breadth-first walk from the roots: which pages take part, and which
// of them are BFS-tree leaves (the only pages hidden or made gone).
struct Reach {
  std::vector<char> is_root, has_child;
  std::vector<uint32_t> leaves, reachable;
};

EvolvePlan EmptyPlan(size_t n, int rounds) {
  EvolvePlan plan;
  plan.rounds = rounds;
  plan.pages.resize(n);
  plan.bfs_parent.assign(n, UINT32_MAX);
  plan.published.assign(rounds + 1, 0);
  plan.edited.assign(rounds + 1, 0);
  plan.gone.assign(rounds + 1, 0);
  return plan;
}

StatusOr<Reach> WalkFromRoots(const PageGraph& graph, EvolvePlan* plan) {
  const size_t n = graph.size();
  Reach reach;
  reach.is_root.assign(n, 0);
  reach.has_child.assign(n, 0);
  std::deque<uint32_t> queue;
  for (uint32_t r : graph.roots) {
    if (r >= n) return Status::Error("root page " + std::to_string(r) + " out of range");
    if (!plan->pages[r].reachable) {
      plan->pages[r].reachable = true;
      reach.is_root[r] = 1;
      queue.push_back(r);
    }
  }
  while (!queue.empty()) {
    uint32_t p = queue.front();
    queue.pop_front();
    for (uint32_t t : graph.links[p]) {
      if (t >= n || plan->pages[t].reachable) continue;
      plan->pages[t].reachable = true;
      plan->bfs_parent[t] = p;
      reach.has_child[p] = 1;
      queue.push_back(t);
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (!plan->pages[i].reachable) continue;
    reach.reachable.push_back(i);
    if (!reach.is_root[i] && !reach.has_child[i]) reach.leaves.push_back(i);
  }
  return reach;
}

using KeyedPage = std::pair<double, uint32_t>;

bool ByKeyDesc(const KeyedPage& a, const KeyedPage& b) {
  return a.first != b.first ? a.first > b.first : a.second < b.second;
}

// The leaves in hiding order: weighted sampling without replacement
// (Efraimidis & Spirakis 2006: key u^(1/w), largest first) with weight
// 1/in-degree: like new articles, new pages are mostly linked from a few
// hubs, not from a hundred sibling pages (a rust-doc sidebar).
std::vector<KeyedPage> KeyedLeaves(const PageGraph& graph, const std::vector<uint32_t>& leaves, uint64_t seed) {
  const size_t n = graph.size();
  std::vector<uint32_t> in_degree(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<uint32_t> targets = graph.links[i];
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (uint32_t t : targets) {
      if (t < n && t != i) ++in_degree[t];
    }
  }
  // log(u^(1/w)) = log(u) / w; u in (0, 1].
  std::vector<KeyedPage> keyed;
  keyed.reserve(leaves.size());
  for (uint32_t i : leaves) {
    keyed.emplace_back(std::log(1.0 - PlanRandom(seed, i, 0, kHideOrder)) * std::max<uint32_t>(1, in_degree[i]), i);
  }
  std::sort(keyed.begin(), keyed.end(), ByKeyDesc);
  return keyed;
}

// Sections of the kNews model: leaves grouped by the set of reachable pages
// that link to them (the articles a section page and its neighbours list);
// every leaf of a section has the same linkers, so a section publishing a
// page in every round makes the same pages hubs in every round.
struct Sections {
  std::vector<std::vector<uint32_t>> children;  // per section, in leaf-key order
  std::vector<size_t> linkers;                  // per section, at least 1
};

Sections GroupSections(const PageGraph& graph, const EvolvePlan& plan, const std::vector<KeyedPage>& keyed) {
  const size_t n = graph.size();
  std::vector<std::vector<uint32_t>> linkers(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (!plan.pages[i].reachable) continue;
    for (uint32_t t : graph.links[i]) {
      if (t < n && t != i && (linkers[t].empty() || linkers[t].back() != i)) linkers[t].push_back(i);
    }
  }
  Sections s;
  std::map<std::vector<uint32_t>, uint32_t> section_of;  // linker set -> section id
  for (const auto& [key, i] : keyed) {
    auto [it, fresh] = section_of.emplace(linkers[i], static_cast<uint32_t>(s.children.size()));
    if (fresh) {
      s.children.emplace_back();
      s.linkers.push_back(std::max<size_t>(1, linkers[i].size()));
    }
    s.children[it->second].push_back(i);
  }
  return s;
}

// Sections are drawn with weight min(leaves, cap) / linkers^2 (many articles
// on few list pages, as the 1/in-degree of the leaves); keyed by the
// section's first leaf: independent of the numbering.
std::vector<KeyedPage> SectionOrder(const Sections& s, size_t cap, uint64_t seed) {
  std::vector<KeyedPage> sections;
  for (uint32_t sec = 0; sec < s.children.size(); ++sec) {
    const double l = static_cast<double>(s.linkers[sec]);
    const double w = static_cast<double>(std::min(cap, s.children[sec].size())) / (l * l);
    sections.emplace_back(std::log(1.0 - PlanRandom(seed, s.children[sec][0], 0, kSectionOrder)) / w, sec);
  }
  std::sort(sections.begin(), sections.end(), ByKeyDesc);
  return sections;
}

// kNews hiding order: each section gives up to cap = kSectionPagesPerRound x
// rounds of its leaves (in the leaves' own order) in a first pass, more only
// when the sections run short; its j-th leaf wants round
// 1 + (j + offset) mod rounds. The leaves not taken follow (the gone pool).
std::vector<uint32_t> SectionHideOrder(const PageGraph& graph, const std::vector<KeyedPage>& keyed,
                                       const EvolveOptions& options, size_t want_hidden, EvolvePlan* plan) {
  const size_t cap = static_cast<size_t>(kSectionPagesPerRound) * static_cast<size_t>(options.rounds);
  const Sections s = GroupSections(graph, *plan, keyed);
  const std::vector<KeyedPage> sections = SectionOrder(s, cap, options.seed);
  struct Taken { int want_round; size_t order; uint32_t page; };
  std::vector<Taken> taken;
  // Pass 0: sections with at least `rounds` leaves (they gain links in
  // every round), up to cap leaves each; pass 1: every section's remaining
  // leaves, when those run short.
  std::vector<size_t> used(s.children.size(), 0);
  const size_t rounds = static_cast<size_t>(options.rounds);
  for (int pass = 0; pass < 2 && taken.size() < want_hidden; ++pass) {
    for (const auto& [key, sec] : sections) {
      const std::vector<uint32_t>& kids = s.children[sec];
      if (pass == 0 && kids.size() < rounds) continue;
      const size_t offset = PlanHash(options.seed, kids[0], 0, kSectionOffset) % rounds;
      const size_t to = pass == 0 ? std::min(cap, kids.size()) : kids.size();
      for (size_t& j = used[sec]; j < to && taken.size() < want_hidden; ++j) {
        int want = 1 + static_cast<int>((j + offset) % rounds);
        taken.push_back({want, taken.size(), kids[j]});
        plan->pages[kids[j]].section = sec;
      }
      if (taken.size() >= want_hidden) break;
    }
  }
  std::sort(taken.begin(), taken.end(), [](const Taken& a, const Taken& b) {
    return a.want_round != b.want_round ? a.want_round < b.want_round : a.order < b.order;
  });
  std::vector<uint32_t> hide_order;
  hide_order.reserve(keyed.size());
  std::vector<char> is_taken(graph.size(), 0);
  for (const Taken& t : taken) {
    hide_order.push_back(t.page);
    is_taken[t.page] = 1;
  }
  for (const auto& [key, i] : keyed) {
    if (!is_taken[i]) hide_order.push_back(i);
  }
  return hide_order;
}

// The first `want_hidden` pages of `hide_order` are hidden at round 0 and
// published per_round a round; returns how many were hidden.
size_t PublishHidden(const std::vector<uint32_t>& hide_order, size_t want_hidden, size_t per_round,
                     EvolvePlan* plan) {
  const size_t hidden = std::min(hide_order.size(), want_hidden);
  for (size_t k = 0; k < hidden; ++k) {
    PagePlan& page = plan->pages[hide_order[k]];
    size_t round = per_round == 0 ? kNever : 1 + k / per_round;
    page.publish_round = round > static_cast<size_t>(plan->rounds) ? kNever : static_cast<int>(round);
    if (page.publish_round != kNever) ++plan->published[page.publish_round];
  }
  plan->published[0] = hidden;
  return hidden;
}

// Gone pages: the leaves after the hidden ones, in their own seeded order,
// round(gone_rate x present pages) a round.
void PlanGone(const std::vector<uint32_t>& hide_order, size_t hidden, size_t rate_base,
              const EvolveOptions& options, EvolvePlan* plan) {
  std::vector<uint32_t> gone_pool(hide_order.begin() + static_cast<std::ptrdiff_t>(hidden), hide_order.end());
  gone_pool = SeededOrder(std::move(gone_pool), options.seed, kGoneOrder);
  size_t next_gone = 0;
  size_t present = rate_base - std::min(rate_base, hidden);
  for (int round = 1; round <= options.rounds; ++round) {
    size_t want = RoundCount(options.gone_rate, present);
    for (size_t k = 0; k < want && next_gone < gone_pool.size(); ++k) {
      uint32_t i = gone_pool[next_gone++];
      PagePlan& page = plan->pages[i];
      page.gone_round = round;
      page.gone_code = PlanRandom(options.seed, i, 0, kGoneCode) < 0.5 ? 404 : 410;
      ++plan->gone[round];
    }
    present = present + plan->published[round] - plan->gone[round];
  }
}

// kLegacy change probabilities: p_hot for a random volatile_share of the
// pages, p_cold for the rest.
void LegacyChangeRates(const Reach& reach, const EvolveOptions& options, EvolvePlan* plan) {
  const double vs = options.volatile_share, vcs = options.volatile_change_share;
  const double p_hot = std::min(1.0, options.change_rate * vcs / vs);
  const double p_cold = std::min(1.0, options.change_rate * (1 - vcs) / (1 - vs));
  for (uint32_t i : reach.reachable) {
    PagePlan& page = plan->pages[i];
    page.is_volatile = PlanRandom(options.seed, i, 0, kVolatile) < vs;
    page.change_p = page.is_volatile ? p_hot : p_cold;
  }
}

// kNews change probabilities: 1 - exp(-theta_c G), G ~ Gamma(shape, 1),
// theta_c per class (index pages: roots and pages with BFS children).
void NewsChangeRates(const Reach& reach, const EvolveOptions& options, EvolvePlan* plan) {
  size_t index_pages = 0;
  for (uint32_t i : reach.reachable) {
    plan->pages[i].is_volatile = reach.is_root[i] || reach.has_child[i];
    index_pages += plan->pages[i].is_volatile ? 1 : 0;
  }
  const size_t leaf_pages = reach.reachable.size() - index_pages;
  // Mean change probability of each class, then its gamma scale. A class
  // can take at most a mean of kMaxMean (a class of few pages: the rest of
  // its edits go to the other class).
  constexpr double kMaxMean = 0.95;
  const double total = options.change_rate * static_cast<double>(reach.reachable.size());
  double index_mean = 0, leaf_mean = 0;
  if (index_pages > 0) {
    double share = leaf_pages == 0 ? 1.0 : options.index_change_share;
    index_mean = std::min(kMaxMean, total * share / static_cast<double>(index_pages));
  }
  if (leaf_pages > 0) {
    leaf_mean = std::min(kMaxMean, (total - index_mean * static_cast<double>(index_pages)) /
                                       static_cast<double>(leaf_pages));
    leaf_mean = std::max(0.0, leaf_mean);
  }
  // E[1 - exp(-theta G)] = 1 - (1 + theta)^(-shape) for G ~ Gamma(shape, 1).
  auto theta_for = [&](double mean) { return std::pow(1.0 - mean, -1.0 / options.rate_shape) - 1.0; };
  const double theta_index = theta_for(index_mean);
  const double theta_leaf = theta_for(leaf_mean);
  for (uint32_t i : reach.reachable) {
    PagePlan& page = plan->pages[i];
    const double lambda = (page.is_volatile ? theta_index : theta_leaf) *
                          PlanGamma(options.rate_shape, options.seed, i, kRate);
    page.change_p = 1.0 - std::exp(-lambda);
  }
}

// A page present in rounds k-1 and k is edited in round k with its change_p.
void PlanEdits(const Reach& reach, const EvolveOptions& options, EvolvePlan* plan) {
  for (uint32_t i : reach.reachable) {
    PagePlan& page = plan->pages[i];
    for (int round = 1; round <= options.rounds; ++round) {
      if (!page.Present(round - 1) || !page.Present(round)) continue;
      if (PlanRandom(options.seed, i, static_cast<uint64_t>(round), kEdit) < page.change_p) {
        page.edit_rounds.push_back(round);
        ++plan->edited[round];
      }
    }
  }
}

}  // namespace

StatusOr<EvolvePlan> PlanEvolution(const PageGraph& graph, const EvolveOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  EvolvePlan plan = EmptyPlan(graph.size(), options.rounds);
  StatusOr<Reach> reach = WalkFromRoots(graph, &plan);
  if (!reach.ok()) return reach.status();
  const std::vector<KeyedPage> keyed = KeyedLeaves(graph, reach->leaves, options.seed);
  const size_t per_round = RoundCount(options.new_rate, graph.RateBase());
  const size_t want_hidden = options.hidden_at_start < 0 ? per_round * static_cast<size_t>(options.rounds)
                                                         : RoundCount(options.hidden_at_start, graph.RateBase());
  std::vector<uint32_t> hide_order;
  if (options.model == EvolveModel::kLegacy) {
    for (const auto& [key, i] : keyed) hide_order.push_back(i);
  } else {
    hide_order = SectionHideOrder(graph, keyed, options, want_hidden, &plan);
  }
  const size_t hidden = PublishHidden(hide_order, want_hidden, per_round, &plan);
  PlanGone(hide_order, hidden, graph.RateBase(), options, &plan);
  if (options.model == EvolveModel::kLegacy) {
    LegacyChangeRates(*reach, options, &plan);
  } else {
    NewsChangeRates(*reach, options, &plan);
  }
  PlanEdits(*reach, options, &plan);
  return plan;
}

}  // namespace topicrawl::web
