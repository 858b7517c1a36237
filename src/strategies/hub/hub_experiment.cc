#include "strategies/hub/hub_experiment.h"

#include <cmath>
#include <cstdio>
#include <ostream>

#include "strategies/hub/hub_baselines.h"
#include "strategies/hub/hub_site_detectors.h"
#include "strategies/hub/hub_site_relative.h"

namespace topicrawl::hub {
namespace {

struct MeanSd {
  double mean = 0, sd = 0;
};
MeanSd Stats(const std::vector<double>& v) {
  MeanSd s;
  if (v.empty()) return s;
  for (double x : v) s.mean += x;
  s.mean /= v.size();
  if (v.size() > 1) {
    double q = 0;
    for (double x : v) q += (x - s.mean) * (x - s.mean);
    s.sd = std::sqrt(q / (v.size() - 1));  // sample sd
  }
  return s;
}

std::string Pm(const std::vector<double>& v) {
  MeanSd s = Stats(v);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f ± %.3f", s.mean, s.sd);
  return buf;
}

}  // namespace

std::string_view HubMethodName(HubMethod m) {
  switch (m) {
    case HubMethod::kSvmFull: return "svm-full";
    case HubMethod::kSvmUrl: return "svm-url";
    case HubMethod::kRules: return "rules";
    case HubMethod::kHeuristic: return "heuristic";
    case HubMethod::kContent: return "content";
    case HubMethod::kSvmUrlSite: return "svm-url-site";
    case HubMethod::kSvmUrlBoth: return "svm-url-both";
    case HubMethod::kSvmUrlSiteRules: return "svm-url-site-rules";
    case HubMethod::kSiteOrRules: return "site-or-rules";
    case HubMethod::kSvmUrlSiteRank: return "svm-url-site-rank";
  }
  return "?";
}

bool ParseHubMethod(std::string_view name, HubMethod* m) {
  for (HubMethod x : {HubMethod::kSvmFull, HubMethod::kSvmUrl, HubMethod::kRules,
                      HubMethod::kHeuristic, HubMethod::kContent, HubMethod::kSvmUrlSite,
                      HubMethod::kSvmUrlBoth, HubMethod::kSvmUrlSiteRules, HubMethod::kSiteOrRules,
                      HubMethod::kSvmUrlSiteRank}) {
    if (name == HubMethodName(x)) {
      *m = x;
      return true;
    }
  }
  return false;
}

BinaryMetrics EvaluateUrlModel(const SvmModel& model, const HubFeatureSpec& spec,
                               const std::vector<HubExample>& rows,
                               const std::vector<size_t>& test) {
  BinaryMetrics m;
  const std::vector<std::vector<double>> x = EncodeHubRows(spec, rows);
  for (size_t i : test) m.Add(model.Predict(x[i]) == 1, rows[i].label == 1);
  return m;
}

namespace {

void FillSvmReport(const SvmTrainReport& rep, HubMethodResult* r) {
  r->svm = true;
  r->log2c = rep.best.log2c;
  r->log2g = rep.best.log2g;
  r->cv_accuracy = rep.best.cv_accuracy;
  r->cv_f1 = rep.best.cv_f1;
  r->threshold = rep.best.threshold;
  r->support_vectors = rep.support_vectors;
  r->train_cpu_seconds = rep.cpu_seconds;
}

// Each Predict* returns the method's hub verdict for every row of `test`,
// in order; an SVM's training report goes to *r.
using Verdicts = std::vector<bool>;

StatusOr<Verdicts> PredictUrlSvm(HubFeatureSet set, const std::vector<HubExample>& rows,
                                 const std::vector<size_t>& train, const std::vector<size_t>& test,
                                 const SvmGridOptions& grid, HubMethodResult* r) {
  SvmTrainReport rep;
  auto model = SvmModel::Train(UrlDataset(rows, train, set), std::string(HubModelKind(set)), grid, &rep);
  if (!model.ok()) return model.status();
  FillSvmReport(rep, r);
  Verdicts v;
  std::vector<double> x(HubFeatureNames(set).size());
  for (size_t i : test) {
    HubFeaturesInto(rows[i].Observation(), set, x.data());
    v.push_back(model->Predict(x) == 1);
  }
  return v;
}

// Percentiles among all rows of each host: a host's URLs, not its labels
// (a host split puts every row of a host on one side). The same encoding
// as `train hub-svm --features url-site`.
StatusOr<Verdicts> PredictUrlSiteSvm(const std::vector<HubExample>& rows, const std::vector<size_t>& train,
                                     const std::vector<size_t>& test, const SvmGridOptions& grid,
                                     HubMethodResult* r) {
  const HubFeatureSpec spec{HubFeatureSet::kBeforeDownload, HubFeatureReading::kSiteRelative};
  const std::vector<std::vector<double>> x = EncodeHubRows(spec, rows);
  SvmTrainReport rep;
  auto model = SvmModel::Train(SpecDataset(spec, rows, x, train), std::string(HubSpecModelKind(spec)), grid, &rep);
  if (!model.ok()) return model.status();
  FillSvmReport(rep, r);
  Verdicts v;
  for (size_t i : test) v.push_back(model->Predict(x[i]) == 1);
  return v;
}

StatusOr<Verdicts> PredictBySiteDetector(HubMethod method, const std::vector<HubExample>& rows,
                                         const std::vector<size_t>& train, const std::vector<size_t>& test,
                                         const SvmGridOptions& grid, HubMethodResult* r) {
  const SiteDetector d = method == HubMethod::kSvmUrlBoth        ? SiteDetector::kBoth
                         : method == HubMethod::kSvmUrlSiteRules ? SiteDetector::kSiteRules
                         : method == HubMethod::kSiteOrRules     ? SiteDetector::kSiteOrRules
                                                                 : SiteDetector::kSiteRank;
  auto run = RunSiteDetector(d, rows, train, test, grid);
  if (!run.ok()) return run.status();
  FillSvmReport(run->report, r);
  if (run->rank_share >= 0) r->threshold = run->rank_share;  // q, printed as "t"
  Verdicts v;
  for (size_t k = 0; k < test.size(); ++k) v.push_back(run->predicted[k] == 1);
  return v;
}

StatusOr<Verdicts> PredictContentSvm(const std::vector<HubExample>& rows, const std::vector<size_t>& train,
                                     const std::vector<size_t>& test, const SvmGridOptions& grid,
                                     HubMethodResult* r) {
  SvmTrainReport rep;
  auto model = SvmModel::Train(ContentDataset(rows, train), kContentModelKind, grid, &rep);
  if (!model.ok()) return model.status();
  FillSvmReport(rep, r);
  Verdicts v;
  for (size_t i : test) v.push_back(model->Predict(ContentFeatures(rows[i])) == 1);
  return v;
}

StatusOr<Verdicts> PredictHubs(HubMethod method, const std::vector<HubExample>& rows,
                               const std::vector<size_t>& train, const std::vector<size_t>& test,
                               const SvmGridOptions& grid, HubMethodResult* r) {
  Verdicts v;
  switch (method) {
    case HubMethod::kSvmFull:
      return PredictUrlSvm(HubFeatureSet::kFull, rows, train, test, grid, r);
    case HubMethod::kSvmUrl:
      return PredictUrlSvm(HubFeatureSet::kBeforeDownload, rows, train, test, grid, r);
    case HubMethod::kSvmUrlSite:
      return PredictUrlSiteSvm(rows, train, test, grid, r);
    case HubMethod::kSvmUrlBoth:
    case HubMethod::kSvmUrlSiteRules:
    case HubMethod::kSiteOrRules:
    case HubMethod::kSvmUrlSiteRank:
      return PredictBySiteDetector(method, rows, train, test, grid, r);
    case HubMethod::kRules:
      for (size_t i : test) v.push_back(SimpleRulesIsHub(rows[i]) == 1);
      break;
    case HubMethod::kHeuristic: {
      auto c = HeuristicHubClassifier::Train(rows, train);
      for (size_t i : test) v.push_back(c.Predict(rows[i]) == 1);
      break;
    }
    case HubMethod::kContent:
      return PredictContentSvm(rows, train, test, grid, r);
  }
  return v;
}

}  // namespace

StatusOr<HubMethodResult> RunHubMethod(HubMethod method, const std::vector<HubExample>& rows,
                                       const std::vector<size_t>& train,
                                       const std::vector<size_t>& test,
                                       const SvmGridOptions& grid) {
  HubMethodResult r;
  r.train_examples = method == HubMethod::kRules ? 0 : train.size();
  StatusOr<Verdicts> verdicts = PredictHubs(method, rows, train, test, grid, &r);
  if (!verdicts.ok()) return verdicts.status();
  for (size_t k = 0; k < test.size(); ++k) {
    const size_t i = test[k];
    r.metrics.Add((*verdicts)[k], rows[i].label == 1);
    r.per_host[rows[i].host].Add((*verdicts)[k], rows[i].label == 1);
  }
  return r;
}

HubTable RunHubTable(const std::vector<HubExample>& rows, const HubTableOptions& o,
                     std::ostream* progress) {
  HubTable t;
  for (int64_t size : o.sizes) {
    for (HubMethod m : o.methods) {
      HubTableCell cell;
      cell.size = size;
      cell.method = m;
      t.cells.push_back(cell);
    }
  }
  for (int s = 1; s <= o.splits; ++s) {
    std::vector<bool> is_test = o.split_by_host
                                    ? SplitByHost(rows, o.train_fraction, static_cast<uint64_t>(s))
                                    : SplitByRow(rows, o.train_fraction, static_cast<uint64_t>(s));
    std::vector<size_t> train, test;
    size_t hubs = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      (is_test[i] ? test : train).push_back(i);
      if (is_test[i]) hubs += rows[i].label;
    }
    t.test_rows.push_back(test.size());
    t.train_rows.push_back(train.size());
    t.test_hub_share.push_back(test.empty() ? 0 : static_cast<double>(hubs) / test.size());
    for (auto& cell : t.cells) {
      std::vector<size_t> sub = Subsample(train, cell.size, static_cast<uint64_t>(s) * 7919);
      SvmGridOptions grid = o.grid;
      grid.seed = static_cast<uint64_t>(s);
      auto r = RunHubMethod(cell.method, rows, sub, test, grid);
      if (!r.ok()) {
        cell.errors.push_back(r.status().message());
        continue;
      }
      cell.accuracy.push_back(r->metrics.accuracy());
      cell.precision.push_back(r->metrics.precision());
      cell.recall.push_back(r->metrics.recall());
      cell.f1.push_back(r->metrics.f1());
      cell.train_examples.push_back(r->train_examples);
      cell.cpu_seconds += r->train_cpu_seconds;
      if (progress) {
        *progress << "split " << s << " size " << (cell.size < 0 ? std::string("all") : std::to_string(cell.size))
                  << " " << HubMethodName(cell.method) << ": acc " << r->metrics.accuracy()
                  << " f1 " << r->metrics.f1();
        if (r->svm) {
          *progress << " (C=2^" << r->log2c << " g=2^" << r->log2g << " t " << r->threshold
                    << " cv acc " << r->cv_accuracy << " f1 " << r->cv_f1 << ", "
                    << r->support_vectors << " SV, " << r->train_cpu_seconds << " s CPU)";
        }
        *progress << "\n";
        for (const auto& [host, m] : r->per_host) {
          *progress << "  host " << host << ": tp " << m.tp << " fp " << m.fp << " fn " << m.fn
                    << " tn " << m.tn << " f1 " << m.f1() << "\n";
        }
        progress->flush();
      }
    }
  }
  return t;
}

std::string HubTableMarkdown(const HubTable& t) {
  std::string s;
  s += "test rows per split: ";
  for (size_t i = 0; i < t.test_rows.size(); ++i) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s%zu (hubs %.1f %%)", i ? ", " : "", t.test_rows[i],
                  100 * t.test_hub_share[i]);
    s += buf;
  }
  s += "\n\n| training URLs | detector | accuracy | precision | recall | F1 | splits |\n";
  s += "|---|---|---|---|---|---|---:|\n";
  for (const auto& c : t.cells) {
    std::string size = c.size < 0 ? "all" : std::to_string(c.size);
    if (c.method == HubMethod::kRules) size += " (none used)";
    s += "| " + size + " | " + std::string(HubMethodName(c.method)) + " | " + Pm(c.accuracy) +
         " | " + Pm(c.precision) + " | " + Pm(c.recall) + " | " + Pm(c.f1) + " | " +
         std::to_string(c.accuracy.size()) + " |\n";
  }
  return s;
}

}  // namespace topicrawl::hub
