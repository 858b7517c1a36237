// Metrics per crawl round (issue 11): how well a sequence of rounds
// (`topicrawl crawl` then `topicrawl recrawl` ...) kept up with an evolving
// web whose truth `web evolve` wrote (eval/round_truth.h).
//
// For round K (truth T_K relative to K-1; crawl store rows of round K):
//   fetches, bytes       fetches rows of K and their body bytes
//   not_modified         304 answers
//   new_found/new_total  truth `new` URLs fetched successfully in K / all
//   new_relevant_*       the same for truth-new URLs labelled 1; a found page
//                        stored as a near-duplicate does not count
//   changed_found/total  truth `changed` URLs the crawl recorded changed or
//                        trivially changed in K (changed_as_changed and
//                        changed_as_trivial split it) / all
//   gone_found/total     truth `gone` URLs recorded gone in K / all
//   fetches_per_new      fetches / new_found
//   freshness            share of the stored URLs (a version or a gone
//                        record at the end of K) whose stored state equals
//                        the served one: no truth event for the URL in the
//                        rounds after its last successful fetch
//   unaccounted          URLs served in K that the crawl has never fetched
//                        by the end of K (the store's blind spot)
//   new_found_announced  of new_found, the URLs the sites announced in the
//                        collection before K (sitemaps, feeds; store/
//                        announce_store.h); new_found_linked the others
//   hosts_judged,        hosts whose lastmod trust the round policy judged
//   trust_right          before K (host_trust), and those judged as the
//                        evolution drew them (E/truth/announce-hosts.tsv:
//                        accurate = trusted, build_date/stale = untrusted)
// URLs are matched in the label form (CanonicalizeLabelUrl) of the corpus.
#ifndef TOPICRAWL_EVAL_ROUND_METRICS_H_
#define TOPICRAWL_EVAL_ROUND_METRICS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "eval/labels.h"

namespace topicrawl::eval {

struct RoundMetrics {
  int round = 0;
  int64_t fetches = 0;
  int64_t bytes = 0;
  int64_t not_modified = 0;
  int64_t new_found = 0, new_total = 0;
  int64_t new_relevant_found = 0, new_relevant_total = 0;
  int64_t changed_found = 0, changed_total = 0;
  int64_t changed_as_changed = 0, changed_as_trivial = 0;
  int64_t gone_found = 0, gone_total = 0;
  int64_t near_duplicates = 0;  // pages stored in K as near-duplicates
  int64_t stored = 0;           // freshness denominator
  int64_t unaccounted = 0;
  int64_t new_found_announced = 0, new_found_linked = 0;
  int64_t hosts_judged = 0, trust_right = 0;
  double fetches_per_new = 0;   // 0 when nothing new was found
  double freshness = 0;
};

// Reads the crawl directory (read-only; schema 3) and the truth of rounds
// 0..min(crawl round, truth rounds). Errors: not a crawl, an older schema,
// an interrupted or missing truth, a truth whose hosts the crawl never
// fetched ("truth for other hosts").
// scope_hosts: count only truth URLs on hosts where the crawl stored a page
// (for crawls limited to some hosts with --include-host).
StatusOr<std::vector<RoundMetrics>> ComputeRoundMetrics(const std::string& crawl_dir,
                                                        const std::string& truth_dir,
                                                        const LabelSet* labels,
                                                        bool scope_hosts = false);

std::string RoundMetricsToTable(const std::vector<RoundMetrics>& rounds);
// {"rounds": [{round, fetches, bytes, not_modified, new_found, ...}]}
std::string RoundMetricsToJson(const std::vector<RoundMetrics>& rounds);
// One SVG: recall of new / changed / gone pages and freshness per round,
// plus the 304 share.
std::string RenderRoundChart(const std::vector<RoundMetrics>& rounds, const std::string& title);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_ROUND_METRICS_H_
