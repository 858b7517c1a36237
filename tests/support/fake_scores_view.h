// A SelectionView over fixed per-host score lists, for the sampling
// selectors' tests (not part of the library).
#ifndef TOPICRAWL_TESTS_SUPPORT_FAKE_SCORES_VIEW_H_
#define TOPICRAWL_TESTS_SUPPORT_FAKE_SCORES_VIEW_H_

#include <algorithm>
#include <functional>
#include <vector>

#include "frontier/link_selector.h"

namespace topicrawl::testing {

// Host h holds scores[h], sorted best first (slot 0 is the top). url_id of
// (h, slot) is h * 1000 + slot.
class ScoresView : public SelectionView {
 public:
  explicit ScoresView(std::vector<std::vector<double>> scores)
      : scores_(std::move(scores)) {
    for (auto& s : scores_) std::sort(s.begin(), s.end(), std::greater<>());
  }
  size_t ReadyHosts() const override { return scores_.size(); }
  std::optional<LinkRef> GlobalBest() const override {
    std::optional<LinkRef> best;
    for (HostId h = 0; h < scores_.size(); ++h) {
      if (scores_[h].empty()) continue;
      if (!best || scores_[h][0] > scores_[best->host][0]) best = LinkRef{h, 0};
    }
    return best;
  }
  std::optional<HostId> BestMeanHost() const override {
    std::optional<HostId> best;
    for (HostId h = 0; h < scores_.size(); ++h) {
      if (scores_[h].empty()) continue;
      if (!best || Mean(h) > Mean(*best)) best = h;
    }
    return best;
  }
  HostStats Stats(HostId h) const override {
    HostStats s;
    s.count = s.in_ram = scores_[h].size();
    for (double x : scores_[h]) s.sum_score += x;
    s.max_score = scores_[h].empty() ? 0 : scores_[h][0];
    return s;
  }
  LinkRef Top(HostId h) const override { return LinkRef{h, 0}; }
  LinkInfo At(LinkRef ref) const override {
    LinkInfo info;
    info.url_id = ref.host * 1000 + ref.slot;
    info.score = info.priority = scores_[ref.host][ref.slot];
    return info;
  }

 private:
  double Mean(HostId h) const { return Stats(h).mean_score(); }
  std::vector<std::vector<double>> scores_;
};

}  // namespace topicrawl::testing

#endif  // TOPICRAWL_TESTS_SUPPORT_FAKE_SCORES_VIEW_H_
