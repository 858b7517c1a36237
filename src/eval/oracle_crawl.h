// The oracle crawl: how many relevant pages a crawler that knows the labels
// and the link graph finds in its first n fetches, from the same seeds. It
// is the reference `topicrawl eval --oracle` reports recall against
// (oracle_recall, share_of_oracle = recall / oracle_recall).
//
// Model. Like a real crawler the oracle only fetches URLs it has seen: the
// seeds, then the out-links of the pages it fetched (its queue). Each fetch
// costs one page of budget and reveals the page's out-links. It never
// fetches a URL twice and never fetches a URL that is no page of the graph.
//
// The greedy, at each step:
//   1. a queued relevant page, if there is one (oldest first);
//   2. else the queued page u with the smallest d(u), the hop distance from u
//      to the nearest relevant page not fetched yet; ties go to the larger
//      c(u), the number of unfetched relevant pages within d(u) hops of u,
//      then to the page queued first.
//   Stops when no queued page has a finite d (no relevant page is left
//   reachable): the curve stays flat from there.
//
// Cost. d is kept for every node by one multi-source BFS over the reversed
// graph from the relevant set, then updated incrementally when a relevant
// page is fetched (it stops being a source; only nodes whose every shortest
// path went through it are touched: two-phase decremental BFS, see the .cc).
// Queued pages sit in a lazy min-heap by d (d only grows). c(u) is a BFS of
// depth d(u) from u, computed only for the tied candidates at the top of the
// heap (at most kOracleTieCandidates of them, visiting at most
// kOracleTieVisits nodes each) and cached until the next relevant fetch. A
// 50k-page web with 2 M edges runs in seconds.
//
// Where the greedy can be beaten (it is a bound to compare against, not the
// optimum): it is myopic. Relevant page first and nearest-first can lose to a
// longer path that opens a larger cluster: with budget 5 from S, where
// S->A->R1 and S->B->C->{R2..R9}, the greedy fetches S, A, R1, B, C (1
// relevant) and the optimum S, B, C, R2, R3 (2). c(u) only looks d(u) hops
// ahead, and the tie-break caps can miss the best tied candidate. Finding the
// optimal order is a budgeted prize-collecting tree problem (NP-hard in
// general), so the exact optimum is out of reach at 50k pages.
#ifndef TOPICRAWL_EVAL_ORACLE_CRAWL_H_
#define TOPICRAWL_EVAL_ORACLE_CRAWL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "eval/labels.h"
#include "eval/link_graph.h"
#include "eval/metrics.h"

namespace topicrawl::eval {

constexpr int kOracleTieCandidates = 32;
constexpr int kOracleTieVisits = 20000;

struct OracleRun {
  // found[n-1]: relevant pages fetched in the first n fetches, n = 1..budget.
  std::vector<int64_t> found;
  // Fetch order (node ids); shorter than the budget when the oracle stopped.
  std::vector<int32_t> order;
};

// Simulates the greedy above for `budget` fetches. `relevant[v]` marks the
// relevant nodes (size graph.node_count()); `seeds` are node ids (duplicates
// and out-of-range ids are ignored).
OracleRun RunOracleCrawl(const LinkGraph& graph, const std::vector<bool>& relevant,
                         const std::vector<int32_t>& seeds, int64_t budget);

// The oracle's recall curve for a crawl evaluated against `labels`:
// recall[n-1] = relevant found in n fetches / labels.relevant_count() (the
// denominator of the crawl's own recall, so the two compare directly).
// Relevant label URLs that are no graph node cannot be found; seed URLs that
// are no node are skipped. Both are counted in *notes.
struct OracleCurve {
  std::vector<double> recall;
  int64_t graph_nodes = 0;
  int64_t graph_edges = 0;
  int64_t relevant_in_graph = 0;
  int64_t seeds_in_graph = 0;
  std::vector<std::string> notes;
};
OracleCurve ComputeOracleCurve(const LinkGraph& graph, const LabelSet& labels,
                               const std::vector<std::string>& seed_urls, int64_t budget);

// `topicrawl eval --oracle --graph-from GRAPH_DIR`: reads the link graph
// of GRAPH_DIR (ReadLinkGraph) and the seeds of CRAWL_DIR (ReadCrawlSeeds),
// runs the oracle for max(the crawl's DP, `budget`) fetches and adds its
// curve to *m (AddOracleCurve, metrics.h; notes go to m->notes).
Status AddOracleFromGraph(const std::string& graph_dir, const std::string& crawl_dir,
                          const LabelSet& labels, int64_t budget, CrawlMetrics* m);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_ORACLE_CRAWL_H_
