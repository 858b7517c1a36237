#include "strategies/jlse/result_page_svm.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <span>

#include "core/tsv.h"

namespace topicrawl {
namespace {

bool ParseDouble(std::string_view s, double* v) {
  std::string tmp(s);
  if (tmp.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *v = std::strtod(tmp.c_str(), &end);
  return errno == 0 && end == tmp.c_str() + tmp.size() && std::isfinite(*v);
}

}  // namespace

const std::vector<std::string>& ResultPageFeatureNames() {
  static const std::vector<std::string> names = {"text_degree", "link_degree", "aggregation"};
  return names;
}

bool ParseResultPageTarget(std::string_view name, ResultPageTarget* out) {
  if (name == "detail") {
    *out = ResultPageTarget::kDetail;
  } else if (name == "result") {
    *out = ResultPageTarget::kResult;
  } else {
    return false;
  }
  return true;
}

StatusOr<SvmDataset> ReadResultPageTsv(const std::string& path, ResultPageTarget target,
                                       ResultPageDataSummary* summary) {
  std::ifstream in(path);
  if (!in) return Status::Error("cannot read " + path);
  std::string line;
  if (!std::getline(in, line)) return Status::Error(path + ": empty file (no header)");
  // Columns by name, so that added columns do not break old files.
  const auto header = SplitTabs(line);
  auto column = [&](std::string_view name) -> int {
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return static_cast<int>(i);
    }
    return -1;
  };
  const int c_label = column("label");
  const int c_rel = column("relevant");
  int c_feat[3];
  for (int k = 0; k < 3; ++k) c_feat[k] = column(ResultPageFeatureNames()[k]);
  if (c_label < 0 || c_feat[0] < 0 || c_feat[1] < 0 || c_feat[2] < 0) {
    return Status::Error(path + ": not a `topicrawl label result-pages` file (needs the "
                         "columns label, text_degree, link_degree, aggregation)");
  }
  if (target == ResultPageTarget::kResult && c_rel < 0) {
    return Status::Error(path + ": --target result needs the relevant column (write the file "
                         "with `label result-pages --labels LABELS.tsv`)");
  }
  SvmDataset data;
  data.feature_names = ResultPageFeatureNames();
  ResultPageDataSummary sum;
  int line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    ++sum.rows;
    const auto cols = SplitTabs(line);
    const std::string where = path + ":" + std::to_string(line_no);
    const int need = std::max({c_label, c_rel, c_feat[0], c_feat[1], c_feat[2]});
    if (static_cast<int>(cols.size()) <= need) {
      return Status::Error(where + ": " + std::to_string(cols.size()) + " columns, expected " +
                           std::to_string(header.size()));
    }
    const std::string_view label = cols[static_cast<size_t>(c_label)];
    if (label != "0" && label != "1") {
      return Status::Error(where + ": label '" + std::string(label) + "' is not 0 or 1");
    }
    int y = label == "1" ? 1 : 0;
    if (target == ResultPageTarget::kResult) {
      const std::string_view rel = cols[static_cast<size_t>(c_rel)];
      if (rel == "-") {
        ++sum.skipped_unknown;
        continue;
      }
      if (rel != "0" && rel != "1") {
        return Status::Error(where + ": relevant '" + std::string(rel) + "' is not 0, 1 or -");
      }
      y = (y == 1 && rel == "1") ? 1 : 0;
    }
    std::vector<double> row(3);
    for (int k = 0; k < 3; ++k) {
      if (!ParseDouble(cols[static_cast<size_t>(c_feat[k])], &row[static_cast<size_t>(k)])) {
        return Status::Error(where + ": " + ResultPageFeatureNames()[static_cast<size_t>(k)] +
                             " '" + std::string(cols[static_cast<size_t>(c_feat[k])]) +
                             "' is not a finite number");
      }
    }
    data.Add(std::move(row), y);
    ++sum.used;
    sum.positives += static_cast<size_t>(y);
  }
  if (summary) *summary = sum;
  return data;
}

StatusOr<SvmModel> LoadResultPageModel(const std::string& path) {
  auto model = SvmModel::Load(path, kResultPageModelKind);
  if (!model.ok()) return model.status();
  if (Status s = model->CheckFeatures(ResultPageFeatureNames()); !s.ok()) {
    return Status::Error(path + ": " + s.message());
  }
  return model;
}

bool IsDetailPageBySvm(const SvmModel& model, const ResultPageFeatures& f) {
  const auto v = f.vector();
  return model.Predict(std::span<const double>(v.data(), v.size())) == 1;
}

}  // namespace topicrawl
