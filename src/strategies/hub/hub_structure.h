// The structural hub label of seed 003's data (a label from the link graph,
// never from a classifier), shared by `collect-hubs --structural` and the
// `hubs` round policy's first model:
//   T(P)      the distinct same-host downloaded pages P links to (P itself
//             excluded), without template links: targets linked from more
//             than `template_share` of the site's downloaded pages (sites
//             with at least 10 downloaded pages);
//   content   a page Q whose |T(Q)| is at most the lower median |T| of its
//             host's pages;
//   hub       P links to at least `min_content_links` content pages of its
//             site and they are at least `hub_share` of T(P).
#ifndef TOPICRAWL_STRATEGIES_HUB_HUB_STRUCTURE_H_
#define TOPICRAWL_STRATEGIES_HUB_HUB_STRUCTURE_H_

#include <cstddef>
#include <string>
#include <vector>

namespace topicrawl::hub {

struct StructuralOptions {
  double hub_share = 0.5;       // share of T(P) that are content pages
  int min_content_links = 5;    // at least this many content pages
  double template_share = 0.5;  // drop targets linked from more pages
};

// Removes template links from `out` (out[i] = distinct indices of the
// same-host pages page i links to; hosts[i] = host of page i).
void DropTemplateLinks(const std::vector<std::string>& hosts, double template_share,
                       std::vector<std::vector<size_t>>* out);

// The rule on a graph whose template links are already dropped: 1 = hub.
std::vector<int> StructuralLabels(const std::vector<std::string>& hosts,
                                  const std::vector<std::vector<size_t>>& out,
                                  const StructuralOptions& options);

}  // namespace topicrawl::hub

#endif  // TOPICRAWL_STRATEGIES_HUB_HUB_STRUCTURE_H_
