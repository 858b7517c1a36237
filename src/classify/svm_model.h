// A binary C-SVC with an RBF kernel, trained with libsvm (Debian libsvm-dev,
// 3.24), for any fixed-length vector of named numeric features.
//
// It does what seed 003 (003_8082e0a8ad518813.txt §3.3 (3) ②-⑥) did with
// LibSVM's tools, as one library call:
//   ② every feature is scaled linearly to [-1, 1] from the training set's
//     min/max (svm-scale; a constant feature maps to 0; values outside the
//     training range extrapolate beyond [-1, 1], as svm-scale does). The
//     scale is part of the model, so callers always pass RAW features.
//   ③ C-SVC, RBF kernel K(x, y) = exp(-gamma |x - y|^2).
//   ④ grid search over (C, gamma) with k-fold cross-validation (libsvm's
//     grid.py grid: C = 2^-5..2^15, gamma = 2^-15..2^3, step 2^2), the
//     (grid point, fold) trainings spread over `threads` std::threads.
//   ⑤ the final model is trained on all examples with the best (C, gamma).
//   ⑥ the model is saved and reloaded (our own versioned text format).
// Beyond the seed, for a small positive class (hub pages are 5-55 % of a
// site's pages): libsvm's class weight (-w1: the positive class's C times
// n_negative / n_positive), the grid point chosen by cross-validated F1 of
// the positive class instead of accuracy, and a decision threshold chosen on
// the out-of-fold decision values of the training data (SvmGridOptions).
// The defaults are the seed's: no weight, accuracy, threshold 0.
//
// Determinism: folds are stratified by class and shuffled with our own
// seeded generator, not libsvm's svm_cross_validation (which uses rand(),
// shared by every thread of the process). Probabilities are Platt's sigmoid
// P(y=1|f) = 1 / (1 + exp(A f + B)) fitted to the out-of-fold decision values
// of the chosen grid point (what libsvm's -b 1 does with an internal 5-fold
// CV and rand()); so the same data and options give the same model bytes.
//
// Model file: text, first line "topicrawl-svm-model 2", then the kind (a
// caller-chosen name such as "hub-url"), the feature names with their scale,
// C, gamma, rho, Platt's A and B, the class weight and the decision
// threshold (version 2; a version 1 file loads with weight 1 and threshold
// 0), the support vectors (scaled), and a last
// line "checksum <Hash64Hex of every byte before it>". Load() checks all of
// it and never hands the file to libsvm: a truncated, edited or foreign file
// is refused with an error naming the file and line, never a crash.
//
// Implementation by role: svm_model.cc (data checks, scaling, prediction),
// svm_train.cc (folds, grid, selection, final fit), svm_model_io.cc (the
// file), svm_selection.h (scores and thresholds), svm_cv_grid.h and
// svm_smo.h (the deduplicated cross-validation engine).
//
// Thread-safety: a trained or loaded SvmModel is immutable; Decision(),
// Probability() and Predict() may be called from many threads.
#ifndef TOPICRAWL_CLASSIFY_SVM_MODEL_H_
#define TOPICRAWL_CLASSIFY_SVM_MODEL_H_

#include <cstdint>
#include <span>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace topicrawl {

// Rows of the same named features with binary labels (1 = positive class,
// 0 = negative). Feature names are [A-Za-z0-9_.-]+ (they go into the file).
struct SvmDataset {
  std::vector<std::string> feature_names;
  std::vector<std::vector<double>> rows;
  std::vector<int> labels;
  // Optional: a group per row (e.g. the row's web site). Empty, or one per
  // row. Used only by SvmGridOptions::group_folds.
  std::vector<uint32_t> groups;

  void Add(std::vector<double> row, int label) {
    rows.push_back(std::move(row));
    labels.push_back(label);
  }
  size_t size() const { return rows.size(); }
  // Errors: bad feature name, a row of the wrong length, a non-finite value,
  // a label other than 0/1, rows/labels of different lengths.
  Status Validate() const;
};

// svm-scale's linear map of each feature from the training [min, max] to
// [lower, upper]. A feature with max == min maps to 0 (svm-scale drops it).
class FeatureScaler {
 public:
  FeatureScaler() = default;
  // REQUIRES: every row has `dims` values.
  static FeatureScaler Fit(const std::vector<std::vector<double>>& rows, size_t dims,
                           double lower = -1, double upper = 1);
  // From stored bounds (the model file). REQUIRES: mins.size() == maxs.size().
  FeatureScaler(std::vector<double> mins, std::vector<double> maxs, double lower, double upper);

  size_t dims() const { return mins_.size(); }
  double Scale(size_t k, double raw) const;
  // The inverse of Scale; for a constant feature it returns its value.
  double Unscale(size_t k, double scaled) const;
  // REQUIRES: raw.size() == dims() == out->size()
  void ScaleRow(std::span<const double> raw, std::span<double> out) const;

  const std::vector<double>& mins() const { return mins_; }
  const std::vector<double>& maxs() const { return maxs_; }
  double lower() const { return lower_; }
  double upper() const { return upper_; }

