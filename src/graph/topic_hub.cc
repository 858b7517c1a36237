// TopicHub (seed 002 §3.1). The reasons for each reconstruction are in
// topic_hub.h and docs/strategies/tda.md; this file follows the paper's three stages.
#include "graph/topic_hub.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>

#include "graph/tarjan_scc.h"

namespace topicrawl {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// Stage 2 for one site with a caller-owned page -> local-id map (all kNone
// on entry and on return), so that 10^4 sites do not allocate 10^4 maps of
// the whole graph.
std::vector<ThubPage> SiteThubs(const TopicHubInput& input,
                                const CsrGraph& reverse,
                                std::span<const uint32_t> site_pages,
                                const TopicHubOptions& options,
                                std::vector<uint32_t>& local) {
  // V: relevant pages of the site and their in/out neighbours in the site
  // ("主题相关页面以及...入链集 Γ-(p) 和出链集 Γ+(p)").
  std::vector<uint32_t> nodes;
  auto add = [&](uint32_t p) {
    if (local[p] == kNone) {
      local[p] = static_cast<uint32_t>(nodes.size());
      nodes.push_back(p);
    }
  };
  const uint32_t site = site_pages.empty() ? 0 : input.pages[site_pages[0]].site;
  for (uint32_t p : site_pages) {
    if (!input.pages[p].relevant) continue;
    add(p);
    for (uint32_t q : input.links.Children(p)) {
      if (input.pages[q].site == site) add(q);
    }
    for (uint32_t q : reverse.Children(p)) {
      if (input.pages[q].site == site) add(q);
    }
  }
  // E: the links among V.
  std::vector<CsrGraph::Edge> edges;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    for (uint32_t q : input.links.Children(nodes[i])) {
      if (local[q] != kNone) edges.emplace_back(i, local[q]);
    }
  }
  CsrGraph g = CsrGraph::FromEdges(nodes.size(), edges);
  std::vector<double> cap = NormalizedAggregation(input, nodes, options.cap_beta);
  std::vector<double> importance(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    importance[i] = NodeImportance(input.pages[nodes[i]].sim, cap[i],
                                   options.importance_a);
  }
  std::vector<ThubPage> out;
  for (CsrGraph::Node v : MinimumCoverSet(g, importance)) {
    ThubPage t;
    t.page = nodes[v];
    t.site = site;
    t.page_weight = importance[v];
    out.push_back(t);
  }
  for (uint32_t p : nodes) local[p] = kNone;
  std::stable_sort(out.begin(), out.end(), [](const ThubPage& a, const ThubPage& b) {
    return a.page_weight > b.page_weight;
  });
  return out;
}

}  // namespace

std::vector<double> SiteUpdateFrequency(const TopicHubInput& input,
                                        const TopicHubOptions& options) {
  std::vector<double> relevant_sim(input.site_count, 0);
  std::vector<double> irrelevant(input.site_count, 0);
  for (const TopicHubPage& p : input.pages) {
    if (!p.fresh || !p.crawled || p.site >= input.site_count) continue;
    if (p.relevant) {
      relevant_sim[p.site] += p.sim;
    } else {
      irrelevant[p.site] += 1;
    }
  }
  const double a = options.freq_alpha;
  const double t = options.days_between_rounds > 0 ? options.days_between_rounds : 1.0;
  std::vector<double> sfreq(input.site_count);
  for (size_t s = 0; s < input.site_count; ++s) {
    sfreq[s] = (a * relevant_sim[s] + (1 - a) * irrelevant[s]) / t;  // eq. 2
  }
  return sfreq;
}

CsrGraph BuildSiteGraph(const TopicHubInput& input) {
  std::vector<CsrGraph::Edge> edges;
  for (uint32_t p = 0; p < input.pages.size(); ++p) {
    const uint32_t s = input.pages[p].site;
    for (uint32_t q : input.links.Children(p)) {
      const uint32_t z = input.pages[q].site;
      if (z != s) edges.emplace_back(s, z);
    }
    // Keep the edge list small on huge graphs: dedup as we go is costlier
    // than one sort at the end, so only the builder deduplicates.
  }
  return CsrGraph::FromEdges(input.site_count, edges, /*dedup=*/true);
}

std::vector<double> SiteRank(const CsrGraph& site_graph,
                             std::span<const double> sfreq,
                             const TopicHubOptions& options, int* iterations) {
  const size_t n = site_graph.NodeCount();
  if (iterations) *iterations = 0;
  if (n == 0) return {};
  double total = 0;
  for (double f : sfreq) total += std::max(0.0, f);
  // Start vector: Sfreq normalised (the paper's "初始值为其站点更新频度").
  std::vector<double> start(n, 1.0 / n);
  if (total > 0) {
    for (size_t s = 0; s < n; ++s) start[s] = std::max(0.0, sfreq[s]) / total;
  }
  const std::vector<double> teleport =
      options.sfreq_teleport ? start : std::vector<double>(n, 1.0 / n);
  const CsrGraph in = site_graph.Reversed();
  const double d = options.damping;
  std::vector<double> rank = start;
  std::vector<double> next(n);
  int it = 0;
  while (it < options.max_iterations) {
    ++it;
    // Rank of sites without out-links is handed out like the teleport.
    double dangling = 0;
    for (size_t z = 0; z < n; ++z) {
      if (site_graph.OutDegree(z) == 0) dangling += rank[z];
    }
    double change = 0;
    for (size_t s = 0; s < n; ++s) {
      double sum = 0;
      for (CsrGraph::Node z : in.Children(s)) {
        sum += rank[z] / static_cast<double>(site_graph.OutDegree(z));
      }
      next[s] = (1 - d) * teleport[s] + d * (sum + dangling * teleport[s]);  // eq. 3
      change += std::fabs(next[s] - rank[s]);
    }
    rank.swap(next);
    if (change < options.tolerance) break;
  }
  if (iterations) *iterations = it;
  return rank;  // eq. 1: TSI = SiteRank at convergence
}

