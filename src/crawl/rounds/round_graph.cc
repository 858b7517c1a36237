#include "crawl/rounds/round_graph.h"

#include <deque>
#include <limits>

#include "url/url.h"

namespace topicrawl {

StatusOr<RoundGraph> RoundGraph::Read(RoundHistory& history) {
  RoundGraph g;
  const double beta = history.Beta() >= 0 ? history.Beta() : 0.5;
  const int last = history.last_round();
  absl::flat_hash_map<std::string, uint32_t> site_of;
  Status s = history.ForEachUrl([&](const KnownUrl& u) {
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

}  // namespace topicrawl
