// Writes a summarised experiment (experiment.h) as
//   table.md    per checkpoint: mean +- sd of every metric per strategy;
//               Friedman ranks (seed 000 tables 2/4/6 layout) with chi2, df, p;
//               wall time, pages/s, pages to 50 % / 90 % recall
//   table.csv   one row per (strategy, checkpoint, metric): mean, sd, runs
//   table.json  everything, machine-readable
//   harvest.svg harvest vs pages downloaded: mean line + sd band per
//               strategy, oracle bound (labels) dashed
//   recall.svg  recall vs pages downloaded (labels only), same layout
#ifndef TOPICRAWL_EVAL_EXPERIMENT_REPORT_H_
#define TOPICRAWL_EVAL_EXPERIMENT_REPORT_H_

#include <string>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "eval/experiment.h"

namespace topicrawl::eval {

std::string ExperimentToMarkdown(const ExperimentSummary& summary);
std::string ExperimentToCsv(const ExperimentSummary& summary);
nlohmann::json ExperimentToJson(const ExperimentSummary& summary);
std::string RenderHarvestChart(const ExperimentSummary& summary);
std::string RenderRecallChart(const ExperimentSummary& summary);

// The oracle crawler downloads only relevant pages until the `oracle_relevant`
// it can reach are exhausted:
//   harvest(n) = min(n, oracle_relevant) / n
//   recall(n)  = min(n, oracle_relevant) / relevant_total
double OracleHarvest(int64_t n, int64_t oracle_relevant);
double OracleRecall(int64_t n, int64_t oracle_relevant, int64_t relevant_total);

// Writes the five files above into out_dir (recall.svg only with labels).
Status WriteExperimentReport(const ExperimentSummary& summary, const std::string& out_dir);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_EXPERIMENT_REPORT_H_
