// The SVM module's data types and prediction: SvmDataset's checks, svm-scale's
// FeatureScaler, and the decision function of a trained or loaded model.
// Training is in svm_train.cc, the model file in svm_model_io.cc.
#include "classify/svm_model.h"

#include <cmath>

#include "classify/svm_kernel.h"
#include "classify/svm_model_internal.h"

namespace topicrawl {
namespace svm_internal {


bool ValidName(std::string_view s) {
  if (s.empty() || s.size() > 200) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace svm_internal

using svm_internal::ValidName;

Status SvmDataset::Validate() const {
  for (const auto& n : feature_names) {
    if (!ValidName(n)) return Status::Error("svm: bad feature name '" + n + "'");
  }
  if (feature_names.empty()) return Status::Error("svm: no features");
  if (rows.size() != labels.size()) return Status::Error("svm: rows and labels differ in length");
  if (!groups.empty() && groups.size() != rows.size()) {
    return Status::Error("svm: rows and groups differ in length");
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].size() != feature_names.size()) {
      return Status::Error("svm: row " + std::to_string(i) + " has " +
                           std::to_string(rows[i].size()) + " values, expected " +
                           std::to_string(feature_names.size()));
    }
    for (double v : rows[i]) {
      if (!std::isfinite(v)) return Status::Error("svm: row " + std::to_string(i) + " is not finite");
    }
    if (labels[i] != 0 && labels[i] != 1) {
      return Status::Error("svm: label of row " + std::to_string(i) + " is not 0 or 1");
    }
  }
  return Status::Ok();
}

FeatureScaler FeatureScaler::Fit(const std::vector<std::vector<double>>& rows, size_t dims,
                                 double lower, double upper) {
  std::vector<double> mins(dims, 0), maxs(dims, 0);
  for (size_t k = 0; k < dims; ++k) {
    for (size_t i = 0; i < rows.size(); ++i) {
      double v = rows[i][k];
      if (i == 0 || v < mins[k]) mins[k] = v;
      if (i == 0 || v > maxs[k]) maxs[k] = v;
    }
  }
  return FeatureScaler(std::move(mins), std::move(maxs), lower, upper);
}

FeatureScaler::FeatureScaler(std::vector<double> mins, std::vector<double> maxs, double lower,
                             double upper)
    : mins_(std::move(mins)), maxs_(std::move(maxs)), lower_(lower), upper_(upper) {}

double FeatureScaler::Scale(size_t k, double raw) const {
  if (maxs_[k] == mins_[k]) return 0;
  return lower_ + (upper_ - lower_) * (raw - mins_[k]) / (maxs_[k] - mins_[k]);
}

double FeatureScaler::Unscale(size_t k, double scaled) const {
  if (maxs_[k] == mins_[k]) return mins_[k];
  return mins_[k] + (scaled - lower_) * (maxs_[k] - mins_[k]) / (upper_ - lower_);
}

void FeatureScaler::ScaleRow(std::span<const double> raw, std::span<double> out) const {
  for (size_t k = 0; k < mins_.size(); ++k) out[k] = Scale(k, raw[k]);
}

void SvmModel::BuildPredictionLayout() {
  const size_t d = feature_names_.size(), n = coef_.size();
  active_.clear();
  for (size_t k = 0; k < d; ++k) {
    if (scaler_.maxs()[k] != scaler_.mins()[k]) active_.push_back(k);
  }
  sv_by_dim_.assign(active_.size() * n, 0.0);
  for (size_t a = 0; a < active_.size(); ++a) {
    for (size_t i = 0; i < n; ++i) sv_by_dim_[a * n + i] = sv_[i * d + active_[a]];
  }
}

double SvmModel::DecisionScaled(const double* x) const {
  double buf[64];
  std::vector<double> heap;
  double* xa = buf;
  if (active_.size() > 64) {
    heap.resize(active_.size());
    xa = heap.data();
  }
  for (size_t a = 0; a < active_.size(); ++a) xa[a] = x[active_[a]];
  return RbfKernelSum(xa, active_.size(), sv_by_dim_.data(), coef_.data(), coef_.size(), gamma_) -
         rho_;
}

double SvmModel::Decision(std::span<const double> raw) const {
  const size_t d = feature_names_.size();
  double buf[64];
  std::vector<double> heap;
  double* x = buf;
  if (d > 64) {
    heap.resize(d);
    x = heap.data();
  }
  scaler_.ScaleRow(raw, std::span<double>(x, d));
  return DecisionScaled(x);
}

double SvmModel::Probability(std::span<const double> raw) const {
  return ProbabilityOfDecision(Decision(raw));
}

double SvmModel::ProbabilityOfDecision(double decision) const {
  double z = decision * platt_a_ + platt_b_;
  return z >= 0 ? std::exp(-z) / (1 + std::exp(-z)) : 1 / (1 + std::exp(z));
}

Status SvmModel::CheckFeatures(const std::vector<std::string>& names) const {
  if (names == feature_names_) return Status::Ok();
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& n : v) s += (s.empty() ? "" : ",") + n;
    return s;
  };
  return Status::Error("model features (" + join(feature_names_) + ") differ from the data's (" +
                       join(names) + ")");
}

}  // namespace topicrawl
