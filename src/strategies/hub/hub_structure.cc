#include "strategies/hub/hub_structure.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace topicrawl::hub {

void DropTemplateLinks(const std::vector<std::string>& hosts, double template_share,
                       std::vector<std::vector<size_t>>* out) {
  // A target linked from more than template_share of its site's pages is
  // navigation chrome (sidebar, header), not a page's own choice.
  std::map<std::string, int64_t> host_pages;
  for (const auto& h : hosts) ++host_pages[h];
  std::vector<int64_t> in_degree(hosts.size(), 0);
  for (const auto& targets : *out) {
    for (size_t j : targets) ++in_degree[j];
  }
  for (size_t i = 0; i < out->size(); ++i) {
    const int64_t pages = host_pages[hosts[i]];
    if (pages < 10) continue;
    const double limit = template_share * static_cast<double>(pages);
    std::erase_if((*out)[i], [&](size_t j) { return in_degree[j] > limit; });
  }
}

std::vector<int> StructuralLabels(const std::vector<std::string>& hosts,
                                  const std::vector<std::vector<size_t>>& out,
                                  const StructuralOptions& o) {
  const size_t n = hosts.size();
  std::map<std::string, std::vector<size_t>> degrees;
  for (size_t i = 0; i < n; ++i) degrees[hosts[i]].push_back(out[i].size());
  std::map<std::string, size_t> median;
  for (auto& [h, v] : degrees) {
    std::sort(v.begin(), v.end());
    median[h] = v[(v.size() - 1) / 2];  // lower median
  }
  std::vector<char> content(n);
  for (size_t i = 0; i < n; ++i) content[i] = out[i].size() <= median[hosts[i]];
  std::vector<int> label(n, 0);
  for (size_t i = 0; i < n; ++i) {
    int64_t c = 0;
    for (size_t j : out[i]) c += content[j];
    label[i] = c >= o.min_content_links &&
                       c >= o.hub_share * static_cast<double>(out[i].size())
                   ? 1
                   : 0;
  }
  return label;
}

}  // namespace topicrawl::hub
