// `topicrawl tda seeds`: TopicHub (graph/topic_hub.h) over a finished crawl.
// Pages are the crawled pages (stored ok) and their link targets, sites the
// pages' hosts, both numbered by first appearance (crawled pages in id
// order, then link targets in the links table's order); a crawled page is
// fresh (first downloaded in this crawl), with Sim(p) = its relevance, and
// relevant when relevance >= beta. The result holds the next round's seeds
// with their weights.
#ifndef TOPICRAWL_STRATEGIES_TDA_TOPICHUB_SEEDS_H_
#define TOPICRAWL_STRATEGIES_TDA_TOPICHUB_SEEDS_H_

#include <string>
#include <vector>

#include "core/status.h"
#include "graph/topic_hub.h"

namespace topicrawl {

struct CrawlTopicHub {
  TopicHubResult result;
  std::vector<std::string> urls;  // per TopicHub page
  size_t pages = 0, crawled = 0, links = 0, sites = 0;
};

// TopicHub with `seeds` seeds over the crawl in `crawl_dir`. Errors: no
// crawl.db, or it cannot be read.
StatusOr<CrawlTopicHub> CrawlTopicHubSeeds(const std::string& crawl_dir, double beta, int seeds);

// The report `tda seeds` prints: a summary line, then weight, TSI, I(p)
// and URL of each seed, best first.
std::string FormatTopicHubSeeds(const CrawlTopicHub& hub);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_TDA_TOPICHUB_SEEDS_H_
