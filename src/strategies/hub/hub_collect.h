// Labelled hub data from a crawl directory (`topicrawl collect-hubs`):
// labels come from the data (the link graph of the crawl), never from a
// classifier.
//
// Structural label (for static webs, before any recrawl round exists):
//   T(P)      the distinct same-host pages P links to that the crawl
//             downloaded (canonical URLs, P itself excluded), without
//             template links: targets linked from more than
//             `template_share` of the site's downloaded pages (navigation
//             chrome such as a sidebar listing every page; sites with at
//             least 10 downloaded pages);
//   content   a downloaded page Q is a "content page" when |T(Q)| is at most
//             the median |T| of the downloaded pages of its host (the
//             link-light half of its site: it is read, not navigated);
//   hub       P links to at least `min_content_links` content pages of its
//             site and they are at least `hub_share` of T(P).
// So a hub is a page whose job is to lead to content pages, the seed's
// definition (003 §1: "a directory index ... the entry to topic pages"),
// measured on the graph. docs/strategies/hub-svm.md gives the base rates it yields.
//
// Page-content counts for the baselines are taken from the stored HTML
// (WARC) with the project's parser. Rows are split 7:3 by host
// (strategies/hub/hub_dataset.h SplitByHost) with `seed`.
#ifndef TOPICRAWL_STRATEGIES_HUB_HUB_COLLECT_H_
#define TOPICRAWL_STRATEGIES_HUB_HUB_COLLECT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
#include "strategies/hub/hub_dataset.h"
#include "strategies/hub/hub_structure.h"

namespace topicrawl::hub {

// The structural label's parameters (strategies/hub/hub_structure.h) and the split.
struct CollectOptions : StructuralOptions {
  double train_fraction = 0.7;
  uint64_t seed = 1;
};

struct CollectSummary {
  int64_t pages = 0;       // rows written
  int64_t unreadable = 0;  // downloaded pages whose WARC record could not be read
  int64_t hubs = 0;
  int64_t train = 0, test = 0;
  int64_t hosts_train = 0, hosts_test = 0;
};

// Content counts of one HTML page (page-content baselines).
void CountContent(std::string_view html, std::string_view page_url, HubExample* e);

// Errors: the crawl database is missing or unreadable.
StatusOr<std::vector<HubExample>> CollectHubsStructural(const std::string& crawl_dir,
                                                        const CollectOptions& options,
                                                        CollectSummary* summary);

// Labels from outside the crawl instead of the structural rule, e.g. from an
// evolving web's truth (`collect-hubs --truth-dir`: a page that links to a
// page new in a later round). `label(url, final_url)` returns 1 (hub) or 0
// for each downloaded page; rows, content counts and the split are as above.
using HubLabeler = std::function<int(const std::string& url, const std::string& final_url)>;
StatusOr<std::vector<HubExample>> CollectHubsLabelled(const std::string& crawl_dir,
                                                      const CollectOptions& options,
                                                      const HubLabeler& label,
                                                      CollectSummary* summary);

}  // namespace topicrawl::hub

#endif  // TOPICRAWL_STRATEGIES_HUB_HUB_COLLECT_H_
