// The plan of a simulated evolution (`topicrawl web evolve`): which pages of
// a built web are hidden at round 0 and published later, which are edited in
// which round, and which go away. Pure function of the link graph, the
// options and the seed; no files (web/evolved_web.h writes the rounds).
//
// Model ("news"; docs/guides/rounds.md "Evolving webs" has the reasons and the
// literature):
//  * The graph is walked breadth-first from the roots (the home pages).
//    Only pages reachable that way take part; pages the crawler could never
//    reach stay as they are in every round.
//  * Hidden pages are BFS-tree leaves (reachable, not a root, nobody's BFS
//    parent). Hiding a leaf never cuts another page off, and a hidden page's
//    BFS parent is always present, so a page published in round k is
//    reachable in round k, through the pages that link to it.
//    round(hidden_at_start x pages) leaves are hidden at round 0;
//    round(new_rate x pages) of them are published per round, until none
//    are left. Default: round(new_rate x pages) x rounds hidden, so the pool
//    lasts exactly until the last round. Which leaves:
//      kNews: new articles appear under a stable set of *sections*: a
//        section is the set of leaves linked from exactly the same pages
//        (a list page and its neighbours); sections are drawn with weight
//        min(leaves, cap) / linkers^2, each contributing up to
//        cap = kSectionPagesPerRound x rounds of its leaves, published
//        round-robin so that a section gains links in every round: the hubs
//        of new pages are the same pages every round, as a news site's
//        front and section pages.
//      kLegacy: any leaf, weight 1/in-degree, in one seeded order (the hubs
//        are different pages every round).
//  * Gone pages are other BFS leaves (never hidden ones): per round
//    round(gone_rate x present pages); each answers 404 or 410 (coin flip)
//    from that round on.
//  * Edits: a page that exists in rounds k-1 and k is edited in round k with
//    its own probability p_i, drawn once per page (stable across rounds):
//      kNews: p_i = 1 - exp(-lambda_i), lambda_i ~ Gamma(rate_shape, theta_c)
//        (change rates of real pages are gamma-distributed and very skewed:
//        Cho & Garcia-Molina, ACM TODS 28(4) 2003, section 5). The class c is
//        "index" (pages with BFS children: front, section and list pages) or
//        "leaf" (articles); theta_c is solved in closed form,
//        E[1 - exp(-lambda)] = 1 - (1 + theta)^(-shape), so that the
//        expected share of edited pages is change_rate and index pages carry
//        index_change_share of the edits (Adar et al., WSDM 2009: pages near
//        the site's root change more often).
//      kLegacy: p_hot for a random volatile_share of the pages, else p_cold,
//        volatile pages carrying volatile_change_share of the edits.
//    Pages that link to a page published in round k also change in round k
//    (their link appears); that is not counted in change_rate.
//  Every random draw is a hash of (seed, page, round, purpose), so the plan
//  does not depend on iteration order or the C++ library.
#ifndef TOPICRAWL_WEB_EVOLVE_PLAN_H_
#define TOPICRAWL_WEB_EVOLVE_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl::web {

enum class EvolveModel { kNews, kLegacy };

// New pages per section and round in the kNews model.
constexpr int kSectionPagesPerRound = 2;

struct EvolveOptions {
  EvolveModel model = EvolveModel::kNews;
  int rounds = 4;        // rounds 1..rounds follow round 0
  uint64_t seed = 1;
  double new_rate = 0.02;      // pages published per round / pages of the web
  double change_rate = 0.05;   // expected edited pages per round / present reachable pages
  double gone_rate = 0.005;    // pages gone per round / present pages
  double hidden_at_start = -1; // share hidden at round 0; < 0: new_rate x rounds
  // kNews: gamma shape of the per-page change rates (smaller = more skewed),
  // and the share of the edits that fall on index pages.
  double rate_shape = 0.2;
  double index_change_share = 0.7;
  // kLegacy: share of reachable pages that are volatile, and their share of
  // the edits.
  double volatile_share = 0.10;
  double volatile_change_share = 0.80;

  // Rates in [0, 1], rounds in 1..1000, hidden_at_start <= 0.9.
  Status Validate() const;
  double HiddenAtStart() const { return hidden_at_start < 0 ? new_rate * rounds : hidden_at_start; }
};

// The link graph of a web: page i links to links[i] (page indices; duplicates
// and self-links allowed), roots are the home pages.
struct PageGraph {
  std::vector<std::vector<uint32_t>> links;
  std::vector<uint32_t> roots;
  // The page count the rates refer to (0: size()); `web evolve --hosts`
  // gives the pages of its hosts.
  size_t rate_base = 0;
  size_t size() const { return links.size(); }
  size_t RateBase() const { return rate_base == 0 ? size() : rate_base; }
};

// When a graph has no roots (no homes given): the included pages nobody else
// links to stand in for them, or page 0 when every page is linked to.
// `included` has one flag per page.
void RootsFromUnlinkedPages(const std::vector<char>& included, PageGraph* graph);

constexpr int kNever = 1 << 30;

struct PagePlan {
  int publish_round = 0;   // first round the page exists; kNever = never published
  int gone_round = kNever; // first round it answers gone_code
  int gone_code = 404;     // 404 or 410
  std::vector<int> edit_rounds;  // ascending, each in 1..rounds
  bool reachable = false;  // from the roots in the base web
  bool is_volatile = false;  // kNews: an index page (has BFS children); kLegacy: drawn
  double change_p = 0;       // probability of an edit per round (drawn once)
  uint32_t section = UINT32_MAX;  // kNews: the section (id) a hidden page is published under

  bool Present(int round) const { return publish_round <= round && round < gone_round; }
  bool EditedIn(int round) const;
};

struct EvolvePlan {
  int rounds = 0;
  std::vector<PagePlan> pages;
  std::vector<uint32_t> bfs_parent;  // UINT32_MAX for roots and unreachable pages
  // Per round 1..rounds (index = round): how many pages were published,
  // edited and made gone (index 0: pages hidden at round 0 in `published`).
  std::vector<size_t> published, edited, gone;
};

// The true per-round change probability of page `page` (for the bench-only
// oracle round policy, eval/round_oracle.h; written to E/truth/rates.tsv):
//   edit_p    = its edit probability p_i (PagePlan::change_p),
//   hub_share = the share of the rounds 1..rounds it is present in in which
//               it links to a page published in that round (its link
//               appears: a change on top of the edits),
//   change_p  = 1 - (1 - edit_p) (1 - hub_share).
struct PageRate {
  double edit_p = 0;
  double hub_share = 0;
  double change_p = 0;
};
PageRate TruePageRate(const EvolvePlan& plan, const PageGraph& graph, uint32_t page);

// "news" / "legacy" and back.
const char* EvolveModelName(EvolveModel model);
bool ParseEvolveModel(const std::string& name, EvolveModel* model);

// A Gamma(shape, 1) variate from (seed, page, purpose) (Marsaglia & Tsang
// 2000; shape < 1 via Gamma(shape + 1) x U^(1/shape)). Deterministic.
double PlanGamma(double shape, uint64_t seed, uint64_t page, uint64_t purpose);

// Fails on invalid options or a root index out of range.
StatusOr<EvolvePlan> PlanEvolution(const PageGraph& graph, const EvolveOptions& options);

// A uniform double in [0, 1) from (seed, a, b, c): the plan's only randomness,
// exported for the edit generator (which donor, where).
double PlanRandom(uint64_t seed, uint64_t a, uint64_t b, uint64_t c);
uint64_t PlanHash(uint64_t seed, uint64_t a, uint64_t b, uint64_t c);

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_EVOLVE_PLAN_H_
