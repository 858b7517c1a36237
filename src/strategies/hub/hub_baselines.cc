#include "strategies/hub/hub_baselines.h"

#include <algorithm>
#include <cmath>

namespace topicrawl::hub {

int SimpleRulesIsHub(const HubExample& e) {
  const double name = FileNameClass(e.url);
  const bool index_like = name == kFileNameIndexLike || name == kFileNameEmpty;
  const bool home = e.crawl_depth == 0 || (DirectoryDepth(e.url) == 0 && index_like);
  return home || index_like ? 1 : 0;
}

std::vector<double> HeuristicFeatures(const HubExample& e) {
  double nonlink = static_cast<double>(std::max<int64_t>(e.text_chars - e.anchor_chars, 0));
  return {nonlink, static_cast<double>(e.punct), nonlink / (e.anchor_chars + 1.0)};
}

HeuristicHubClassifier HeuristicHubClassifier::Train(const std::vector<HubExample>& rows,
                                                     const std::vector<size_t>& idx, int bins) {
  HeuristicHubClassifier c;
  const size_t nf = 3;
  std::vector<std::vector<double>> x;
  for (size_t i : idx) x.push_back(HeuristicFeatures(rows[i]));
  for (size_t f = 0; f < nf; ++f) {
    Feature feat;
    std::vector<double> v;
    for (const auto& r : x) v.push_back(r[f]);
    std::sort(v.begin(), v.end());
    for (int b = 1; b < bins && !v.empty(); ++b) {
      double edge = v[v.size() * b / bins];
      if (feat.edges.empty() || edge > feat.edges.back()) feat.edges.push_back(edge);
    }
    const size_t nb = feat.edges.size() + 1;
    std::vector<double> hub(nb, 0), topic(nb, 0);
    c.features_.push_back(feat);
    for (size_t k = 0; k < idx.size(); ++k) {
      size_t b = std::upper_bound(feat.edges.begin(), feat.edges.end(), x[k][f]) - feat.edges.begin();
      (rows[idx[k]].label == 1 ? hub : topic)[b] += 1;
    }
    auto& stored = c.features_.back();
    stored.support.resize(nb);
    for (size_t b = 0; b < nb; ++b) {
      // Bayes with Laplace smoothing: P(topic | bin) - P(hub | bin).
      double p_topic = (topic[b] + 1) / (topic[b] + hub[b] + 2);
      stored.support[b] = 2 * p_topic - 1;
    }
  }
  // Threshold: the most accurate of the candidate cut points.
  std::vector<std::pair<double, int>> s;
  for (size_t i : idx) s.emplace_back(c.TopicSupport(rows[i]), rows[i].label);
  std::sort(s.begin(), s.end());
  int64_t hubs_total = 0;
  for (const auto& [v, y] : s) hubs_total += y;
  // threshold t: predict hub iff support < t. Sweep t over s[i].first.
  int64_t best_right = -1, hubs_below = 0, topics_below = 0;
  double best_t = s.empty() ? 0 : s.front().first;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == 0 || i == s.size() || s[i].first != s[i - 1].first) {
      double t = i == s.size() ? s.back().first + 1 : s[i].first;
      int64_t topics_above = static_cast<int64_t>(s.size()) - i - (hubs_total - hubs_below);
      int64_t right = hubs_below + topics_above;
      if (right > best_right) {
        best_right = right;
        best_t = t;
      }
    }
    if (i < s.size()) (s[i].second == 1 ? hubs_below : topics_below) += 1;
  }
  c.threshold_ = best_t;
  return c;
}

double HeuristicHubClassifier::TopicSupport(const HubExample& e) const {
  if (features_.empty()) return 0;
  auto x = HeuristicFeatures(e);
  double sum = 0;
  for (size_t f = 0; f < features_.size(); ++f) {
    const auto& feat = features_[f];
    size_t b = std::upper_bound(feat.edges.begin(), feat.edges.end(), x[f]) - feat.edges.begin();
    sum += feat.support[b];
  }
  return sum / features_.size();
}

const std::vector<std::string>& ContentFeatureNames() {
  static const std::vector<std::string> n = {"text_chars", "links", "link_density", "list_items",
                                             "blocks"};
  return n;
}

std::vector<double> ContentFeatures(const HubExample& e) {
  double density = e.text_chars > 0 ? static_cast<double>(e.anchor_chars) / e.text_chars : 0;
  return {static_cast<double>(e.text_chars), static_cast<double>(e.links), std::min(density, 1.0),
          static_cast<double>(e.list_items), static_cast<double>(e.blocks)};
}

SvmDataset ContentDataset(const std::vector<HubExample>& rows, const std::vector<size_t>& idx) {
  SvmDataset d;
  d.feature_names = ContentFeatureNames();
  for (size_t i : idx) d.Add(ContentFeatures(rows[i]), rows[i].label);
  d.groups = HostGroups(rows, idx);
  return d;
}

}  // namespace topicrawl::hub
