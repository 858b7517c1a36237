// The three hub detectors seed 003 compares against (003_8082e0a8ad518813
// §2 and §4.2), on the same rows and splits as the URL-feature SVM.
//
//   rules      Meng et al.'s simple rules (§2): the site's home page and the
//              pages whose file name contains index, class, default or list
//              are hubs. We read "home page" as a seed (crawl depth 0) or a
//              root URL (directory depth 0, no file name or index-like), and
//              count a directory URL ("/news/", served as its index page) as
//              index-like. No training.
//   heuristic  Ail et al.'s multi-feature heuristic (§2, §4.2 (1)): from the
//              page text after removing scripts/styles/comments, the number of
//              non-link characters, the number of punctuation marks and the
//              text/link ratio; each feature value gets a Bayesian "topic
//              support" P(topic | bin) - P(hub | bin) in [-1, 1] (10 quantile
//              bins of the training values, Laplace-smoothed counts); the
//              combined support is their mean and a page is a hub when it is
//              below a threshold, chosen by trying every distinct training
//              support value and keeping the most accurate (§4.2 (1) ④: the
//              seed searched its threshold "one by one" in the same way).
//   content    the content-based learner ([9], §4.2 (2)): the same C-SVC/RBF
//              with grid search on page-content features: text length, link
//              count, link density (link text / all text), list items, text
//              blocks.
#ifndef TOPICRAWL_STRATEGIES_HUB_HUB_BASELINES_H_
#define TOPICRAWL_STRATEGIES_HUB_HUB_BASELINES_H_

#include <string>
#include <vector>

#include "classify/svm_model.h"
#include "strategies/hub/hub_dataset.h"

namespace topicrawl::hub {

// rules: 1 when the row is a hub by Meng et al.'s rules.
int SimpleRulesIsHub(const HubExample& e);

// heuristic: the three page features (non-link chars, punctuation, text/link).
std::vector<double> HeuristicFeatures(const HubExample& e);

class HeuristicHubClassifier {
 public:
  // Trains on rows[idx]. Works with any rows (one class only: a constant
  // support, threshold that predicts the majority).
  static HeuristicHubClassifier Train(const std::vector<HubExample>& rows,
                                      const std::vector<size_t>& idx, int bins = 10);
  // Combined topic support in [-1, 1]: low means hub.
  double TopicSupport(const HubExample& e) const;
  int Predict(const HubExample& e) const { return TopicSupport(e) < threshold_ ? 1 : 0; }
  double threshold() const { return threshold_; }

 private:
  struct Feature {
    std::vector<double> edges;    // upper bin edges (ascending), last bin open
    std::vector<double> support;  // per bin
  };
  std::vector<Feature> features_;
  double threshold_ = 0;
};

// content: the page-content feature vector and its names.
const std::vector<std::string>& ContentFeatureNames();
std::vector<double> ContentFeatures(const HubExample& e);
SvmDataset ContentDataset(const std::vector<HubExample>& rows, const std::vector<size_t>& idx);
inline constexpr char kContentModelKind[] = "hub-content";

}  // namespace topicrawl::hub

#endif  // TOPICRAWL_STRATEGIES_HUB_HUB_BASELINES_H_
