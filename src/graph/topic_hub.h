// TopicHub: the next round's seeds of seed 002 (002_dc7a58c43ca85137, §3.1,
// "TopicHub 算法"), chosen from what the last rounds crawled. Three stages:
//
//   1. site importance TSI(S) (§3.1.1, eq. 1-3): update frequency Sfreq and
//      SiteRank over the site graph;
//   2. inside each site, the THub pages (§3.1.2, eq. 4-6, Algorithm 1): the
//      topic resource graph, node importance, SCC contraction, minimum cover
//      set;
//   3. global weight = site weight x page weight (eq. 7); the per-site
//      sorted lists are merged and the top N seed the next round (§3.1.3).
//
// The paper's equations 1, 2, 4, 5, 6 and 7 were lost in extraction; SPEC.md
// ("Seed 002") gives the reconstructed forms used here, quoted at each
// function. Every weight the paper leaves open (alpha, a, beta in (0, 1)) has
// the default 0.5 and lives in TopicHubOptions; docs/strategies/tda.md records the
// choices.
//
// Input is a whole crawl graph in dense page ids (CsrGraph), so 10^6 pages
// and 10^7 links fit in well under 1 GiB (bench/topic_hub_bench.cc).
//
// Thread-safety: pure functions over their arguments.
#ifndef TOPICRAWL_GRAPH_TOPIC_HUB_H_
#define TOPICRAWL_GRAPH_TOPIC_HUB_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "graph/csr_graph.h"

namespace topicrawl {

struct TopicHubOptions {
  // Eq. 2: share of the topical part in the update frequency (paper: 0 < alpha < 1).
  double freq_alpha = 0.5;
  // Eq. 2: T, days between two rounds (paper: 4 h).
  double days_between_rounds = 4.0 / 24.0;
  // Eq. 3: damping factor delta of SiteRank.
  double damping = 0.85;
  // SiteRank iterations stop when no value moves more than this (L1 of the
  // change below tolerance), or after max_iterations.
  double tolerance = 1e-10;
  int max_iterations = 200;
  // Eq. 3 teleport: true (default) teleports in proportion to Sfreq
  // (personalised PageRank), so update frequency survives convergence;
  // false is SPEC's literal form — uniform (1 - delta) / N, Sfreq only the
  // start vector — whose fixed point does not depend on Sfreq at all (see
  // docs/strategies/tda.md and the test SiteRankLiteralFormForgetsItsStart).
  bool sfreq_teleport = true;
  // Eq. 4: a, the weight of the (normalised) aggregation CAP' in I(p).
  double importance_a = 0.5;
  // Eq. 5: beta, the weight of out-links to relevant pages in CAP(p).
  double cap_beta = 0.5;
  // How many THub pages seed the next round (0: all).
  size_t seeds = 50;
};

// One crawled (or known) page of the crawl graph.
struct TopicHubPage {
  uint32_t site = 0;      // dense site id, < site count
  float sim = 0;          // Sim(p), the page's topical relevance in [0, 1]
  bool crawled = false;   // downloaded (its relevance is known)
  bool relevant = false;  // Sim(p) >= the topic's threshold
  bool fresh = false;     // first downloaded in the round just finished
};

struct TopicHubInput {
  std::vector<TopicHubPage> pages;  // indexed by page id
  CsrGraph links;                   // page -> page; same ids as `pages`
  size_t site_count = 0;
};

struct ThubPage {
  uint32_t page = 0;
  uint32_t site = 0;
  double site_weight = 0;  // TSI(S)
  double page_weight = 0;  // I(p)
  double weight = 0;       // eq. 7: site_weight * page_weight
};

struct TopicHubResult {
  std::vector<double> sfreq;  // per site, eq. 2
  std::vector<double> tsi;    // per site, eq. 1/3 (sums to 1)
  int siterank_iterations = 0;
  size_t thub_pages = 0;      // THub pages over all sites, before the cut
  std::vector<ThubPage> seeds;  // by weight, best first; at most options.seeds
};

// Eq. 2 (reconstructed): Sfreq(S) = (alpha * sum_{p in Sr} Sim(p)
//   + (1 - alpha) * |Su|) / T, Sr / Su the site's fresh relevant /
//   irrelevant pages, T in days.
std::vector<double> SiteUpdateFrequency(const TopicHubInput& input,
                                        const TopicHubOptions& options);

// The site graph: an edge S -> Z when a page of S links to a page of Z
// (S != Z), each pair once; L(Z) of eq. 3 is Z's out-degree here.
CsrGraph BuildSiteGraph(const TopicHubInput& input);

// Eq. 3: SiteRank(S) = (1 - delta) t(S) + delta * sum_{Z -> S}
//   SiteRank(Z) / L(Z), started from Sfreq (normalised to sum 1), with t the
// teleport vector (Sfreq normalised, or 1/N; see sfreq_teleport). Sites
// without out-links spread their rank by t, so the values keep summing to 1.
// When every Sfreq is 0, t is uniform. Eq. 1: TSI(S) = SiteRank(S) at
// convergence. Returns TSI; *iterations (optional) gets the sweep count.
std::vector<double> SiteRank(const CsrGraph& site_graph,
                             std::span<const double> sfreq,
                             const TopicHubOptions& options,
                             int* iterations = nullptr);

// Eq. 5-6 for the nodes of one topic resource graph: CAP(p) = beta |R_p| +
// (1 - beta) |U_p| (crawled out-links of p to relevant / irrelevant pages,
// self-links excluded); CAP'(p) = (CAP - CAP_avg) / (CAP_max - CAP_min)
// clipped to [0, 1] (0 for all when CAP_max = CAP_min). `nodes` are page
// ids; the result is parallel to it.
std::vector<double> NormalizedAggregation(const TopicHubInput& input,
                                          std::span<const uint32_t> nodes,
                                          double cap_beta);

// Eq. 4: I(p) = (1 - a) Sim(p) + a CAP'(p).
inline double NodeImportance(double sim, double cap_norm, double a) {
  return (1 - a) * sim + a * cap_norm;
}

// One site's stage 2: its topic resource graph G_s (the site's relevant
// pages plus their in- and out-neighbours within the site, and the links
// among those), node importance (eq. 4-6), then Algorithm 1: SCCs, each
// contracted into its most important node, and the minimum cover set.
// Returns the THub pages with page_weight = I(p) (site fields left 0),
// sorted by I(p), best first. `reverse` is input.links.Reversed();
// `site_pages` the site's page ids.
std::vector<ThubPage> SiteThubPages(const TopicHubInput& input,
                                    const CsrGraph& reverse,
                                    std::span<const uint32_t> site_pages,
                                    const TopicHubOptions& options);

// All three stages.
TopicHubResult RunTopicHub(const TopicHubInput& input,
                           const TopicHubOptions& options);

}  // namespace topicrawl

#endif  // TOPICRAWL_GRAPH_TOPIC_HUB_H_
