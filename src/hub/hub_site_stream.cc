#include "hub/hub_site_stream.h"

#include <vector>

#include "hub/hub_site_relative.h"

namespace topicrawl::hub {

StatusOr<SiteStreamSummary> ForEachSiteRelative(HubFeatureSet set, const UrlReplay& replay,
                                                const SiteOfUrl& site_of,
                                                const SiteRelativeVisit& visit) {
  SiteStatistics stats(set);
  std::vector<double> x(HubFeatureNames(set).size());
  SiteStreamSummary summary;
  // Pass 1: the statistics. The site string of the previous URL is kept so
  // that a run of URLs of one host costs no hash lookup (SiteStatistics).
  Status s = replay([&](const UrlObservation& o) {
    HubFeaturesInto(o, set, x.data());
    stats.Add(site_of(o.url), x.data());
    ++summary.urls;
  });
  if (!s.ok()) return s;
  stats.Finish();
  summary.sites = stats.Sites();
  summary.distinct_values = stats.DistinctValues();

  // Pass 2: the vectors. The site index of the previous URL is reused when
  // the host repeats.
  int64_t seen = 0;
  std::string last_site;
  int64_t last_index = -1;
  Status mismatch = Status::Ok();
  s = replay([&](const UrlObservation& o) {
    if (!mismatch.ok()) return;
    ++seen;
    const std::string site = site_of(o.url);
    if (last_index < 0 || site != last_site) {
      last_index = stats.SiteIndex(site);
      last_site = site;
    }
    if (last_index < 0 || seen > summary.urls) {
      mismatch = Status::Error("site-relative hub features: the URLs changed between the two "
                               "passes (site '" + site + "' or URL " + std::to_string(seen) +
                               " not in the first)");
      return;
    }
    HubFeaturesInto(o, set, x.data());
    stats.EncodeAt(static_cast<size_t>(last_index), x.data());
    visit(o, x.data());
  });
  if (!s.ok()) return s;
  if (!mismatch.ok()) return mismatch;
  if (seen != summary.urls) {
    return Status::Error("site-relative hub features: the URLs changed between the two passes (" +
                         std::to_string(summary.urls) + " then " + std::to_string(seen) + ")");
  }
  return summary;
}

}  // namespace topicrawl::hub
