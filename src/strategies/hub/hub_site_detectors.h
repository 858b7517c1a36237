// URL-only hub detectors built on the site-relative reading
// (hub_site_relative.h), tried for the zh web,
// where neither the seed's raw features nor the site-relative ones beat the
// simple rules across sites (docs/strategies/hub-svm.md). None of them is in the seed.
// "URL-only" = what is known before a page is downloaded: its URL string,
// the anchor text of the link that found it and the crawl depth at which it
// was found (both from the linking page, downloaded earlier), plus the URLs
// of the same site (no labels) for the percentiles.
//
//   svm-url-both        raw ⊕ site-relative: the seed's nine before-download
//                       values and the five site percentiles of the numeric
//                       ones (14 dimensions); the SVM may use either scale.
//   svm-url-site-rules  site-relative features plus the simple rules' output
//                       (0/1) as a tenth dimension.
//   site-or-rules       the site-relative SVM OR the rules: a page either
//                       flags is a hub.
//   svm-url-site-rank   the site-relative SVM's decision value, ranked within
//                       the page's site: a page is a hub when its within-site
//                       percentile is >= 1 - q. q is chosen on the training
//                       side only: out-of-fold decision values over folds of
//                       whole training hosts (the SVM's C and gamma fixed at
//                       the grid's choice on all training rows), ranked within
//                       each host, and q in {0.02, 0.04, ..., 1} with the best
//                       pooled F1 (ties: the smaller q).
#ifndef TOPICRAWL_STRATEGIES_HUB_HUB_SITE_DETECTORS_H_
#define TOPICRAWL_STRATEGIES_HUB_HUB_SITE_DETECTORS_H_

#include <vector>

#include "classify/svm_model.h"
#include "core/status.h"
#include "strategies/hub/hub_dataset.h"

namespace topicrawl::hub {

enum class SiteDetector { kBoth, kSiteRules, kSiteOrRules, kSiteRank };

struct SiteDetectorRun {
  std::vector<int> predicted;  // per test row, in test order
  SvmTrainReport report;       // of the (final) SVM
  double rank_share = -1;      // kSiteRank: the chosen q
};

// Trains on rows[train] (labels of training rows only) and predicts rows[test].
StatusOr<SiteDetectorRun> RunSiteDetector(SiteDetector d, const std::vector<HubExample>& rows,
                                          const std::vector<size_t>& train,
                                          const std::vector<size_t>& test,
                                          const SvmGridOptions& grid);

// Within-site mid-rank percentiles of `values` (hosts[i] is values[i]'s site).
std::vector<double> WithinSitePercentiles(const std::vector<std::string_view>& hosts,
                                          const std::vector<double>& values);

}  // namespace topicrawl::hub

#endif  // TOPICRAWL_STRATEGIES_HUB_HUB_SITE_DETECTORS_H_
