#include "hub/hub_site_relative.h"

#include <algorithm>
#include <cstddef>
#include <unordered_map>

namespace topicrawl::hub {

std::vector<bool> SiteRelativeDims(HubFeatureSet set) {
  std::vector<bool> dims;
  for (const std::string& name : HubFeatureNames(set)) {
    // The categorical features keep the seed's encodings: their values mean
    // the same on every site.
    dims.push_back(!(name == "contains_date" || name == "file_name" || name == "file_type" ||
                     name == "param_name"));
  }
  return dims;
}

void ToSitePercentiles(const std::vector<std::string_view>& hosts, const std::vector<bool>& dims,
                       std::vector<std::vector<double>>* rows) {
  std::unordered_map<std::string_view, std::vector<size_t>> site;
  for (size_t i = 0; i < hosts.size(); ++i) site[hosts[i]].push_back(i);
  std::vector<double> sorted, out;
  for (const auto& [host, members] : site) {
    const double n = static_cast<double>(members.size());
    for (size_t d = 0; d < dims.size(); ++d) {
      if (!dims[d]) continue;
      sorted.clear();
      for (size_t i : members) sorted.push_back((*rows)[i][d]);
      std::sort(sorted.begin(), sorted.end());
      out.resize(members.size());
      // Computed for all members before any is overwritten.
      for (size_t k = 0; k < members.size(); ++k) {
        const double x = (*rows)[members[k]][d];
        const auto lo = std::lower_bound(sorted.begin(), sorted.end(), x);
        const auto hi = std::upper_bound(lo, sorted.end(), x);
        out[k] = (static_cast<double>(lo - sorted.begin()) + 0.5 * static_cast<double>(hi - lo)) / n;
      }
      for (size_t k = 0; k < members.size(); ++k) (*rows)[members[k]][d] = out[k];
    }
  }
}

}  // namespace topicrawl::hub
