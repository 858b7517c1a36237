#include "strategies/hub/hub_dataset.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <unordered_map>

#include "core/tsv.h"

namespace topicrawl::hub {
namespace {

const std::vector<std::string>& BaseColumns() {
  static const std::vector<std::string> c = {
      "url",   "host",         "label", "split",          "crawl_depth", "page_size",
      "anchor", "text_chars",  "anchor_chars", "punct",   "links",       "same_site_links",
      "list_items", "blocks"};
  return c;
}

std::string Clean(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

bool ToInt(std::string_view s, int64_t* v) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

Status WriteHubTsv(const std::string& path, const std::vector<HubExample>& rows) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot write " + path);
  const auto& names = HubFeatureNames(HubFeatureSet::kFull);
  std::string line;
  for (const auto& c : BaseColumns()) line += (line.empty() ? "" : "\t") + c;
  for (const auto& n : names) line += "\tf:" + n;
  out << line << '\n';
  for (const auto& r : rows) {
    line = Clean(r.url) + '\t' + Clean(r.host) + '\t' + std::to_string(r.label) + '\t' +
           (r.test ? "test" : "train") + '\t' + std::to_string(r.crawl_depth) + '\t' +
           std::to_string(r.page_size) + '\t' + Clean(r.anchor) + '\t' +
           std::to_string(r.text_chars) + '\t' + std::to_string(r.anchor_chars) + '\t' +
           std::to_string(r.punct) + '\t' + std::to_string(r.links) + '\t' +
           std::to_string(r.same_site_links) + '\t' + std::to_string(r.list_items) + '\t' +
           std::to_string(r.blocks);
    for (double v : HubFeatures(r.Observation(), HubFeatureSet::kFull)) line += '\t' + Num(v);
    out << line << '\n';
  }
  out.flush();
  if (!out) return Status::Error("cannot write " + path);
  return Status::Ok();
}

StatusOr<std::vector<HubExample>> ReadHubTsv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read " + path);
  std::string line;
  if (!std::getline(in, line)) return Status::Error(path + ": empty file");
  auto header = SplitTabs(line);
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[std::string(header[i])] = i;
  std::vector<size_t> at;
  for (const auto& c : BaseColumns()) {
    auto it = col.find(c);
    if (it == col.end()) {
      return Status::Error(path + ": not a hub data file (no '" + c +
                           "' column; write it with topicrawl collect-hubs)");
    }
    at.push_back(it->second);
  }
  std::vector<HubExample> rows;
  int64_t line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    auto f = SplitTabs(line);
    auto bad = [&](const std::string& what) {
      return Status::Error(path + ": line " + std::to_string(line_no) + ": " + what);
    };
    if (f.size() < header.size()) return bad("too few columns");
    HubExample e;
    e.url = std::string(f[at[0]]);
    e.host = std::string(f[at[1]]);
    if (f[at[2]] == "1") {
      e.label = 1;
    } else if (f[at[2]] == "0") {
      e.label = 0;
    } else {
      return bad("label must be 0 or 1");
    }
    if (f[at[3]] != "train" && f[at[3]] != "test") return bad("split must be train or test");
    e.test = f[at[3]] == "test";
    int64_t* ints[] = {&e.crawl_depth, &e.page_size};
    for (int k = 0; k < 2; ++k) {
      if (!ToInt(f[at[4 + k]], ints[k])) return bad("bad number in " + BaseColumns()[4 + k]);
    }
    e.anchor = std::string(f[at[6]]);
    int64_t* counts[] = {&e.text_chars, &e.anchor_chars, &e.punct,     &e.links,
                         &e.same_site_links, &e.list_items, &e.blocks};
    for (int k = 0; k < 7; ++k) {
      if (!ToInt(f[at[7 + k]], counts[k]) || *counts[k] < 0) {
        return bad("bad number in " + BaseColumns()[7 + k]);
      }
    }
    if (e.url.empty()) return bad("empty url");
    rows.push_back(std::move(e));
  }
  return rows;
}

