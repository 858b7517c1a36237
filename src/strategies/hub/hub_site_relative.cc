#include "strategies/hub/hub_site_relative.h"

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

namespace {

// r(x) with `less` reference values below x and `equal` equal to it among
// n: the expression of ToSitePercentiles, so both give the same bits.
double MidRank(uint64_t less, uint64_t equal, uint64_t n) {
  return (static_cast<double>(less) + 0.5 * static_cast<double>(equal)) / static_cast<double>(n);
}

}  // namespace

SiteStatistics::SiteStatistics(HubFeatureSet set) : dims_(SiteRelativeDims(set)) {
  for (size_t d = 0; d < dims_.size(); ++d) {
    if (dims_[d]) relative_.push_back(d);
  }
}

// Sorted run-length merge of the buffer into (values, counts): the column
// keeps one entry per distinct value, whatever the number of URLs.
void SiteStatistics::Column::Merge() {
  if (pending.empty()) return;
  std::sort(pending.begin(), pending.end());
  std::vector<double> v;
  std::vector<uint64_t> c;
  v.reserve(values.size() + pending.size());
  c.reserve(values.size() + pending.size());
  auto push = [&](double x, uint64_t k) {
    if (!v.empty() && v.back() == x) {
      c.back() += k;
    } else {
      v.push_back(x);
      c.push_back(k);
    }
  };
  size_t i = 0, j = 0;
  while (i < values.size() || j < pending.size()) {
    if (j == pending.size() || (i < values.size() && values[i] <= pending[j])) {
      push(values[i], counts[i]);
      ++i;
    } else {
      push(pending[j++], 1);
    }
  }
  values = std::move(v);
  counts = std::move(c);
  pending.clear();
  pending.shrink_to_fit();
}

SiteStatistics::Site& SiteStatistics::SiteOf(std::string_view host) {
  if (!sites_.empty() && host == last_host_) return sites_[last_site_];
  auto it = index_.find(host);
  if (it == index_.end()) {
    it = index_.emplace(std::string(host), sites_.size()).first;
    sites_.emplace_back().columns.resize(relative_.size());
  }
  last_host_.assign(host);
  last_site_ = it->second;
  return sites_[last_site_];
}

void SiteStatistics::Add(std::string_view host, const double* raw) {
  Site& site = SiteOf(host);
  ++site.n;
  for (size_t k = 0; k < relative_.size(); ++k) {
    Column& c = site.columns[k];
    c.pending.push_back(raw[relative_[k]]);
    if (c.pending.size() >= kMergeEvery) c.Merge();
  }
  finished_ = false;
}

void SiteStatistics::Finish() {
  for (Site& site : sites_) {
    for (Column& c : site.columns) {
      c.Merge();
      c.below.assign(c.values.size() + 1, 0);
      c.pct.resize(c.values.size());
      uint64_t less = 0;
      for (size_t k = 0; k < c.values.size(); ++k) {
        c.below[k] = less;
        c.pct[k] = MidRank(less, c.counts[k], site.n);
        less += c.counts[k];
      }
      c.below[c.values.size()] = less;
    }
  }
  finished_ = true;
}

size_t SiteStatistics::SiteSize(std::string_view host) const {
  auto it = index_.find(host);
  return it == index_.end() ? 0 : sites_[it->second].n;
}

size_t SiteStatistics::DistinctValues() const {
  size_t n = 0;
  for (const Site& site : sites_) {
    for (const Column& c : site.columns) n += c.values.size();
  }
  return n;
}

int64_t SiteStatistics::SiteIndex(std::string_view host) const {
  auto it = index_.find(host);
  return it == index_.end() ? -1 : static_cast<int64_t>(it->second);
}

void SiteStatistics::EncodeAt(size_t index, double* x) const {
  const Site& site = sites_[index];
  for (size_t k = 0; k < relative_.size(); ++k) {
    const Column& c = site.columns[k];
    double& v = x[relative_[k]];
    const size_t i = std::lower_bound(c.values.begin(), c.values.end(), v) - c.values.begin();
    // A reference value: its precomputed mid rank; another value (a URL
    // outside the population): the share below it.
    v = i < c.values.size() && c.values[i] == v ? c.pct[i] : MidRank(c.below[i], 0, site.n);
  }
}

Status SiteStatistics::Encode(std::string_view host, double* x) const {
  if (!finished_) return Status::Error("site statistics: Encode before Finish");
  const int64_t index = SiteIndex(host);
  if (index < 0) {
    return Status::Error("site-relative hub features: no reference URLs of site '" +
                         std::string(host) + "'");
  }
  EncodeAt(static_cast<size_t>(index), x);
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