 private:
  std::vector<double> mins_, maxs_;
  double lower_ = -1, upper_ = 1;
};

// How the positive class's C is weighted (libsvm's -wi / weight_label).
enum class SvmClassWeight {
  kNone,              // C for both classes (libsvm's default, the seed's)
  kInverseFrequency,  // C_positive = C n_negative / n_positive of the training data
};
// What the grid search maximises over the out-of-fold predictions.
enum class SvmSelection {
  kAccuracy,  // libsvm grid.py's criterion (the seed's)
  kF1,        // F1 of the positive class (label 1)
};

// Progress of SvmModel::Train (SvmGridOptions::progress).
struct SvmGridProgress {
  size_t done = 0, total = 0;  // (grid point, fold) fits
  size_t rows = 0;             // rows in the cross-validation (grid_sample)
  double elapsed_s = 0;
  bool final_fit = false;      // the grid is done; the final fit starts
};

struct SvmGridOptions {
  // log2 ranges, inclusive (libsvm tools/grid.py defaults).
  int log2c_min = -5, log2c_max = 15, log2c_step = 2;
  int log2g_min = -15, log2g_max = 3, log2g_step = 2;
  int folds = 10;         // k of the k-fold cross-validation (>= 2)
  int threads = 2;        // worker threads for the grid (>= 1)
  uint64_t seed = 1;      // of the stratified fold assignment
  double cache_mb = 100;  // libsvm kernel cache per training
  double eps = 1e-3;      // libsvm stopping tolerance
  // The cross-validation engine. true: the distinct scaled vectors merged
  // into weighted examples, one kernel per (gamma, fold) shared by every C,
  // C ascending with warm starts (classify/svm_cv_grid.h says why this is
  // the same problem); false: one libsvm svm_train per (point, fold) on the
  // rows as they are. The final model is trained by libsvm either way.
  bool deduplicate = true;
  // Iteration cap of one cross-validation solve (deduplicate only); 0 =
  // libsvm's own, max(10^7, 100 n). Hits are counted in the report. With
  // label noise, SMO at C >= 2^7 runs for millions of iterations: 20,000
  // ends the full grid on 2,000 URLs in ~36 s CPU (298 of 1,100 solves
  // capped, all at large C; the chosen point is the uncapped grid's:
  // docs/strategies/hub-svm.md). A capped solve is an early-stopped SMO solution.
  int64_t max_iterations = 20000;
  SvmClassWeight class_weight = SvmClassWeight::kNone;
  SvmSelection select = SvmSelection::kAccuracy;
  // false: the decision threshold is 0 (libsvm's sign). true: for every
  // grid point, the threshold on its out-of-fold decision values of the
  // TRAINING data that maximises `select` (svm_selection.h); the point's
  // score is the score at that threshold and the chosen point's threshold
  // goes into the model (Predict: decision > threshold).
  bool tune_threshold = false;
  // false: stratified folds of the rows. true: folds of whole groups
  // (SvmDataset::groups, GroupFolds), so that cross-validation scores rows of
  // groups the fold's model never saw: the condition of a test split by web
  // site. min(folds, groups) folds; training needs >= 2 groups.
  bool group_folds = false;
  // The grid's budget: the cross-validation runs on at most this many rows
  // (a stratified sample drawn with `seed`; 0 = every row); the chosen
  // point's final fit uses every row. The deduplicated engine's cost grows
  // with the square of the distinct vectors (kernel rows) times gammas x
  // folds: 2,000 rows keep the default grid to ~1 CPU-minute
  // (docs/strategies/hub-svm.md), where 8,000 ran for more than 5 minutes.
  size_t grid_sample = 2000;
  // Called as (point, fold) fits finish, from the grid's threads (one at a
  // time); empty: silent.
  std::function<void(const SvmGridProgress&)> progress;
};

struct SvmGridPoint {
  int log2c = 0;
  int log2g = 0;
  double cv_accuracy = 0;  // share of examples classified right out of fold
  double cv_f1 = 0;        // out-of-fold F1 of the positive class
  double threshold = 0;    // the decision threshold both figures are at
};

struct SvmTrainReport {
  std::vector<SvmGridPoint> grid;  // every point tried, in grid order
  SvmGridPoint best;
  int folds = 0;
  size_t examples = 0, positives = 0;
  double positive_weight = 1;  // the positive class's C multiplier
  size_t support_vectors = 0;
  double cpu_seconds = 0;   // process CPU time of the whole Train() call
  double wall_seconds = 0;
  // The deduplicated engine's figures (0 with deduplicate = false).
  size_t unique_vectors = 0;   // distinct scaled vectors
  int64_t cv_iterations = 0;   // SMO iterations of all CV solves
  size_t cv_solves = 0;
  size_t cv_capped = 0;        // CV solves stopped by max_iterations
  size_t grid_rows = 0;        // rows the grid cross-validated (<= examples)
};

