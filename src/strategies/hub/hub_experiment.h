// Seed 003's comparison (003_8082e0a8ad518813 §4): one detector trained on
// the training rows of a split and measured on its test rows, and the
// reproduction table (training sizes x detectors, mean +- sd over splits).
#ifndef TOPICRAWL_STRATEGIES_HUB_HUB_EXPERIMENT_H_
#define TOPICRAWL_STRATEGIES_HUB_HUB_EXPERIMENT_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "classify/svm_model.h"
#include "strategies/hub/hub_dataset.h"
#include "strategies/naive_bayes/nb_evaluation.h"

namespace topicrawl::hub {

enum class HubMethod {
  kSvmFull,    // URL-feature SVM, all ten features (seed 003)
  kSvmUrl,     // URL-feature SVM before download (no page size)
  kRules,      // simple rules
  kHeuristic,  // multi-feature heuristic
  kContent,    // content-based SVM
  kSvmUrlSite,  // URL SVM before download on site-relative features (hub_site_relative.h)
  // The URL-only detectors of hub_site_detectors.h:
  kSvmUrlBoth,       // raw + site-relative features
  kSvmUrlSiteRules,  // site-relative features + the rules' output
  kSiteOrRules,      // site-relative SVM OR rules
  kSvmUrlSiteRank,   // site-relative SVM, top q of each site (q by host-fold CV)
};
std::string_view HubMethodName(HubMethod m);
// "svm-full", "svm-url", "rules", "heuristic", "content", "svm-url-site",
// "svm-url-both", "svm-url-site-rules", "site-or-rules", "svm-url-site-rank";
// false if unknown.
bool ParseHubMethod(std::string_view name, HubMethod* m);

struct HubMethodResult {
  BinaryMetrics metrics;
  // The same test rows per host (a host split's test side holds whole hosts).
  std::map<std::string, BinaryMetrics> per_host;
  size_t train_examples = 0;
  bool svm = false;  // the fields below are set
  int log2c = 0, log2g = 0;
  double cv_accuracy = 0, cv_f1 = 0;
  double threshold = 0;  // chosen on the training rows' out-of-fold values only
  size_t support_vectors = 0;
  double train_cpu_seconds = 0;
};

// Trains `m` on rows[train] (rules: nothing to train) and evaluates it on
// rows[test]. Errors: an SVM cannot be trained (e.g. one class only).
StatusOr<HubMethodResult> RunHubMethod(HubMethod m, const std::vector<HubExample>& rows,
                                       const std::vector<size_t>& train,
                                       const std::vector<size_t>& test,
                                       const SvmGridOptions& grid);

// A trained URL model on rows[test], the rows encoded as `spec` reads them
// (EncodeHubRows: site-relative percentiles among all rows of each host).
BinaryMetrics EvaluateUrlModel(const SvmModel& model, const HubFeatureSpec& spec,
                               const std::vector<HubExample>& rows,
                               const std::vector<size_t>& test);

struct HubTableOptions {
  std::vector<int64_t> sizes = {500, 1000, 2000, -1};  // -1 = all training rows
  int splits = 5;                  // split seeds 1..splits
  double train_fraction = 0.7;
  bool split_by_host = true;       // false: SplitByRow (hosts on both sides)
  std::vector<HubMethod> methods = {HubMethod::kSvmFull, HubMethod::kSvmUrl, HubMethod::kRules,
                                    HubMethod::kHeuristic, HubMethod::kContent};
  SvmGridOptions grid;
};

struct HubTableCell {
  int64_t size = -1;
  HubMethod method = HubMethod::kRules;
  std::vector<double> accuracy, precision, recall, f1;  // one per split
  std::vector<size_t> train_examples;
  double cpu_seconds = 0;
  std::vector<std::string> errors;
};

struct HubTable {
  std::vector<HubTableCell> cells;  // sizes x methods, in that order
  std::vector<double> test_hub_share;  // per split
  std::vector<size_t> test_rows, train_rows;
};

// `progress` (may be null) gets one line per finished cell.
HubTable RunHubTable(const std::vector<HubExample>& rows, const HubTableOptions& options,
                     std::ostream* progress);
// Markdown: one row per (size, method): accuracy, precision, recall, F1 as
// mean +- sd over the splits.
std::string HubTableMarkdown(const HubTable& t);

}  // namespace topicrawl::hub

#endif  // TOPICRAWL_STRATEGIES_HUB_HUB_EXPERIMENT_H_
