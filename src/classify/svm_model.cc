#include "classify/svm_model.h"

#include <libsvm/svm.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "classify/svm_cv_grid.h"
#include "classify/svm_kernel.h"
#include "core/hash.h"

namespace topicrawl {
namespace {

constexpr std::string_view kMagic = "topicrawl-svm-model";
constexpr int kFormatVersion = 1;
constexpr size_t kMaxModelBytes = size_t{1} << 30;

bool ValidName(std::string_view s) {
  if (s.empty() || s.size() > 200) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

double ProcessCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

// libsvm prints its optimiser progress to stdout unless told otherwise; the
// print function is process-global, so it is set once.
void SilenceLibsvm() {
  static std::once_flag once;
  std::call_once(once, [] { svm_set_print_string_function([](const char*) {}); });
}

// The data scaled once into libsvm's node layout: every feature explicit
// (zeros included), then the index -1 terminator.
struct ScaledNodes {
  std::vector<svm_node> nodes;
  std::vector<svm_node*> rows;
};

ScaledNodes ToNodes(const SvmDataset& data, const FeatureScaler& scaler) {
  const size_t d = data.feature_names.size();
  ScaledNodes s;
  s.nodes.resize(data.size() * (d + 1));
  s.rows.resize(data.size());
  std::vector<double> scaled(d);
  for (size_t i = 0; i < data.size(); ++i) {
    scaler.ScaleRow(data.rows[i], scaled);
    svm_node* row = &s.nodes[i * (d + 1)];
    for (size_t k = 0; k < d; ++k) row[k] = {static_cast<int>(k + 1), scaled[k]};
    row[d] = {-1, 0};
    s.rows[i] = row;
  }
  return s;
}

svm_parameter Param(double c, double gamma, const SvmGridOptions& o) {
  svm_parameter p{};
  p.svm_type = C_SVC;
  p.kernel_type = RBF;
  p.degree = 3;
  p.gamma = gamma;
  p.coef0 = 0;
  p.cache_size = o.cache_mb;
  p.eps = o.eps;
  p.C = c;
  p.nr_weight = 0;
  p.weight_label = nullptr;
  p.weight = nullptr;
  p.nu = 0.5;
  p.p = 0.1;
  p.shrinking = 1;
  p.probability = 0;
  return p;
}

// Decision value oriented so that > 0 means label 1 (libsvm orients it
// towards model->label[0], the first label it met in the training data).
double OrientedDecision(const svm_model* m, const svm_node* x) {
  if (svm_get_nr_class(m) < 2) {
    int label = 0;
    svm_get_labels(m, &label);
    return label == 1 ? 1.0 : -1.0;
  }
  double dec = 0;
  svm_predict_values(m, x, &dec);
  int labels[2];
  svm_get_labels(m, labels);
  return labels[0] == 1 ? dec : -dec;
}

// Out-of-fold decision values of one fold at (c, gamma), written into
// dec[i] for the examples of that fold.
void RunFold(const ScaledNodes& nodes, const std::vector<double>& y, const std::vector<int>& fold,
             int k, double c, double gamma, const SvmGridOptions& o, double* dec) {
  std::vector<svm_node*> x;
  std::vector<double> yy;
  for (size_t i = 0; i < fold.size(); ++i) {
    if (fold[i] != k) {
      x.push_back(nodes.rows[i]);
      yy.push_back(y[i]);
    }
  }
  if (x.size() == fold.size()) return;  // empty fold (fewer examples than folds)
  svm_problem prob{static_cast<int>(x.size()), yy.data(), x.data()};
  svm_parameter param = Param(c, gamma, o);
  svm_model* m = svm_train(&prob, &param);
  for (size_t i = 0; i < fold.size(); ++i) {
    if (fold[i] == k) dec[i] = OrientedDecision(m, nodes.rows[i]);
  }
  svm_free_and_destroy_model(&m);
}

double Accuracy(const std::vector<double>& dec, const std::vector<int>& labels) {
  size_t right = 0;
  for (size_t i = 0; i < dec.size(); ++i) right += ((dec[i] > 0 ? 1 : 0) == labels[i]);
  return dec.empty() ? 0 : static_cast<double>(right) / dec.size();
}

Status CheckOptions(const SvmGridOptions& o) {
  if (o.folds < 2) return Status::Error("svm: folds must be >= 2");
  if (o.threads < 1) return Status::Error("svm: threads must be >= 1");
  if (o.log2c_step <= 0 || o.log2g_step <= 0) return Status::Error("svm: grid steps must be > 0");
  if (o.log2c_min > o.log2c_max || o.log2g_min > o.log2g_max) {
    return Status::Error("svm: empty grid range");
  }
  if (std::abs(o.log2c_min) > 60 || std::abs(o.log2c_max) > 60 || std::abs(o.log2g_min) > 60 ||
      std::abs(o.log2g_max) > 60) {
    return Status::Error("svm: grid exponents beyond +-60");
  }
  if (!(o.cache_mb > 0) || !(o.eps > 0)) return Status::Error("svm: cache_mb and eps must be > 0");
  if (o.max_iterations < 0) return Status::Error("svm: max_iterations must be >= 0");
  return Status::Ok();
}

std::string Num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

// ---------------------------------------------------------------------------

Status SvmDataset::Validate() const {
  for (const auto& n : feature_names) {
    if (!ValidName(n)) return Status::Error("svm: bad feature name '" + n + "'");
  }
  if (feature_names.empty()) return Status::Error("svm: no features");
  if (rows.size() != labels.size()) return Status::Error("svm: rows and labels differ in length");
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

std::vector<int> StratifiedFolds(const std::vector<int>& labels, int folds, uint64_t seed) {
  std::vector<int> fold(labels.size(), 0);
  std::mt19937_64 rng(seed);
  int next = 0;  // continue the round-robin across classes: balanced fold sizes
  for (int cls : {1, 0}) {
    std::vector<size_t> idx;
    for (size_t i = 0; i < labels.size(); ++i) {
      if (labels[i] == cls) idx.push_back(i);
    }
    // Fisher-Yates with our generator (std::shuffle's use of the engine is
    // implementation-defined; this keeps folds identical across libraries).
    for (size_t i = idx.size(); i > 1; --i) std::swap(idx[i - 1], idx[rng() % i]);
    for (size_t i : idx) {
      fold[i] = next;
      next = (next + 1) % folds;
    }
  }
  return fold;
}

std::pair<double, double> FitPlattSigmoid(const std::vector<double>& dec,
                                          const std::vector<int>& labels) {
  // Lin, Lin & Weng, "A note on Platt's probabilistic outputs for support
  // vector machines" (2007), algorithm 1: Newton's method with backtracking
  // on the regularised targets, numerically stable log(1 + exp(.)).
  const size_t l = dec.size();
  double prior1 = 0, prior0 = 0;
  for (int y : labels) (y == 1 ? prior1 : prior0) += 1;
  const double hi = (prior1 + 1) / (prior1 + 2), lo = 1 / (prior0 + 2);
  std::vector<double> t(l);
  for (size_t i = 0; i < l; ++i) t[i] = labels[i] == 1 ? hi : lo;
  auto objective = [&](double a, double b) {
    double f = 0;
    for (size_t i = 0; i < l; ++i) {
      double z = dec[i] * a + b;
      f += z >= 0 ? t[i] * z + std::log1p(std::exp(-z)) : (t[i] - 1) * z + std::log1p(std::exp(z));
    }
    return f;
  };
  double a = 0, b = std::log((prior0 + 1) / (prior1 + 1));
  double fval = objective(a, b);
  for (int iter = 0; iter < 100; ++iter) {
    double h11 = 1e-12, h22 = 1e-12, h21 = 0, g1 = 0, g2 = 0;
    for (size_t i = 0; i < l; ++i) {
      double z = dec[i] * a + b;
      double p, q;
      if (z >= 0) {
        p = std::exp(-z) / (1 + std::exp(-z));
        q = 1 / (1 + std::exp(-z));
      } else {
        p = 1 / (1 + std::exp(z));
        q = std::exp(z) / (1 + std::exp(z));
      }
      double d2 = p * q;
      h11 += dec[i] * dec[i] * d2;
      h22 += d2;
      h21 += dec[i] * d2;
      double d1 = t[i] - p;
      g1 += dec[i] * d1;
      g2 += d1;
    }
    if (std::fabs(g1) < 1e-5 && std::fabs(g2) < 1e-5) break;
    double det = h11 * h22 - h21 * h21;
    double da = -(h22 * g1 - h21 * g2) / det, db = -(-h21 * g1 + h11 * g2) / det;
    double gd = g1 * da + g2 * db;
    double step = 1;
    while (step >= 1e-10) {
      double na = a + step * da, nb = b + step * db, nf = objective(na, nb);
      if (nf < fval + 1e-4 * step * gd) {
        a = na;
        b = nb;
        fval = nf;
        break;
      }
      step /= 2;
    }
    if (step < 1e-10) break;
  }
  return {a, b};
}

// ---------------------------------------------------------------------------

struct SvmModelBuilder {
  // Grid search over `points` (log2c, log2g) + final fit.
  static StatusOr<SvmModel> Build(const SvmDataset& data, std::string kind,
                                  const std::vector<std::pair<int, int>>& points,
                                  const SvmGridOptions& o, SvmTrainReport* report) {
    const double cpu0 = ProcessCpuSeconds();
    const auto wall0 = std::chrono::steady_clock::now();
    if (Status s = data.Validate(); !s.ok()) return s;
    if (Status s = CheckOptions(o); !s.ok()) return s;
    if (!ValidName(kind)) return Status::Error("svm: bad model kind '" + kind + "'");
    size_t pos = std::count(data.labels.begin(), data.labels.end(), 1);
    if (pos < 2 || data.size() - pos < 2) {
      return Status::Error("svm: training needs at least 2 examples of each class (have " +
                           std::to_string(pos) + " positive, " +
                           std::to_string(data.size() - pos) + " negative)");
    }
    SilenceLibsvm();
    const size_t d = data.feature_names.size();
    FeatureScaler scaler = FeatureScaler::Fit(data.rows, d);
    ScaledNodes nodes = ToNodes(data, scaler);
    std::vector<double> y(data.labels.begin(), data.labels.end());
    const int folds = static_cast<int>(std::min<size_t>(o.folds, data.size()));
    std::vector<int> fold = StratifiedFolds(data.labels, folds, o.seed);

    SvmTrainReport rep;
    std::vector<std::vector<double>> dec;
    if (o.deduplicate) {
      std::vector<std::vector<double>> scaled(data.size(), std::vector<double>(d));
      for (size_t i = 0; i < data.size(); ++i) scaler.ScaleRow(data.rows[i], scaled[i]);
      const int64_t cap = o.max_iterations > 0
                              ? o.max_iterations
                              : std::max<int64_t>(10000000, 100 * static_cast<int64_t>(data.size()));
      CvGridStats st;
      dec = DeduplicatedGridCv(scaled, data.labels, fold, folds, points, o.eps, cap, o.threads, &st);
      rep.unique_vectors = st.unique_vectors;
      rep.cv_iterations = st.iterations;
      rep.cv_solves = st.trainings;
      rep.cv_capped = st.capped;
    } else {
      // One task per (grid point, fold); each writes its own slots of dec.
      dec.assign(points.size(), std::vector<double>(data.size(), 0));
      const size_t tasks = points.size() * folds;
      std::atomic<size_t> next{0};
      auto worker = [&] {
        for (size_t t; (t = next.fetch_add(1)) < tasks;) {
          size_t p = t / folds;
          int k = static_cast<int>(t % folds);
          RunFold(nodes, y, fold, k, std::ldexp(1.0, points[p].first),
                  std::ldexp(1.0, points[p].second), o, dec[p].data());
        }
      };
      std::vector<std::thread> pool;
      for (int i = 1; i < std::min<int>(o.threads, static_cast<int>(tasks)); ++i) {
        pool.emplace_back(worker);
      }
      worker();
      for (auto& th : pool) th.join();
      rep.cv_solves = tasks;
    }

    size_t best = 0;
    for (size_t p = 0; p < points.size(); ++p) {
      SvmGridPoint g{points[p].first, points[p].second, Accuracy(dec[p], data.labels)};
      rep.grid.push_back(g);
      const SvmGridPoint& b = rep.grid[best];
      if (g.cv_accuracy > b.cv_accuracy ||
          (g.cv_accuracy == b.cv_accuracy &&
           (g.log2c < b.log2c || (g.log2c == b.log2c && g.log2g < b.log2g)))) {
        best = p;
      }
    }
    rep.best = rep.grid[best];

    SvmModel m;
    m.kind_ = std::move(kind);
    m.feature_names_ = data.feature_names;
    m.c_ = std::ldexp(1.0, rep.best.log2c);
    m.gamma_ = std::ldexp(1.0, rep.best.log2g);
    m.cv_accuracy_ = rep.best.cv_accuracy;
    m.cv_folds_ = folds;
    m.train_examples_ = data.size();
    m.train_positives_ = pos;
    std::tie(m.platt_a_, m.platt_b_) = FitPlattSigmoid(dec[best], data.labels);

    svm_problem prob{static_cast<int>(data.size()), y.data(), nodes.rows.data()};
    svm_parameter param = Param(m.c_, m.gamma_, o);
    svm_model* lm = svm_train(&prob, &param);
    int labels[2] = {1, 0};
    svm_get_labels(lm, labels);
    const double sign = labels[0] == 1 ? 1.0 : -1.0;
    m.rho_ = sign * lm->rho[0];
    const int nsv = svm_get_nr_sv(lm);
    m.coef_.resize(nsv);
    m.sv_.assign(static_cast<size_t>(nsv) * d, 0.0);
    for (int i = 0; i < nsv; ++i) {
      m.coef_[i] = sign * lm->sv_coef[0][i];
      for (const svm_node* n = lm->SV[i]; n->index != -1; ++n) {
        m.sv_[i * d + (n->index - 1)] = n->value;
      }
    }
    svm_free_and_destroy_model(&lm);
    m.scaler_ = std::move(scaler);
    m.BuildPredictionLayout();

    rep.folds = folds;
    rep.examples = data.size();
    rep.positives = pos;
    rep.support_vectors = m.coef_.size();
    rep.cpu_seconds = ProcessCpuSeconds() - cpu0;
    rep.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    if (report) *report = std::move(rep);
    return m;
  }
};

StatusOr<SvmModel> SvmModel::Train(const SvmDataset& data, std::string kind,
                                   const SvmGridOptions& o, SvmTrainReport* report) {
  if (Status s = CheckOptions(o); !s.ok()) return s;
  std::vector<std::pair<int, int>> points;
  for (int c = o.log2c_min; c <= o.log2c_max; c += o.log2c_step) {
    for (int g = o.log2g_min; g <= o.log2g_max; g += o.log2g_step) points.emplace_back(c, g);
  }
  return SvmModelBuilder::Build(data, std::move(kind), points, o, report);
}

StatusOr<SvmModel> SvmModel::TrainAt(const SvmDataset& data, std::string kind, int log2c,
                                     int log2g, const SvmGridOptions& o, SvmTrainReport* report) {
  return SvmModelBuilder::Build(data, std::move(kind), {{log2c, log2g}}, o, report);
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
  double z = Decision(raw) * platt_a_ + platt_b_;
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

// ---------------------------------------------------------------------------
// File format (one item per line, fields separated by one space):
//   topicrawl-svm-model 1
//   kind <name>
//   features <d>
//   feature <name> <min> <max>          (d lines, in vector order)
//   scale <lower> <upper>
//   c <C>
//   gamma <gamma>
//   cv <accuracy> <folds>
//   train <examples> <positives>
//   rho <rho>
//   platt <A> <B>
//   sv <n>
//   <coef> <x_1> ... <x_d>              (n lines, scaled values)
//   checksum <Hash64Hex of all bytes above>

std::string SvmModel::Serialize() const {
  std::string s;
  s += std::string(kMagic) + " " + std::to_string(kFormatVersion) + "\n";
  s += "kind " + kind_ + "\n";
  s += "features " + std::to_string(feature_names_.size()) + "\n";
  for (size_t k = 0; k < feature_names_.size(); ++k) {
    s += "feature " + feature_names_[k] + " " + Num(scaler_.mins()[k]) + " " +
         Num(scaler_.maxs()[k]) + "\n";
  }
  s += "scale " + Num(scaler_.lower()) + " " + Num(scaler_.upper()) + "\n";
  s += "c " + Num(c_) + "\n";
  s += "gamma " + Num(gamma_) + "\n";
  s += "cv " + Num(cv_accuracy_) + " " + std::to_string(cv_folds_) + "\n";
  s += "train " + std::to_string(train_examples_) + " " + std::to_string(train_positives_) + "\n";
  s += "rho " + Num(rho_) + "\n";
  s += "platt " + Num(platt_a_) + " " + Num(platt_b_) + "\n";
  s += "sv " + std::to_string(coef_.size()) + "\n";
  const size_t d = feature_names_.size();
  for (size_t i = 0; i < coef_.size(); ++i) {
    s += Num(coef_[i]);
    for (size_t k = 0; k < d; ++k) s += " " + Num(sv_[i * d + k]);
    s += "\n";
  }
  s += "checksum " + Hash64Hex(s) + "\n";
  return s;
}

Status SvmModel::Save(const std::string& path) const {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::Error("cannot write " + tmp);
    out << Serialize();
    out.flush();
    if (!out) return Status::Error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return Status::Error("cannot rename " + tmp + " to " + path);
  }
  return Status::Ok();
}

namespace {

// Strict line reader for the model file: every value must parse completely.
class ModelReader {
 public:
  ModelReader(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  Status Error(const std::string& what) const {
    return Status::Error(std::string(source_) + ": line " + std::to_string(line_no_) + ": " + what);
  }
  // Next line split on single spaces; false at end of text.
  bool Next(std::vector<std::string_view>* fields) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    ++line_no_;
    fields->clear();
    size_t p = 0;
    while (p <= line.size()) {
      size_t q = line.find(' ', p);
      if (q == std::string_view::npos) q = line.size();
      fields->push_back(line.substr(p, q - p));
      p = q + 1;
    }
    return true;
  }
  // Reads a line "<key> v1 .. vn" with exactly n values.
  Status Expect(std::string_view key, size_t n, std::vector<std::string_view>* f) {
    if (!Next(f)) return Error("unexpected end of file, expected '" + std::string(key) + "'");
    if ((*f)[0] != key) return Error("expected '" + std::string(key) + "'");
    if (f->size() != n + 1) return Error("'" + std::string(key) + "' needs " + std::to_string(n) + " values");
    return Status::Ok();
  }
  Status Double(std::string_view s, double* v) const {
    auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(*v)) {
      return Error("bad number '" + std::string(s.substr(0, 40)) + "'");
    }
    return Status::Ok();
  }
  Status Size(std::string_view s, size_t max, size_t* v) const {
    auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || *v > max) {
      return Error("bad count '" + std::string(s.substr(0, 40)) + "'");
    }
    return Status::Ok();
  }

 private:
  std::string_view text_, source_;
  size_t pos_ = 0;
  int line_no_ = 0;
};

}  // namespace

StatusOr<SvmModel> SvmModel::Parse(std::string_view text, std::string_view expected_kind,
                                   std::string_view source) {
  const std::string src(source);
  if (text.substr(0, kMagic.size()) != kMagic) {
    return Status::Error(src + ": not a topicrawl SVM model (no '" + std::string(kMagic) +
                         "' header)");
  }
  // The checksum covers every byte before the last line.
  size_t last = text.size() >= 2 ? text.rfind('\n', text.size() - 2) : std::string_view::npos;
  if (text.empty() || text.back() != '\n' || last == std::string_view::npos ||
      text.substr(last + 1, 9) != "checksum ") {
    return Status::Error(src + ": truncated model file (no checksum line)");
  }
  std::string_view body = text.substr(0, last + 1);
  std::string_view sum = text.substr(last + 10, text.size() - last - 11);
  if (sum != Hash64Hex(body)) {
    return Status::Error(src + ": model file checksum mismatch (corrupted or edited)");
  }

  ModelReader r(body, source);
  std::vector<std::string_view> f;
  if (Status s = r.Expect(kMagic, 1, &f); !s.ok()) return s;
  if (f[1] != std::to_string(kFormatVersion)) {
    return r.Error("unsupported model format version " + std::string(f[1]) + " (this build reads " +
                   std::to_string(kFormatVersion) + ")");
  }
  SvmModel m;
  if (Status s = r.Expect("kind", 1, &f); !s.ok()) return s;
  m.kind_ = std::string(f[1]);
  if (!ValidName(m.kind_)) return r.Error("bad kind");
  if (!expected_kind.empty() && m.kind_ != expected_kind) {
    return Status::Error(src + ": is a '" + m.kind_ + "' model, expected '" +
                         std::string(expected_kind) + "'");
  }
  size_t d = 0;
  if (Status s = r.Expect("features", 1, &f); !s.ok()) return s;
  if (Status s = r.Size(f[1], 4096, &d); !s.ok()) return s;
  if (d == 0) return r.Error("no features");
  std::vector<double> mins(d), maxs(d);
  for (size_t k = 0; k < d; ++k) {
    if (Status s = r.Expect("feature", 3, &f); !s.ok()) return s;
    if (!ValidName(f[1])) return r.Error("bad feature name");
    m.feature_names_.emplace_back(f[1]);
    if (Status s = r.Double(f[2], &mins[k]); !s.ok()) return s;
    if (Status s = r.Double(f[3], &maxs[k]); !s.ok()) return s;
    if (maxs[k] < mins[k]) return r.Error("feature max below min");
  }
  double lower = 0, upper = 0;
  if (Status s = r.Expect("scale", 2, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &lower); !s.ok()) return s;
  if (Status s = r.Double(f[2], &upper); !s.ok()) return s;
  if (!(upper > lower)) return r.Error("scale upper must exceed lower");
  m.scaler_ = FeatureScaler(std::move(mins), std::move(maxs), lower, upper);
  if (Status s = r.Expect("c", 1, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &m.c_); !s.ok()) return s;
  if (Status s = r.Expect("gamma", 1, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &m.gamma_); !s.ok()) return s;
  if (!(m.c_ > 0) || !(m.gamma_ > 0)) return r.Error("C and gamma must be > 0");
  size_t folds = 0, n = 0, pos = 0;
  if (Status s = r.Expect("cv", 2, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &m.cv_accuracy_); !s.ok()) return s;
  if (Status s = r.Size(f[2], 1u << 20, &folds); !s.ok()) return s;
  m.cv_folds_ = static_cast<int>(folds);
  if (Status s = r.Expect("train", 2, &f); !s.ok()) return s;
  if (Status s = r.Size(f[1], size_t{1} << 40, &n); !s.ok()) return s;
  if (Status s = r.Size(f[2], n, &pos); !s.ok()) return s;
  m.train_examples_ = n;
  m.train_positives_ = pos;
  if (Status s = r.Expect("rho", 1, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &m.rho_); !s.ok()) return s;
  if (Status s = r.Expect("platt", 2, &f); !s.ok()) return s;
  if (Status s = r.Double(f[1], &m.platt_a_); !s.ok()) return s;
  if (Status s = r.Double(f[2], &m.platt_b_); !s.ok()) return s;
  size_t nsv = 0;
  if (Status s = r.Expect("sv", 1, &f); !s.ok()) return s;
  if (Status s = r.Size(f[1], body.size() / (2 * (d + 1)), &nsv); !s.ok()) return s;
  m.coef_.resize(nsv);
  m.sv_.resize(nsv * d);
  for (size_t i = 0; i < nsv; ++i) {
    if (!r.Next(&f)) return r.Error("unexpected end of support vectors");
    if (f.size() != d + 1) return r.Error("support vector needs " + std::to_string(d + 1) + " values");
    if (Status s = r.Double(f[0], &m.coef_[i]); !s.ok()) return s;
    for (size_t k = 0; k < d; ++k) {
      if (Status s = r.Double(f[k + 1], &m.sv_[i * d + k]); !s.ok()) return s;
    }
  }
  if (r.Next(&f)) return r.Error("unexpected content after the support vectors");
  m.BuildPredictionLayout();
  return m;
}

StatusOr<SvmModel> SvmModel::Load(const std::string& path, std::string_view expected_kind) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read model " + path);
  in.seekg(0, std::ios::end);
  auto size = static_cast<std::streamoff>(in.tellg());
  if (size < 0 || static_cast<size_t>(size) > kMaxModelBytes) {
    return Status::Error(path + ": not a topicrawl SVM model (unreadable or larger than 1 GiB)");
  }
  in.seekg(0);
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), size);
  if (!in) return Status::Error("cannot read model " + path);
  return Parse(text, expected_kind, path);
}

}  // namespace topicrawl
