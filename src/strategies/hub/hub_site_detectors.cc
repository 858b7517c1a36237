#include "strategies/hub/hub_site_detectors.h"

#include <string>
#include <unordered_map>

#include "strategies/hub/hub_baselines.h"
#include "strategies/hub/hub_site_relative.h"

namespace topicrawl::hub {
namespace {

constexpr HubFeatureSpec kSite{HubFeatureSet::kBeforeDownload, HubFeatureReading::kSiteRelative};
constexpr HubFeatureSpec kRaw{HubFeatureSet::kBeforeDownload, HubFeatureReading::kRaw};

// The detector's feature vectors for every row, with their names.
struct Encoded {
  std::vector<std::string> names;
  std::vector<std::vector<double>> x;
};

Encoded Encode(SiteDetector d, const std::vector<HubExample>& rows) {
  Encoded e;
  e.names = HubSpecFeatureNames(kSite);
  e.x = EncodeHubRows(kSite, rows);
  if (d == SiteDetector::kBoth) {
    // Raw values of all nine, then the five percentiles (the categorical
    // dimensions would be duplicates).
    const std::vector<bool> dims = SiteRelativeDims(kRaw.set);
    const auto raw = EncodeHubRows(kRaw, rows);
    std::vector<std::string> names = HubSpecFeatureNames(kRaw);
    for (size_t k = 0; k < dims.size(); ++k) {
      if (dims[k]) names.push_back(e.names[k]);
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      std::vector<double> v = raw[i];
      for (size_t k = 0; k < dims.size(); ++k) {
        if (dims[k]) v.push_back(e.x[i][k]);
      }
      e.x[i] = std::move(v);
    }
    e.names = std::move(names);
  } else if (d == SiteDetector::kSiteRules) {
    e.names.push_back("simple_rules");
    for (size_t i = 0; i < rows.size(); ++i) e.x[i].push_back(SimpleRulesIsHub(rows[i]));
  }
  return e;
}

SvmDataset Dataset(const Encoded& e, const std::vector<HubExample>& rows,
                   const std::vector<size_t>& idx) {
  SvmDataset d;
  d.feature_names = e.names;
  for (size_t i : idx) d.Add(e.x[i], rows[i].label);
  d.groups = HostGroups(rows, idx);
  return d;
}

}  // namespace

std::vector<double> WithinSitePercentiles(const std::vector<std::string_view>& hosts,
                                          const std::vector<double>& values) {
  std::vector<std::vector<double>> rows(values.size());
  for (size_t i = 0; i < values.size(); ++i) rows[i] = {values[i]};
  ToSitePercentiles(hosts, {true}, &rows);
  std::vector<double> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = rows[i][0];
  return out;
}

namespace {

// Out-of-fold decision values of the training rows over folds of whole
// hosts, at the grid's (C, gamma) of `report`.
StatusOr<std::vector<double>> OutOfFoldDecisions(const Encoded& e, const std::vector<HubExample>& rows,
                                                 const std::vector<size_t>& train, const SvmGridOptions& grid,
                                                 const SvmTrainReport& report) {
  std::vector<uint32_t> groups = HostGroups(rows, train);
  const std::vector<int> fold = GroupFolds(groups, grid.folds, grid.seed);
  int folds = 0;
  for (int f : fold) folds = std::max(folds, f + 1);
  std::vector<double> oof(train.size(), 0);
  for (int f = 0; f < folds; ++f) {
    std::vector<size_t> in;
    for (size_t k = 0; k < train.size(); ++k) {
      if (fold[k] != f) in.push_back(train[k]);
    }
    SvmGridOptions g = grid;
    g.tune_threshold = false;
    auto m = SvmModel::TrainAt(Dataset(e, rows, in), "hub-url-site-detector", report.best.log2c,
                               report.best.log2g, g);
    if (!m.ok()) return m.status();
    for (size_t k = 0; k < train.size(); ++k) {
      if (fold[k] == f) oof[k] = m->Decision(e.x[train[k]]);
    }
  }
  return oof;
}

// The share q in 0.02 .. 1 of each host's top-ranked training rows called
// hubs that gives the best F1 on the training rows (percentile ranks r).
double BestRankShare(const std::vector<double>& r, const std::vector<HubExample>& rows,
                     const std::vector<size_t>& train) {
  double best_f1 = -1, share = -1;
  for (int step = 1; step <= 50; ++step) {
    const double q = step * 0.02;
    int64_t tp = 0, fp = 0, fn = 0;
    for (size_t k = 0; k < train.size(); ++k) {
      const bool p = r[k] >= 1 - q - 1e-12, y = rows[train[k]].label == 1;
      tp += p && y, fp += p && !y, fn += !p && y;
    }
    const double f1 = tp ? 2.0 * tp / (2.0 * tp + fp + fn) : 0;
    if (f1 > best_f1) best_f1 = f1, share = q;
  }
  return share;
}

}  // namespace

StatusOr<SiteDetectorRun> RunSiteDetector(SiteDetector d, const std::vector<HubExample>& rows,
                                          const std::vector<size_t>& train,
                                          const std::vector<size_t>& test,
                                          const SvmGridOptions& grid) {
  SiteDetectorRun run;
  const Encoded e = Encode(d, rows);
  auto model = SvmModel::Train(Dataset(e, rows, train), "hub-url-site-detector", grid, &run.report);
  if (!model.ok()) return model.status();
  if (d != SiteDetector::kSiteRank) {
    for (size_t i : test) {
      int p = model->Predict(e.x[i]);
      if (d == SiteDetector::kSiteOrRules) p = p || SimpleRulesIsHub(rows[i]);
      run.predicted.push_back(p);
    }
    return run;
  }
  auto oof = OutOfFoldDecisions(e, rows, train, grid, run.report);
  if (!oof.ok()) return oof.status();
  std::vector<std::string_view> train_hosts;
  for (size_t i : train) train_hosts.push_back(rows[i].host);
  run.rank_share = BestRankShare(WithinSitePercentiles(train_hosts, *oof), rows, train);
  std::vector<std::string_view> test_hosts;
  std::vector<double> dv;
  for (size_t i : test) {
    test_hosts.push_back(rows[i].host);
    dv.push_back(model->Decision(e.x[i]));
  }
  const std::vector<double> rt = WithinSitePercentiles(test_hosts, dv);
  for (double x : rt) run.predicted.push_back(x >= 1 - run.rank_share - 1e-12 ? 1 : 0);
  return run;
}

}  // namespace topicrawl::hub