std::vector<double> NormalizedAggregation(const TopicHubInput& input,
                                          std::span<const uint32_t> nodes,
                                          double cap_beta) {
  std::vector<double> cap(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    double r = 0, u = 0;
    for (uint32_t q : input.links.Children(nodes[i])) {
      if (q == nodes[i] || !input.pages[q].crawled) continue;
      (input.pages[q].relevant ? r : u) += 1;
    }
    cap[i] = cap_beta * r + (1 - cap_beta) * u;  // eq. 5
  }
  if (cap.empty()) return cap;
  const auto [lo, hi] = std::minmax_element(cap.begin(), cap.end());
  const double min = *lo, max = *hi;
  const double avg = std::accumulate(cap.begin(), cap.end(), 0.0) / cap.size();
  for (double& c : cap) {
    // Eq. 6: centring on the mean damps sites whose every page has a big
    // side bar of links ("侧栏索引型页面").
    c = max > min ? std::clamp((c - avg) / (max - min), 0.0, 1.0) : 0.0;
  }
  return cap;
}

std::vector<ThubPage> SiteThubPages(const TopicHubInput& input,
                                    const CsrGraph& reverse,
                                    std::span<const uint32_t> site_pages,
                                    const TopicHubOptions& options) {
  std::vector<uint32_t> local(input.pages.size(), kNone);
  return SiteThubs(input, reverse, site_pages, options, local);
}

TopicHubResult RunTopicHub(const TopicHubInput& input,
                           const TopicHubOptions& options) {
  TopicHubResult result;
  // Stage 1: site importance.
  result.sfreq = SiteUpdateFrequency(input, options);
  result.tsi = SiteRank(BuildSiteGraph(input), result.sfreq, options,
                        &result.siterank_iterations);

  // Stage 2: THub pages per site (pages grouped by site by counting sort).
  const size_t n = input.pages.size();
  std::vector<uint32_t> site_begin(input.site_count + 1, 0);
  for (const TopicHubPage& p : input.pages) {
    if (p.site < input.site_count) ++site_begin[p.site + 1];
  }
  for (size_t s = 0; s < input.site_count; ++s) site_begin[s + 1] += site_begin[s];
  std::vector<uint32_t> by_site(site_begin.back());
  {
    std::vector<uint32_t> fill(site_begin.begin(), site_begin.end() - 1);
    for (uint32_t p = 0; p < n; ++p) {
      const uint32_t s = input.pages[p].site;
      if (s < input.site_count) by_site[fill[s]++] = p;
    }
  }
  const CsrGraph reverse = input.links.Reversed();
  std::vector<uint32_t> local(n, kNone);
  std::vector<std::vector<ThubPage>> lists(input.site_count);
  for (size_t s = 0; s < input.site_count; ++s) {
    std::span<const uint32_t> pages(by_site.data() + site_begin[s],
                                    site_begin[s + 1] - site_begin[s]);
    lists[s] = SiteThubs(input, reverse, pages, options, local);
    for (ThubPage& t : lists[s]) {
      t.site_weight = result.tsi[s];
      t.weight = t.site_weight * t.page_weight;  // eq. 7
    }
    result.thub_pages += lists[s].size();
  }

  // Stage 3: merge the per-site lists (each sorted by weight, as TSI is
  // constant within a site) and keep the top N.
  using Head = std::pair<double, std::pair<uint32_t, uint32_t>>;  // weight, (site, pos)
  auto worse = [](const Head& a, const Head& b) {
    if (a.first != b.first) return a.first < b.first;
    return a.second > b.second;  // ties: lower site, then earlier position
  };
  std::priority_queue<Head, std::vector<Head>, decltype(worse)> heads(worse);
  for (uint32_t s = 0; s < lists.size(); ++s) {
    if (!lists[s].empty()) heads.push({lists[s][0].weight, {s, 0}});
  }
  const size_t limit = options.seeds == 0 ? result.thub_pages : options.seeds;
  while (!heads.empty() && result.seeds.size() < limit) {
    auto [s, pos] = heads.top().second;
    heads.pop();
    result.seeds.push_back(lists[s][pos]);
    if (pos + 1 < lists[s].size()) heads.push({lists[s][pos + 1].weight, {s, pos + 1}});
  }
  return result;
}

}  // namespace topicrawl
