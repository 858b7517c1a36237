// Seed 004's result-page SVM (004_d65f8d41b01a9f7d §3.1): a C-SVC with an RBF
// kernel on <TextDegree, LinkDegree, Aggregation> (result_page_features.h),
// trained, scaled, grid-searched and saved by the shared SVM module
// (classify/svm_model.h, the same code as seed 003's hub SVM: one training
// module, two feature sets). This file only knows the result-page feature
// set: its names, its rows, and the training file that
// `topicrawl label result-pages` writes.
//
// Model kind "result-page"; feature names text_degree, link_degree,
// aggregation. The jlse strategy loads it with `result_model = FILE` in
// [strategy.jlse] and calls a page a result page when it is relevant and the
// SVM predicts class 1.
#ifndef TOPICRAWL_STRATEGIES_JLSE_RESULT_PAGE_SVM_H_
#define TOPICRAWL_STRATEGIES_JLSE_RESULT_PAGE_SVM_H_

#include <string>
#include <string_view>
#include <vector>

#include "classify/svm_model.h"
#include "core/status.h"
#include "strategies/jlse/result_page_features.h"

namespace topicrawl {

inline constexpr char kResultPageModelKind[] = "result-page";

// {"text_degree", "link_degree", "aggregation"}, the model's feature order.
const std::vector<std::string>& ResultPageFeatureNames();

// What a training row's class is:
//   kDetail: the `label` column (DetailPage 1 / LinkPage 0, the URL rule);
//   kResult: the seed's result page, a relevant DetailPage (label = 1 and
//            relevant = 1); needs the `relevant` column (label result-pages
//            --labels), rows whose relevance is unknown ("-") are skipped.
enum class ResultPageTarget { kDetail, kResult };
bool ParseResultPageTarget(std::string_view name, ResultPageTarget* out);

struct ResultPageDataSummary {
  size_t rows = 0;       // data rows in the file
  size_t used = 0;       // rows in the data set
  size_t positives = 0;  // of the used rows
  size_t skipped_unknown = 0;  // kResult: rows without a topic label
};

// Reads the TSV of `topicrawl label result-pages` (header url, label,
// text_degree, link_degree, aggregation, ..., relevant). Errors name the
// file and line: unreadable file, missing columns, a non-numeric feature,
// a label other than 0/1.
StatusOr<SvmDataset> ReadResultPageTsv(const std::string& path, ResultPageTarget target,
                                       ResultPageDataSummary* summary = nullptr);

// Loads a "result-page" model and checks its feature names.
StatusOr<SvmModel> LoadResultPageModel(const std::string& path);

// The SVM's verdict on a page's features (class 1 = DetailPage / result).
bool IsDetailPageBySvm(const SvmModel& model, const ResultPageFeatures& f);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_JLSE_RESULT_PAGE_SVM_H_
