#include "hub/hub_site_relative.h"

#include <algorithm>
#include <cstddef>
#include <unordered_map>
#include <utility>

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

bool ParseHubFeatureSpec(std::string_view name, HubFeatureSpec* spec) {
  HubFeatureSpec out;
  constexpr std::string_view kSuffix = "-site";
  if (name.size() > kSuffix.size() && name.substr(name.size() - kSuffix.size()) == kSuffix) {
    out.reading = HubFeatureReading::kSiteRelative;
    name.remove_suffix(kSuffix.size());
  }
  if (!ParseHubFeatureSet(name, &out.set)) return false;
  *spec = out;
  return true;
}

std::string HubFeatureSpecName(const HubFeatureSpec& spec) {
  std::string name(HubFeatureSetName(spec.set));
  if (spec.site_relative()) name += "-site";
  return name;
}

std::string_view HubSpecModelKind(const HubFeatureSpec& spec) {
  if (!spec.site_relative()) return HubModelKind(spec.set);
  return spec.set == HubFeatureSet::kFull ? kSiteRelativeFullModelKind : kSiteRelativeModelKind;
}

bool HubSpecFromModelKind(std::string_view kind, HubFeatureSpec* spec) {
  for (HubFeatureSet set : {HubFeatureSet::kFull, HubFeatureSet::kBeforeDownload}) {
    for (HubFeatureReading r : {HubFeatureReading::kRaw, HubFeatureReading::kSiteRelative}) {
      const HubFeatureSpec s{set, r};
      if (HubSpecModelKind(s) == kind) {
        *spec = s;
        return true;
      }
    }
  }
  return false;
}

std::vector<std::string> HubSpecFeatureNames(const HubFeatureSpec& spec) {
  std::vector<std::string> names = HubFeatureNames(spec.set);
  if (spec.site_relative()) {
    const std::vector<bool> dims = SiteRelativeDims(spec.set);
    for (size_t d = 0; d < names.size(); ++d) {
      if (dims[d]) names[d] += "_site_pct";
    }
  }
  return names;
}

SiteStatistics::SiteStatistics(HubFeatureSet set) : dims_(SiteRelativeDims(set)) {}

void SiteStatistics::Add(std::string_view host, const double* raw) {
  auto it = sites_.find(host);
  if (it == sites_.end()) it = sites_.emplace(std::string(host), dims_.size()).first;
  auto& site = it->second;
  for (size_t d = 0; d < dims_.size(); ++d) {
    if (dims_[d]) site[d].push_back(raw[d]);
  }
  finished_ = false;
}

void SiteStatistics::Finish() {
  for (auto& [host, site] : sites_) {
    for (auto& values : site) std::sort(values.begin(), values.end());
  }
  finished_ = true;
}

size_t SiteStatistics::SiteSize(std::string_view host) const {
  auto it = sites_.find(host);
  if (it == sites_.end()) return 0;
  for (size_t d = 0; d < dims_.size(); ++d) {
    if (dims_[d]) return it->second[d].size();
  }
  return 0;
}

Status SiteStatistics::Encode(std::string_view host, double* x) const {
  if (!finished_) return Status::Error("site statistics: Encode before Finish");
  auto it = sites_.find(host);
  if (it == sites_.end()) {
    return Status::Error("site-relative hub features: no reference URLs of site '" +
                         std::string(host) + "'");
  }
  for (size_t d = 0; d < dims_.size(); ++d) {
    if (!dims_[d]) continue;
    const std::vector<double>& v = it->second[d];
    const auto lo = std::lower_bound(v.begin(), v.end(), x[d]);
    const auto hi = std::upper_bound(lo, v.end(), x[d]);
    x[d] = (static_cast<double>(lo - v.begin()) + 0.5 * static_cast<double>(hi - lo)) /
           static_cast<double>(v.size());
  }
  return Status::Ok();
}

std::vector<std::vector<double>> EncodeBatch(const HubFeatureSpec& spec,
                                             const std::vector<UrlObservation>& obs,
                                             const std::vector<std::string_view>& hosts) {
  std::vector<std::vector<double>> x(obs.size());
  for (size_t i = 0; i < obs.size(); ++i) x[i] = HubFeatures(obs[i], spec.set);
  if (spec.site_relative()) ToSitePercentiles(hosts, SiteRelativeDims(spec.set), &x);
  return x;
}

}  // namespace topicrawl::hub
