#include "strategies/online/online_params.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace topicrawl {

const char* JudgeName(JudgeKind judge) {
  switch (judge) {
    case JudgeKind::kTopic:
      return "topic";
    case JudgeKind::kSelfTrained:
      return "self-trained";
    case JudgeKind::kDensity:
      return "density";
  }
  return "?";
}

StatusOr<OnlineParams> ParseOnlineParams(const Topic& topic) {
  const StrategyParams& sp = topic.Strategy("online");
  const std::vector<std::string_view> known = {
      "alpha", "beta", "lambda1", "lambda2", "hash_bits", "prior_weight", "exploration", "min_variance",
      "max_groups", "gamma", "reward_exponent", "url_weight", "rescore_every",
      "max_side_links", "max_words", "regions", "judge", "judge_alpha", "judge_bits", "judge_threshold",
      "judge_negative", "judge_density", "judge_min_tokens", "reward"};
  const std::string where = topic.source + ": [strategy.online]: ";
  auto unknown = sp.UnknownKeys(known);
  if (!unknown.empty()) {
    std::string list;
    for (auto k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    return Status::Error(where + "unknown key '" + unknown.front() + "' (known: " + list + ")");
  }
  OnlineParams p;
  p.bandit.min_variance = 0.05;
  double bits = p.ftrl.bits, groups = static_cast<double>(p.bandit.max_groups);
  double rescore = p.rescore_every, side = static_cast<double>(p.max_side_links);
  double words = static_cast<double>(p.max_words);
  p.judge_params.ftrl.bits = 18;
  double judge_bits = p.judge_params.ftrl.bits;
  double min_tokens = p.density.min_tokens;
  struct Key {
    const char* name;
    double* value;
    double lo, hi;
  };
  const Key keys[] = {
      {"alpha", &p.ftrl.alpha, 1e-6, 100},      {"beta", &p.ftrl.beta, 0, 1e6},
      {"lambda1", &p.ftrl.lambda1, 0, 1e6},     {"lambda2", &p.ftrl.lambda2, 0, 1e6},
      {"hash_bits", &bits, 10, 26},             {"prior_weight", &p.bandit.prior_weight, 1e-3, 1e6},
      {"exploration", &p.bandit.exploration, 0, 100}, {"max_groups", &groups, 1, 1e8},
      {"min_variance", &p.bandit.min_variance, 0, 0.25},
      {"gamma", &p.gamma, 0, 0.99},             {"reward_exponent", &p.reward_exponent, 0.1, 10},
      {"url_weight", &p.url_weight, 0, 1},      {"rescore_every", &rescore, 1, 1e9},
      {"max_side_links", &side, 0, 1e9},        {"max_words", &words, 1, 64},
      {"judge_alpha", &p.judge_params.ftrl.alpha, 1e-6, 100},
      {"judge_bits", &judge_bits, 10, 26},
      {"judge_threshold", &p.judge_params.threshold, 0.01, 0.99},
      {"judge_negative", &p.judge_params.negative_fraction, 0, 1},
      {"judge_density", &p.density.d0, 1e-6, 1},
      {"judge_min_tokens", &min_tokens, 0, 1e6}};
  for (const Key& k : keys) {
    auto v = sp.Number(k.name, *k.value);
    if (!v.ok()) return Status::Error(where + v.status().message());
    if (!(*v >= k.lo && *v <= k.hi)) {
      return Status::Error(where + k.name + " = " + std::to_string(*v) + " is outside [" +
                           std::to_string(k.lo) + ", " + std::to_string(k.hi) + "]");
    }
    *k.value = *v;
  }
  p.ftrl.bits = static_cast<int>(bits);
  p.bandit.max_groups = static_cast<size_t>(groups);
  p.rescore_every = static_cast<int>(rescore);
  p.max_side_links = static_cast<size_t>(side);
  p.max_words = static_cast<size_t>(words);
  p.judge_params.ftrl.bits = static_cast<int>(judge_bits);
  p.density.min_tokens = static_cast<int>(min_tokens);
  auto judge = sp.String("judge", JudgeName(p.judge));
  if (!judge.ok()) return Status::Error(where + judge.status().message());
  const JudgeKind judges[] = {JudgeKind::kTopic, JudgeKind::kSelfTrained, JudgeKind::kDensity};
  auto kind = std::find_if(std::begin(judges), std::end(judges),
                           [&](JudgeKind k) { return *judge == JudgeName(k); });
  if (kind == std::end(judges)) {
    return Status::Error(where + "judge must be \"topic\", \"self-trained\" or \"density\", not \"" +
                         *judge + "\"");
  }
  p.judge = *kind;
  auto reward = sp.String("reward", "graded");
  if (!reward.ok()) return Status::Error(where + reward.status().message());
  if (*reward != "graded" && *reward != "relevant") {
    return Status::Error(where + "reward must be \"graded\" or \"relevant\", not \"" +
                         *reward + "\"");
  }
  p.reward = *reward == "relevant" ? RewardKind::kRelevant : RewardKind::kGraded;
  auto regions = sp.Bool("regions", p.regions);
  if (!regions.ok()) return Status::Error(where + regions.status().message());
  p.regions = *regions;
  return p;
}

}  // namespace topicrawl
