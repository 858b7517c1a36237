#include "crawl/rounds/round_graph.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>

#include "url/url.h"

namespace topicrawl {
namespace {

struct Admission {
  UrlId parent_url = 0;  // 0: a seed or not known
  bool by_revisit = false;
};

// Clears `fresh` on the pages that are not new to the web. A URL is new
// when a revisit admitted it (the link was not on the page's older
// version), or when its first admission came from a new page's links; a
// seed, or a URL first admitted by an old page's first fetch, is old (the
// crawl had simply not reached it before). Resolved along the parent
// chains with a memo; a chain that loops or leaves the known URLs is old.
void KeepNewToWeb(const std::vector<Admission>& admission,
                  const absl::flat_hash_map<UrlId, uint32_t>& dense,
                  std::vector<TopicHubPage>* pages) {
  const size_t n = admission.size();
  std::vector<int8_t> is_new(n, -1);  // -1 not resolved yet
  std::vector<uint32_t> chain;
  for (uint32_t i = 0; i < n; ++i) {
    if (!(*pages)[i].fresh || is_new[i] >= 0) continue;
    chain.clear();
    int8_t value = 0;
    for (uint32_t j = i;;) {
      if (is_new[j] >= 0) {
        value = is_new[j];
        break;
      }
      chain.push_back(j);
      if (admission[j].by_revisit) {
        value = 1;
        break;
      }
      auto it = admission[j].parent_url != 0 ? dense.find(admission[j].parent_url) : dense.end();
      if (it == dense.end() || chain.size() > n) break;  // old (seed / unknown / loop)
      is_new[j] = -2;  // on the current chain: a loop ends here as old
      j = it->second;
      if (is_new[j] == -2) break;
    }
    for (uint32_t j : chain) is_new[j] = value;
  }
  for (uint32_t i = 0; i < n; ++i) {
    if ((*pages)[i].fresh && is_new[i] != 1) (*pages)[i].fresh = false;
  }
}

}  // namespace

StatusOr<RoundGraph> RoundGraph::Read(RoundHistory& history, Fresh fresh) {
  RoundGraph g;
  const double beta = history.Beta() >= 0 ? history.Beta() : 0.5;
  const int last = history.last_round();
  absl::flat_hash_map<std::string, uint32_t> site_of;
  std::vector<Admission> admission;  // kNewToWeb: per dense id
  if (fresh == Fresh::kNewToWeb) {
    if (Status a = history.ReadAdmissions(); !a.ok()) return a;
  }
  Status s = history.ForEachUrl([&](const KnownUrl& u) {
    if (fresh == Fresh::kNewToWeb) admission.push_back({u.parent_url, u.admitted_by_revisit});
    const auto id = static_cast<uint32_t>(g.url.size());
    g.dense.emplace(u.url_id, id);
    g.url_id.push_back(u.url_id);
    g.url.push_back(u.url);
    g.revisitable.push_back(u.first_round >= 0 && !u.gone());
    auto [it, inserted] = site_of.try_emplace(u.host, g.sites.size());
    if (inserted) g.sites.push_back(u.host);
    TopicHubPage p;
    p.site = it->second;
    p.crawled = u.page_id != 0;
    p.sim = static_cast<float>(u.relevance.value_or(0.0));
    p.relevant = p.crawled && !u.near_duplicate && u.relevance.value_or(0.0) >= beta;
    p.fresh = p.crawled && u.first_round == last;
    g.hub.pages.push_back(p);
    return true;
  });
  if (!s.ok()) return s;
  if (fresh == Fresh::kNewToWeb) KeepNewToWeb(admission, g.dense, &g.hub.pages);
  std::vector<CsrGraph::Edge> edges;
  s = history.ForEachLink([&](UrlId from, UrlId to) {
    auto a = g.dense.find(from), b = g.dense.find(to);
    if (a != g.dense.end() && b != g.dense.end()) edges.emplace_back(a->second, b->second);
    return true;
  });
  if (!s.ok()) return s;
  g.hub.site_count = g.sites.size();
  g.hub.links = CsrGraph::FromEdges(g.url.size(), edges, /*dedup=*/true);
  return g;
}

std::vector<uint32_t> RoundGraph::Distances(const std::vector<uint32_t>& seeds) const {
  constexpr uint32_t kFar = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> d(url.size(), kFar);
  std::deque<uint32_t> todo;
  for (uint32_t s : seeds) {
    if (s < d.size() && d[s] == kFar) {
      d[s] = 0;
      todo.push_back(s);
    }
  }
  while (!todo.empty()) {
    const uint32_t v = todo.front();
    todo.pop_front();
    for (uint32_t w : hub.links.Children(v)) {
      if (d[w] == kFar) {
        d[w] = d[v] + 1;
        todo.push_back(w);
      }
    }
  }
  return d;
}

std::vector<uint32_t> RoundGraph::Find(const std::vector<std::string>& urls) const {
  absl::flat_hash_map<std::string, uint32_t> by_url;
  for (uint32_t i = 0; i < url.size(); ++i) by_url.emplace(CanonicalizeUrl(url[i]), i);
  std::vector<uint32_t> out;
  for (const std::string& u : urls) {
    auto it = by_url.find(CanonicalizeUrl(u));
    if (it != by_url.end()) out.push_back(it->second);
  }
  return out;
}

std::vector<Revisit> RevisitsByDistance(const RoundGraph& g,
                                        const std::vector<uint32_t>& seeds,
                                        const std::vector<double>& tie) {
  std::vector<uint32_t> d = g.Distances(seeds);
  std::vector<Revisit> out;
  for (uint32_t i = 0; i < g.url.size(); ++i) {
    if (!g.revisitable[i]) continue;
    const double base =
        d[i] == std::numeric_limits<uint32_t>::max() ? 0.0 : 1.0 / (1.0 + d[i]);
    out.push_back({g.url_id[i], base + 1e-3 * (i < tie.size() ? tie[i] : 0.0)});
  }
  return out;
}

std::vector<Revisit> RevisitsBySeedWeight(const RoundGraph& g,
                                          const std::vector<uint32_t>& seeds,
                                          const std::vector<double>& weights,
                                          int64_t budget) {
  const size_t n = g.url.size();
  size_t revisitable = 0;
  for (size_t i = 0; i < n; ++i) revisitable += g.revisitable[i] ? 1 : 0;
  const int64_t total = budget < 0 ? static_cast<int64_t>(revisitable)
                                   : std::min<int64_t>(budget, revisitable);
  // Quotas by largest remainder, so that they add up to `total` exactly.
  std::vector<size_t> order;
  double sum = 0;
  for (size_t i = 0; i < seeds.size() && i < weights.size(); ++i) {
    if (seeds[i] < n && weights[i] > 0) {
      order.push_back(i);
      sum += weights[i];
    }
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return weights[a] > weights[b]; });
  std::vector<int64_t> quota(seeds.size(), 0);
  if (sum > 0 && total > 0) {
    int64_t given = 0;
    std::vector<std::pair<double, size_t>> rest;
    for (size_t i : order) {
      const double exact = static_cast<double>(total) * weights[i] / sum;
      quota[i] = static_cast<int64_t>(std::floor(exact));
      given += quota[i];
      rest.emplace_back(exact - std::floor(exact), i);
    }
    std::stable_sort(rest.begin(), rest.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t k = 0; given < total && k < rest.size(); ++k, ++given) ++quota[rest[k].second];
  }
  std::vector<Revisit> out;
  std::vector<bool> claimed(n, false), seen(n, false);
  std::vector<uint32_t> touched;
  for (size_t i : order) {
    if (quota[i] <= 0) continue;
    const uint32_t s = seeds[i];
    const uint32_t site = g.hub.pages[s].site;
    int64_t k = 0;
    std::deque<uint32_t> todo{s};
    seen[s] = true;
    touched.push_back(s);
    while (!todo.empty() && k < quota[i]) {
      const uint32_t v = todo.front();
      todo.pop_front();
      if (g.revisitable[v] && !claimed[v]) {
        claimed[v] = true;
        out.push_back({g.url_id[v], 0.1 + 0.9 * (1.0 - static_cast<double>(k) /
                                                           static_cast<double>(quota[i]))});
        ++k;
      }
      for (uint32_t w : g.hub.links.Children(v)) {
        if (!seen[w] && g.hub.pages[w].site == site) {
          seen[w] = true;
          touched.push_back(w);
          todo.push_back(w);
        }
      }
    }
    for (uint32_t t : touched) seen[t] = false;
    touched.clear();
  }
  if (static_cast<int64_t>(out.size()) < total) {
    std::vector<Revisit> fill = RevisitsByDistance(g, seeds, std::vector<double>(n, 0.0));
    std::vector<Revisit> rest;
    for (const Revisit& r : fill) {
      auto it = g.dense.find(r.url_id);
      if (it != g.dense.end() && !claimed[it->second]) rest.push_back({r.url_id, 0.09 * r.priority});
    }
    TruncateToBudget(&rest, total - static_cast<int64_t>(out.size()));
    out.insert(out.end(), rest.begin(), rest.end());
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Revisit& a, const Revisit& b) { return a.priority > b.priority; });
  return out;
}

}  // namespace topicrawl
