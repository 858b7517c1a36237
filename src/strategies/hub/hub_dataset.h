// Labelled hub data (seed 003): one row per downloaded page with what the
// URL-feature model needs (url, anchor, crawl depth, page size), what the
// content baselines need (counts taken from the page's HTML), the label
// and the 7:3 split by host.
//
// TSV (written by `topicrawl collect-hubs`, read by `train hub-svm` and
// `analyze hub`), header line then one row per page:
//   url host label split crawl_depth page_size anchor
//   text_chars anchor_chars punct links same_site_links list_items blocks
//   f:<name>... (the full URL feature vector, for reading only)
// label 1 hub / 0 not; split "train" / "test". Readers recompute the URL
// features from url, anchor, crawl_depth and page_size with
// strategies/hub/hub_features.h, so the encoders have one source; the f: columns are
// there for people and other tools.
#ifndef TOPICRAWL_STRATEGIES_HUB_HUB_DATASET_H_
#define TOPICRAWL_STRATEGIES_HUB_HUB_DATASET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "classify/svm_model.h"
#include "core/status.h"
#include "strategies/hub/hub_features.h"
#include "strategies/hub/hub_site_relative.h"

namespace topicrawl::hub {

struct HubExample {
  std::string url;
  std::string host;
  std::string anchor;      // of the link that found the page ("" for seeds)
  int64_t crawl_depth = 0;
  int64_t page_size = -1;  // body bytes
  int label = 0;           // 1 hub, 0 not
  bool test = false;       // the file's split
  // Page-content counts (code points / occurrences), for the baselines.
  int64_t text_chars = 0;    // visible text
  int64_t anchor_chars = 0;  // text inside links
  int64_t punct = 0;         // punctuation code points in the visible text
  int64_t links = 0;         // outlinks
  int64_t same_site_links = 0;
  int64_t list_items = 0;    // <li> elements
  int64_t blocks = 0;        // text blocks

  UrlObservation Observation() const { return {url, anchor, crawl_depth, page_size}; }
};

Status WriteHubTsv(const std::string& path, const std::vector<HubExample>& rows);
// Errors name the file and line: missing columns, bad numbers, bad label.
StatusOr<std::vector<HubExample>> ReadHubTsv(const std::string& path);

// 7:3 split by host, so that no host is on both sides: hosts are shuffled
// with `seed` and go to the training side while it holds less than
// `train_fraction` of the rows; the rest is test. With two or more hosts
// both sides get at least one. Returns is-test per row.
std::vector<bool> SplitByHost(const std::vector<HubExample>& rows, double train_fraction,
                              uint64_t seed);

// Random 7:3 split of the rows themselves (hosts on both sides): the
// within-site comparison, to tell "URL features do not transfer between
// sites" from "URL features say nothing". Stratified by label.
std::vector<bool> SplitByRow(const std::vector<HubExample>& rows, double train_fraction,
                             uint64_t seed);

// At most `n` indices of `idx` (all when n < 0 or n >= size), a seeded
// random subset, in their original order.
std::vector<size_t> Subsample(const std::vector<size_t>& idx, int64_t n, uint64_t seed);

// The host of each of rows[idx] as a group id (first seen = 0), for
// cross-validation folds by site (SvmGridOptions::group_folds).
std::vector<uint32_t> HostGroups(const std::vector<HubExample>& rows,
                                 const std::vector<size_t>& idx);

// The SVM data set of `rows[idx]` for the URL-feature model (groups: hosts).
SvmDataset UrlDataset(const std::vector<HubExample>& rows, const std::vector<size_t>& idx,
                      HubFeatureSet set);

// Every row's URL feature vector as `spec` reads it (HubSpecFeatureNames
// order). Site-relative: percentiles among all rows of the file with the
// same host column -- a site's URLs, never its labels; in a host split all
// of a host's rows are on one side, so the test side's reference is its own.
std::vector<std::vector<double>> EncodeHubRows(const HubFeatureSpec& spec,
                                               const std::vector<HubExample>& rows);
// The SVM data set of rows[idx] from EncodeHubRows' vectors (groups: hosts).
SvmDataset SpecDataset(const HubFeatureSpec& spec, const std::vector<HubExample>& rows,
                       const std::vector<std::vector<double>>& encoded,
                       const std::vector<size_t>& idx);

}  // namespace topicrawl::hub

#endif  // TOPICRAWL_STRATEGIES_HUB_HUB_DATASET_H_