std::vector<bool> SplitByHost(const std::vector<HubExample>& rows, double train_fraction,
                              uint64_t seed) {
  std::map<std::string, size_t> per_host;
  for (const auto& r : rows) ++per_host[r.host];
  std::vector<std::string> hosts;
  for (const auto& [h, n] : per_host) hosts.push_back(h);
  std::mt19937_64 rng(seed);
  for (size_t i = hosts.size(); i > 1; --i) std::swap(hosts[i - 1], hosts[rng() % i]);
  std::map<std::string, bool> host_test;
  size_t train = 0;
  bool any_test = false;
  for (size_t i = 0; i < hosts.size(); ++i) {
    bool to_train = i == 0 || train < train_fraction * rows.size();
    host_test[hosts[i]] = !to_train;
    if (to_train) train += per_host[hosts[i]];
    any_test |= !to_train;
  }
  // Keep both sides non-empty when there are two hosts or more.
  if (!any_test && hosts.size() > 1) host_test[hosts.back()] = true;
  std::vector<bool> test(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) test[i] = host_test[rows[i].host];
  return test;
}

std::vector<bool> SplitByRow(const std::vector<HubExample>& rows, double train_fraction,
                             uint64_t seed) {
  std::vector<bool> test(rows.size(), false);
  std::mt19937_64 rng(seed);
  for (int cls : {0, 1}) {
    std::vector<size_t> idx;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].label == cls) idx.push_back(i);
    }
    for (size_t i = idx.size(); i > 1; --i) std::swap(idx[i - 1], idx[rng() % i]);
    size_t n_train = static_cast<size_t>(train_fraction * idx.size() + 0.5);
    for (size_t k = n_train; k < idx.size(); ++k) test[idx[k]] = true;
  }
  return test;
}

std::vector<size_t> Subsample(const std::vector<size_t>& idx, int64_t n, uint64_t seed) {
  if (n < 0 || static_cast<size_t>(n) >= idx.size()) return idx;
  std::vector<size_t> pick(idx.size());
  for (size_t i = 0; i < pick.size(); ++i) pick[i] = i;
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
    std::swap(pick[i], pick[i + rng() % (pick.size() - i)]);
  }
  pick.resize(static_cast<size_t>(n));
  std::sort(pick.begin(), pick.end());
  std::vector<size_t> out;
  for (size_t p : pick) out.push_back(idx[p]);
  return out;
}

std::vector<uint32_t> HostGroups(const std::vector<HubExample>& rows,
                                 const std::vector<size_t>& idx) {
  std::unordered_map<std::string, uint32_t> id;
  std::vector<uint32_t> g;
  g.reserve(idx.size());
  for (size_t i : idx) g.push_back(id.try_emplace(rows[i].host, id.size()).first->second);
  return g;
}

SvmDataset UrlDataset(const std::vector<HubExample>& rows, const std::vector<size_t>& idx,
                      HubFeatureSet set) {
  SvmDataset d;
  d.feature_names = HubFeatureNames(set);
  for (size_t i : idx) d.Add(HubFeatures(rows[i].Observation(), set), rows[i].label);
  d.groups = HostGroups(rows, idx);
  return d;
}

std::vector<std::vector<double>> EncodeHubRows(const HubFeatureSpec& spec,
                                               const std::vector<HubExample>& rows) {
  std::vector<UrlObservation> obs;
  std::vector<std::string_view> hosts;
  obs.reserve(rows.size());
  hosts.reserve(rows.size());
  for (const HubExample& r : rows) {
    obs.push_back(r.Observation());
    hosts.push_back(r.host);
  }
  return EncodeBatch(spec, obs, hosts);
}

SvmDataset SpecDataset(const HubFeatureSpec& spec, const std::vector<HubExample>& rows,
                       const std::vector<std::vector<double>>& encoded,
                       const std::vector<size_t>& idx) {
  SvmDataset d;
  d.feature_names = HubSpecFeatureNames(spec);
  for (size_t i : idx) d.Add(encoded[i], rows[i].label);
  d.groups = HostGroups(rows, idx);
  return d;
}

}  // namespace topicrawl::hub
