#include "strategies/hub/hub_site_stream.h"

#include <unordered_map>
#include <vector>

#include "strategies/hub/hub_site_relative.h"

namespace topicrawl::hub {
namespace {

// site_of by the URL's scheme-and-authority prefix (SiteOfUrl's contract).
// URLs without a literal "://" followed by a non-empty authority (e.g.
// "http:///a.test/", where parsing skips the extra slash) are not cached.
class SiteCache {
 public:
  explicit SiteCache(const SiteOfUrl& site_of) : site_of_(site_of) {}
  const std::string& Site(std::string_view url) {
    const size_t scheme = url.find("://");
    if (scheme == std::string_view::npos) return Uncached(url);
    const size_t end = url.find_first_of("/?#", scheme + 3);
    if (end == scheme + 3) return Uncached(url);
    const std::string_view key = url.substr(0, end);
    if (key == last_key_) return *last_site_;
    auto it = cache_.find(key);
    if (it == cache_.end()) {
      // Bounded: a stream of many hosts starts over (correct, slower).
      if (cache_.size() >= kMaxEntries) cache_.clear();
      it = cache_.emplace(std::string(key), site_of_(url)).first;
    }
    last_key_ = it->first;  // a view of the map's key: stable until clear()
    last_site_ = &it->second;
    return it->second;
  }

 private:
  static constexpr size_t kMaxEntries = 1 << 16;
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  const std::string& Uncached(std::string_view url) {
    last_key_ = {};
    uncached_ = site_of_(url);
    return uncached_;
  }
  const SiteOfUrl& site_of_;
  std::unordered_map<std::string, std::string, Hash, std::equal_to<>> cache_;
  std::string_view last_key_;
  const std::string* last_site_ = nullptr;
  std::string uncached_;
};

}  // namespace

StatusOr<SiteStreamSummary> ForEachSiteRelative(HubFeatureSet set, const UrlReplay& replay,
                                                const SiteOfUrl& site_of,
                                                const SiteRelativeVisit& visit) {
  SiteStatistics stats(set);
  std::vector<double> x(HubFeatureNames(set).size());
  SiteStreamSummary summary;
  SiteCache sites(site_of);
  // Pass 1: the statistics. The site string of the previous URL is kept so
  // that a run of URLs of one host costs no hash lookup (SiteStatistics).
  Status s = replay([&](const UrlObservation& o) {
    HubFeaturesInto(o, set, x.data());
    stats.Add(sites.Site(o.url), x.data());
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
    const std::string& site = sites.Site(o.url);
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
