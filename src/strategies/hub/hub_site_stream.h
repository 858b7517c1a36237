// Site-relative hub features of a stream of URLs in bounded memory (issue
// 13: scoring 10^6 URLs). The reference population of each URL's
// percentiles is the stream itself, by host (hub_site_relative.h,
// SiteStatistics), so every URL must be seen before the first one can be
// encoded. Instead of holding the batch (its strings and raw vectors: 349 MB
// for 10^6 URLs), the stream is read twice: pass 1 adds each URL's raw
// vector to the per-site statistics (distinct values and counts only), pass 2
// computes the raw vector again and encodes it against its site. Memory is
// the statistics, independent of the number of URLs; CPU is one more feature
// extraction per URL, which costs less than the kernel sum.
#ifndef TOPICRAWL_STRATEGIES_HUB_HUB_SITE_STREAM_H_
#define TOPICRAWL_STRATEGIES_HUB_HUB_SITE_STREAM_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "strategies/hub/hub_features.h"

namespace topicrawl::hub {

// Calls `visit` for every URL of the stream, in order, and the same URLs in
// the same order on every call (a file read again, a vector). An error
// stops the stream.
using UrlReplay =
    std::function<Status(const std::function<void(const UrlObservation&)>& visit)>;
// The site of a URL (the host column of collect-hubs: url/url.h UrlHost).
// Contract: it depends only on the URL's text before the first '/', '?' or
// '#' that follows the first "://" (scheme and authority, as WHATWG parsing
// reads them); ForEachSiteRelative calls it once per such prefix, not per
// URL (a URL parse per URL and pass was ~10 % of the CPU).
using SiteOfUrl = std::function<std::string(std::string_view url)>;
// Called once per URL in stream order with its site-relative vector (the
// set's HubSpecFeatureNames order; valid during the call only).
using SiteRelativeVisit = std::function<void(const UrlObservation&, const double* x)>;

struct SiteStreamSummary {
  int64_t urls = 0;
  size_t sites = 0;
  size_t distinct_values = 0;  // held by the statistics (memory check)
};

// The two passes. Error when the replay fails or when pass 2 does not see
// the URLs of pass 1 (another count, or a host that pass 1 did not have).
StatusOr<SiteStreamSummary> ForEachSiteRelative(HubFeatureSet set, const UrlReplay& replay,
                                                const SiteOfUrl& site_of,
                                                const SiteRelativeVisit& visit);

}  // namespace topicrawl::hub

#endif  // TOPICRAWL_STRATEGIES_HUB_HUB_SITE_STREAM_H_
