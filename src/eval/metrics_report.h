// Presentation of CrawlMetrics: a text table (default of `topicrawl eval`),
// JSON (stable keys, documented in the eval command's help) and CSV (one row
// per checkpoint). Absent values are JSON null / empty CSV cells / "-".
#ifndef TOPICRAWL_EVAL_METRICS_REPORT_H_
#define TOPICRAWL_EVAL_METRICS_REPORT_H_

#include <string>

#include <nlohmann/json.hpp>

#include "eval/metrics.h"

namespace topicrawl::eval {

// {"checkpoints":[{"n","dp","lp","accuracy","ardp","sddp","arlp","sdlp",
//   "true_harvest","recall","recall_reachable","relevant_found",
//   "avg_harvest_rate","avg_target_recall","oracle_recall","share_of_oracle",
//   "elapsed_s"}...],
//  "pages_to_recall_50","pages_to_recall_90","wall_s","pages_per_s","beta",
//  "beta_source","dp","failed_rows","unscored_pages","has_labels",
//  "relevant_total","reachable_relevant_total","unlabelled_pages",
//  "judge":{"tp","fp","fn","tn","precision","recall","f1"} or null,
//  "oracle_graph" (null without --oracle),"notes"}
nlohmann::json MetricsToJson(const CrawlMetrics& metrics);
// The checkpoint header and rows of MetricsToCsv.
std::string MetricsToCsv(const CrawlMetrics& metrics);
// Fixed-width table plus a summary block; for people.
std::string MetricsToTable(const CrawlMetrics& metrics);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_METRICS_REPORT_H_