// Deterministic stratified k-fold assignment: examples of each class are
// shuffled with `seed` and dealt round-robin, so every fold gets
// floor/ceil(n_class / k) of each class. Returns fold index per example.
std::vector<int> StratifiedFolds(const std::vector<int>& labels, int folds, uint64_t seed);

// Folds of whole groups: groups are shuffled with `seed`, then taken largest
// first, each into the fold with the fewest rows so far (ties: lower fold).
// k = min(folds, distinct groups) folds. Returns the fold per row.
std::vector<int> GroupFolds(const std::vector<uint32_t>& groups, int folds, uint64_t seed);

// Platt's sigmoid fit (Lin, Lin and Weng 2007 version of Platt 2000) of
// labels (0/1) on decision values; returns {A, B}.
std::pair<double, double> FitPlattSigmoid(const std::vector<double>& decisions,
                                          const std::vector<int>& labels);

class SvmModel {
 public:
  // Grid search (options' ranges and folds), then the final fit with the
  // best point (ties: smaller C, then smaller gamma). `kind` names what the
  // model is for ([A-Za-z0-9_.-]+); Load() checks it.
  // Errors: invalid data, fewer than 2 examples of a class, bad options.
  static StatusOr<SvmModel> Train(const SvmDataset& data, std::string kind,
                                  const SvmGridOptions& options,
                                  SvmTrainReport* report = nullptr);
  // Same with a single grid point (2^log2c, 2^log2g): cross-validation only
  // for Platt's sigmoid and the reported accuracy.
  static StatusOr<SvmModel> TrainAt(const SvmDataset& data, std::string kind, int log2c,
                                    int log2g, const SvmGridOptions& options,
                                    SvmTrainReport* report = nullptr);

  // Decision value of RAW features (scaled inside): > 0 means class 1.
  // REQUIRES: raw.size() == feature_names().size()
  double Decision(std::span<const double> raw) const;
  // Platt probability of class 1 (fitted on the out-of-fold decision values;
  // the threshold does not enter it).
  double Probability(std::span<const double> raw) const;
  // The same from a decision value already computed (Decision(raw)): one
  // kernel sum per URL when a caller needs both the class and the probability.
  double ProbabilityOfDecision(double decision) const;
  // Predict() from a decision value already computed.
  int PredictOfDecision(double decision) const { return decision > threshold_ ? 1 : 0; }
  // Class 1 when the decision value exceeds the model's threshold: 0 (libsvm's
  // rule, the sign) unless trained with tune_threshold.
  int Predict(std::span<const double> raw) const {
    return Decision(raw) > threshold_ ? 1 : 0;
  }

  std::string Serialize() const;
  Status Save(const std::string& path) const;
  // Errors (message names the file and, for bad content, the line): cannot
  // read; not a topicrawl SVM model; unsupported version; checksum mismatch
  // (truncated or edited); malformed line; kind != expected_kind (when
  // expected_kind is not empty).
  static StatusOr<SvmModel> Load(const std::string& path, std::string_view expected_kind);
  static StatusOr<SvmModel> Parse(std::string_view text, std::string_view expected_kind,
                                  std::string_view source = "model");
  // OK when `names` equal the model's feature names, else an error listing both.
  Status CheckFeatures(const std::vector<std::string>& names) const;

  const std::string& kind() const { return kind_; }
  const std::vector<std::string>& feature_names() const { return feature_names_; }
  const FeatureScaler& scaler() const { return scaler_; }
  double c() const { return c_; }
  double gamma() const { return gamma_; }
  double cv_accuracy() const { return cv_accuracy_; }
  double threshold() const { return threshold_; }
  double positive_weight() const { return positive_weight_; }
  double platt_a() const { return platt_a_; }
  double platt_b() const { return platt_b_; }
  size_t support_vectors() const { return coef_.size(); }
  size_t train_examples() const { return train_examples_; }  // rows of the final fit

 private:
  friend struct SvmModelBuilder;
  double DecisionScaled(const double* x) const;
  // Fills the prediction layout below from sv_ (after training or loading).
  void BuildPredictionLayout();

  std::string kind_;
  std::vector<std::string> feature_names_;
  FeatureScaler scaler_;
  double c_ = 1, gamma_ = 1, cv_accuracy_ = 0;
  int cv_folds_ = 0;
  size_t train_examples_ = 0, train_positives_ = 0;
  double rho_ = 0;
  double platt_a_ = -1, platt_b_ = 0;
  double positive_weight_ = 1, threshold_ = 0;
  std::vector<double> coef_;  // alpha_i * y_i, sign so that > 0 is class 1
  std::vector<double> sv_;    // support vectors, scaled, row-major (n_sv x dims)
  // Prediction layout: only the dimensions whose training range is not a
  // single value (the others scale to 0 everywhere and add nothing to any
  // distance), dimension-major for the vectorised kernel loop.
  std::vector<size_t> active_;
  std::vector<double> sv_by_dim_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CLASSIFY_SVM_MODEL_H_
