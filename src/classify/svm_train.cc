// Training of the SVM module (classify/svm_model.h): stratified folds, the
// (C, gamma) grid with cross-validation (libsvm per (point, fold), or the
// deduplicated engine of svm_cv_grid.h), the choice of the point and of the
// decision threshold (svm_selection.h), Platt's sigmoid, and the final fit
// by libsvm.
#include <libsvm/svm.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <random>
#include <thread>

#include "classify/svm_cv_grid.h"
#include "classify/svm_model.h"
#include "classify/svm_model_internal.h"
#include "classify/svm_selection.h"

namespace topicrawl {
namespace {

using svm_internal::ValidName;

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

// libsvm keeps pointers to the weight arrays: `weight_label` and `weight`
// must outlive every svm_train call with the returned parameters. A positive
// weight of 1 passes no weights (libsvm's default).
svm_parameter Param(double c, double gamma, const SvmGridOptions& o, const int* weight_label,
                    const double* positive_weight) {
  svm_parameter p{};
  p.svm_type = C_SVC;
  p.kernel_type = RBF;
  p.degree = 3;
  p.gamma = gamma;
  p.coef0 = 0;
  p.cache_size = o.cache_mb;
  p.eps = o.eps;
  p.C = c;
  const bool weighted = *positive_weight != 1.0;
  p.nr_weight = weighted ? 1 : 0;
  p.weight_label = weighted ? const_cast<int*>(weight_label) : nullptr;
  p.weight = weighted ? const_cast<double*>(positive_weight) : nullptr;
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
             int k, double c, double gamma, const SvmGridOptions& o, double positive_weight,
             double* dec) {
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
  const int positive_label = 1;
  svm_parameter param = Param(c, gamma, o, &positive_label, &positive_weight);
  svm_model* m = svm_train(&prob, &param);
  for (size_t i = 0; i < fold.size(); ++i) {
    if (fold[i] == k) dec[i] = OrientedDecision(m, nodes.rows[i]);
  }
  svm_free_and_destroy_model(&m);
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

}  // namespace

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

std::vector<int> GroupFolds(const std::vector<uint32_t>& groups, int folds, uint64_t seed) {
  std::vector<uint32_t> ids(groups.begin(), groups.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::mt19937_64 rng(seed);
  for (size_t i = ids.size(); i > 1; --i) std::swap(ids[i - 1], ids[rng() % i]);
  std::vector<size_t> size_of(ids.size(), 0);
  // Sizes by id (ids is shuffled, so look up through a sorted copy).
  std::vector<std::pair<uint32_t, size_t>> by_id;  // (id, position in shuffled order)
  for (size_t i = 0; i < ids.size(); ++i) by_id.emplace_back(ids[i], i);
  std::sort(by_id.begin(), by_id.end());
  auto position = [&](uint32_t id) {
    return std::lower_bound(by_id.begin(), by_id.end(), std::make_pair(id, size_t{0}))->second;
  };
  for (uint32_t g : groups) ++size_of[position(g)];
  std::vector<size_t> order(ids.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return size_of[a] > size_of[b]; });
  const int k = std::max(1, std::min<int>(folds, static_cast<int>(ids.size())));
  std::vector<size_t> fold_rows(k, 0);
  std::vector<int> fold_of(ids.size(), 0);
  for (size_t i : order) {
    const int f = static_cast<int>(std::min_element(fold_rows.begin(), fold_rows.end()) -
                                   fold_rows.begin());
    fold_of[i] = f;
    fold_rows[f] += size_of[i];
  }
  std::vector<int> fold(groups.size());
  for (size_t r = 0; r < groups.size(); ++r) fold[r] = fold_of[position(groups[r])];
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

// The rows the grid cross-validates: all of them, or a stratified sample of
// `cap` (each class in its share, rows drawn with `seed`), in row order.
std::vector<size_t> GridRows(const std::vector<int>& labels, size_t cap, uint64_t seed) {
  std::vector<size_t> all(labels.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  if (cap == 0 || labels.size() <= cap) return all;
  std::vector<size_t> out;
  std::mt19937_64 rng(seed);
  for (int label : {0, 1}) {
    std::vector<size_t> cls;
    for (size_t i : all) {
      if (labels[i] == label) cls.push_back(i);
    }
    // At least 2 of a class (training needs both), else its share.
    const size_t want = std::min(cls.size(), std::max<size_t>(2, cls.size() * cap / labels.size()));
    std::shuffle(cls.begin(), cls.end(), rng);
    out.insert(out.end(), cls.begin(), cls.begin() + static_cast<std::ptrdiff_t>(want));
  }
  std::sort(out.begin(), out.end());
  return out;
}

SvmDataset Subset(const SvmDataset& data, const std::vector<size_t>& rows) {
  SvmDataset out;
  out.feature_names = data.feature_names;
  for (size_t i : rows) {
    out.Add(data.rows[i], data.labels[i]);
    if (!data.groups.empty()) out.groups.push_back(data.groups[i]);
  }
  return out;
}

// Serialises SvmGridOptions::progress for the grid's threads.
class GridProgress {
 public:
  GridProgress(const SvmGridOptions& o, size_t total, size_t rows)
      : o_(o), start_(std::chrono::steady_clock::now()) {
    p_.total = total;
    p_.rows = rows;
  }
  void Add(size_t fits) {
    if (!o_.progress) return;
    std::lock_guard<std::mutex> lock(mu_);
    p_.done += fits;
    Report();
  }
  void FinalFit() {
    if (!o_.progress) return;
    std::lock_guard<std::mutex> lock(mu_);
    p_.final_fit = true;
    Report();
  }

 private:
  void Report() {
    p_.elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    o_.progress(p_);
  }
  const SvmGridOptions& o_;
  const std::chrono::steady_clock::time_point start_;
  std::mutex mu_;
  SvmGridProgress p_;
};

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
    ScaledNodes all_nodes = ToNodes(data, scaler);
    std::vector<double> all_y(data.labels.begin(), data.labels.end());
    // The grid's rows (SvmGridOptions::grid_sample); the final fit below
    // uses every row.
    const std::vector<size_t> grid_rows = GridRows(data.labels, o.grid_sample, o.seed);
    const SvmDataset sample =
        grid_rows.size() < data.size() ? Subset(data, grid_rows) : SvmDataset{};
    const SvmDataset& cv = grid_rows.size() < data.size() ? sample : data;
    ScaledNodes nodes = &cv == &data ? ScaledNodes{} : ToNodes(cv, scaler);
    if (&cv == &data) nodes.rows = all_nodes.rows;
    std::vector<double> y(cv.labels.begin(), cv.labels.end());
    int folds = static_cast<int>(std::min<size_t>(o.folds, cv.size()));
    std::vector<int> fold;
    if (o.group_folds) {
      if (cv.groups.empty()) return Status::Error("svm: group folds need the rows' groups");
      fold = GroupFolds(cv.groups, folds, o.seed);
      folds = 1 + *std::max_element(fold.begin(), fold.end());
      if (folds < 2) {
        return Status::Error("svm: group folds need at least 2 groups (the data has 1)");
      }
    } else {
      fold = StratifiedFolds(cv.labels, folds, o.seed);
    }
    // libsvm's -w1: the positive class's C times n_negative / n_positive,
    // so that both classes carry the same total bound.
    const double positive_weight =
        o.class_weight == SvmClassWeight::kInverseFrequency
            ? static_cast<double>(data.size() - pos) / static_cast<double>(pos)
            : 1.0;

    SvmTrainReport rep;
    rep.grid_rows = cv.size();
    GridProgress progress(o, points.size() * static_cast<size_t>(folds), cv.size());
    std::vector<std::vector<double>> dec;
    if (o.deduplicate) {
      std::vector<std::vector<double>> scaled(cv.size(), std::vector<double>(d));
      for (size_t i = 0; i < cv.size(); ++i) scaler.ScaleRow(cv.rows[i], scaled[i]);
      const int64_t cap = o.max_iterations > 0
                              ? o.max_iterations
                              : std::max<int64_t>(10000000, 100 * static_cast<int64_t>(cv.size()));
      CvGridStats st;
      dec = DeduplicatedGridCv(scaled, cv.labels, fold, folds, points, positive_weight, o.eps,
                               cap, o.threads, &st, [&progress](size_t fits) { progress.Add(fits); });
      rep.unique_vectors = st.unique_vectors;
      rep.cv_iterations = st.iterations;
      rep.cv_solves = st.trainings;
      rep.cv_capped = st.capped;
    } else {
      // One task per (grid point, fold); each writes its own slots of dec.
      dec.assign(points.size(), std::vector<double>(cv.size(), 0));
      const size_t tasks = points.size() * folds;
      std::atomic<size_t> next{0};
      auto worker = [&] {
        for (size_t t; (t = next.fetch_add(1)) < tasks;) {
          size_t p = t / folds;
          int k = static_cast<int>(t % folds);
          RunFold(nodes, y, fold, k, std::ldexp(1.0, points[p].first),
                  std::ldexp(1.0, points[p].second), o, positive_weight, dec[p].data());
          progress.Add(1);
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

    // Each point scored on its out-of-fold decision values (training data
    // only), at threshold 0 or at its own best threshold (svm_selection.h).
    // Ties: higher score, then smaller C, then smaller gamma.
    size_t best = 0;
    double best_score = -1;
    for (size_t p = 0; p < points.size(); ++p) {
      CvScore cs = BestThreshold(dec[p], cv.labels, o.select, o.tune_threshold);
      SvmGridPoint g{points[p].first, points[p].second, cs.accuracy, cs.f1, cs.threshold};
      rep.grid.push_back(g);
      const SvmGridPoint& b = rep.grid[best];
      if (p == 0 || cs.score > best_score ||
          (cs.score == best_score &&
           (g.log2c < b.log2c || (g.log2c == b.log2c && g.log2g < b.log2g)))) {
        best = p;
        best_score = cs.score;
      }
    }
    rep.best = rep.grid[best];

    SvmModel m;
    m.kind_ = std::move(kind);
    m.feature_names_ = data.feature_names;
    m.c_ = std::ldexp(1.0, rep.best.log2c);
    m.gamma_ = std::ldexp(1.0, rep.best.log2g);
    m.cv_accuracy_ = rep.best.cv_accuracy;
    m.positive_weight_ = positive_weight;
    m.threshold_ = rep.best.threshold;
    m.cv_folds_ = folds;
    m.train_examples_ = data.size();
    m.train_positives_ = pos;
    std::tie(m.platt_a_, m.platt_b_) = FitPlattSigmoid(dec[best], cv.labels);

    progress.FinalFit();
    svm_problem prob{static_cast<int>(data.size()), all_y.data(), all_nodes.rows.data()};
    const int positive_label = 1;
    svm_parameter param = Param(m.c_, m.gamma_, o, &positive_label, &positive_weight);
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
    rep.positive_weight = positive_weight;
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

}  // namespace topicrawl
