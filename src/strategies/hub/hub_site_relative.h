// Site-relative reading of seed 003's URL features (not in the
// seed). The seed trained and tested on news portals that share URL
// conventions; on documentation sites the numeric features mean different
// things on different sites (a 40-byte URL is short on one site and long on
// another), so a model trained on some sites learns their scales and does not
// transfer to a new one (docs/notebook/hub-svm.md, "Why the URL SVM loses to the rules
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
#ifndef TOPICRAWL_STRATEGIES_HUB_HUB_SITE_RELATIVE_H_
#define TOPICRAWL_STRATEGIES_HUB_HUB_SITE_RELATIVE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <functional>
#include <unordered_map>
#include <vector>

#include "core/status.h"
#include "strategies/hub/hub_features.h"

namespace topicrawl::hub {

// The model kind of site-relative URL models (before download).
inline constexpr std::string_view kSiteRelativeModelKind = "hub-url-site-relative";
// The model kind of site-relative models with page size (full set).
inline constexpr std::string_view kSiteRelativeFullModelKind = "hub-url-full-site-relative";

// Which features a hub URL model reads: the seed's set (full / before
// download) and whether the numeric dimensions are the seed's raw values or
// site percentiles. A model file records it as its kind (HubSpecModelKind),
// so `hub`, `analyze hub` and the `hubs` round policy encode URLs the way
// the model was trained, and refuse a file of another kind.
enum class HubFeatureReading {
  kRaw,           // the seed's values (default)
  kSiteRelative,  // numeric dimensions as percentiles within the URL's site
};
struct HubFeatureSpec {
  HubFeatureSet set = HubFeatureSet::kBeforeDownload;
  HubFeatureReading reading = HubFeatureReading::kRaw;
  bool site_relative() const { return reading == HubFeatureReading::kSiteRelative; }
};
// "full", "url" (= "before-download"), "full-site", "url-site"; false for
// another name.
bool ParseHubFeatureSpec(std::string_view name, HubFeatureSpec* spec);
std::string HubFeatureSpecName(const HubFeatureSpec& spec);
// hub-url-full, hub-url-before-download, hub-url-full-site-relative,
// hub-url-site-relative.
std::string_view HubSpecModelKind(const HubFeatureSpec& spec);
// The inverse of HubSpecModelKind; false for a kind that is no hub URL model.
bool HubSpecFromModelKind(std::string_view kind, HubFeatureSpec* spec);
// Feature names in vector order as stored in the model file: the set's
// names, with "_site_pct" appended to the site-relative dimensions.
std::vector<std::string> HubSpecFeatureNames(const HubFeatureSpec& spec);

// The reference population of site-relative features: per site, the sorted
// values of each numeric dimension over a set of URLs (no labels). Where
// it comes from is the caller's contract, and the same at training and at
// scoring time: all rows of a data set (train hub-svm, analyze hub), the
// URLs being scored (`hub`: the batch, grouped by host), every stored page
// of the crawl (the `hubs` round policy). Encode() of a URL that is itself
// in the population gives exactly ToSitePercentiles() of that population
// (bit for bit: the same integer counts in the same expression).
//
// Memory: per (site, numeric dimension) the distinct values with their
// counts, plus a buffer of at most kMergeEvery values not yet merged, so a
// site of 10^6 URLs with a few hundred distinct URL lengths holds a few
// hundred entries, not 10^6 (issue 13, scoring 10^6 URLs).
class SiteStatistics {
 public:
  explicit SiteStatistics(HubFeatureSet set);
  // One URL of `host`: its raw vector of the set (HubFeaturesInto).
  void Add(std::string_view host, const double* raw);
  // Sorts; call once after the last Add and before Encode.
  void Finish();
  // Number of reference URLs of `host` (0 if none).
  size_t SiteSize(std::string_view host) const;
  size_t Sites() const { return sites_.size(); }
  // Replaces the site-relative dimensions of `x` (a raw vector of the set)
  // by r(x) = (#{ref < x} + #{ref == x} / 2) / n among the host's reference
  // values. Error when the host has no reference URLs.
  Status Encode(std::string_view host, double* x) const;
  // The same in two steps, for callers that score many URLs of one host:
  // the site's index (-1 when the host has no reference URLs), then Encode
  // against it. REQUIRES: Finish() was called; 0 <= site < Sites().
  int64_t SiteIndex(std::string_view host) const;
  void EncodeAt(size_t site, double* x) const;
  // Distinct values held over all sites and dimensions (memory check).
  size_t DistinctValues() const;

  // Values buffered per (site, dimension) before they are merged into the
  // sorted distinct values.
  static constexpr size_t kMergeEvery = 4096;

 private:
  // Lookups by string_view without building a string (scoring 10^6 URLs).
  struct HostHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // One numeric dimension of one site.
  struct Column {
    std::vector<double> pending;   // added, not yet merged
    std::vector<double> values;    // sorted, distinct
    std::vector<uint64_t> counts;  // how many reference URLs have values[k]
    // After Finish: below[k] = #{ref < values[k]}, below[size] = n, and
    // pct[k] = r(values[k]).
    std::vector<uint64_t> below;
    std::vector<double> pct;
    void Merge();
  };
  struct Site {
    uint64_t n = 0;
    std::vector<Column> columns;  // one per site-relative dimension, in order
  };
  Site& SiteOf(std::string_view host);

  std::vector<bool> dims_;
  std::vector<size_t> relative_;  // indices d with dims_[d]
  bool finished_ = false;
  std::unordered_map<std::string, size_t, HostHash, std::equal_to<>> index_;
  std::vector<Site> sites_;
  // The last host added (consecutive URLs of one site skip the hash).
  std::string last_host_;
  size_t last_site_ = 0;
};

// Encodes a batch: raw features of each observation, then (site-relative
// spec) percentiles among the batch's URLs of the same host. hosts[i] is
// obs[i]'s site. The vectors are in HubSpecFeatureNames(spec) order.
std::vector<std::vector<double>> EncodeBatch(const HubFeatureSpec& spec,
                                             const std::vector<UrlObservation>& obs,
                                             const std::vector<std::string_view>& hosts);

// True for the dimensions of `set` that are replaced by site percentiles.
std::vector<bool> SiteRelativeDims(HubFeatureSet set);

// Replaces, in place, each dimension d with dims[d] by its mid-rank
// percentile among the rows with the same host (hosts[i] is row i's site).
// rows[i].size() == dims.size() for every row; hosts.size() == rows->size().
void ToSitePercentiles(const std::vector<std::string_view>& hosts, const std::vector<bool>& dims,
                       std::vector<std::vector<double>>* rows);

}  // namespace topicrawl::hub

#endif  // TOPICRAWL_STRATEGIES_HUB_HUB_SITE_RELATIVE_H_
