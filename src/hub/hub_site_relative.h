// Site-relative reading of seed 003's URL features (session 6; not in the
// seed). The seed trained and tested on news portals that share URL
// conventions; on documentation sites the numeric features mean different
// things on different sites (a 40-byte URL is short on one site and long on
// another), so a model trained on some sites learns their scales and does not
// transfer to a new one (docs/hub-svm.md, "Why the URL SVM loses to the rules
// across sites": within a site shorter and shallower URLs are hubs on 12 of
// 14 dev hosts, pooled over hosts that signal is gone, AUC 0.51).
//
// The site-relative vector keeps the seed's categorical encodings (③ date,
// ④ file name, ⑤ file type, ⑥ parameter name) and replaces each numeric
// feature (① anchor length, ② URL length, ⑦ parameter count, ⑧ directory
// depth, ⑨ page size, ⑩ crawl depth) by its mid-rank percentile among the
// URLs of the same site:
//     r(x) = (#{site URLs with value < x} + #{with value == x} / 2) / n_site
// in (0, 1). It needs only the URLs of the site (no labels), which a crawler
// knows when it scores them: the pages of a crawl, or the rows of a data set.
#ifndef TOPICRAWL_HUB_HUB_SITE_RELATIVE_H_
#define TOPICRAWL_HUB_HUB_SITE_RELATIVE_H_

#include <string>
#include <string_view>
#include <vector>

#include "hub/hub_features.h"

namespace topicrawl::hub {

// The model kind of site-relative URL models (before download).
inline constexpr std::string_view kSiteRelativeModelKind = "hub-url-site-relative";

// True for the dimensions of `set` that are replaced by site percentiles.
std::vector<bool> SiteRelativeDims(HubFeatureSet set);

// Replaces, in place, each dimension d with dims[d] by its mid-rank
// percentile among the rows with the same host (hosts[i] is row i's site).
// rows[i].size() == dims.size() for every row; hosts.size() == rows->size().
void ToSitePercentiles(const std::vector<std::string_view>& hosts, const std::vector<bool>& dims,
                       std::vector<std::vector<double>>* rows);

}  // namespace topicrawl::hub

#endif  // TOPICRAWL_HUB_HUB_SITE_RELATIVE_H_
