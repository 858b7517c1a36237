// The [strategy.online] table of a topic file (docs/strategies/online.md):
// every key optional, unknown keys refused.
#ifndef TOPICRAWL_STRATEGIES_ONLINE_ONLINE_PARAMS_H_
#define TOPICRAWL_STRATEGIES_ONLINE_ONLINE_PARAMS_H_

#include <cstddef>
#include <string>

#include "core/status.h"
#include "strategies/online/ftrl.h"
#include "strategies/online/group_bandit.h"
#include "strategies/online/page_judge.h"
#include "text/topic.h"

namespace topicrawl {

// The page judge whose J(P) is the reward's and the stored relevance:
// kSelfTrained SelfTrainedJudge's, kDensity DensityRelevance (page_judge.h),
// kTopic the topic cosine R(P).
enum class JudgeKind { kTopic, kSelfTrained, kDensity };
// kGraded: r = min(1, J(P) / beta)^reward_exponent; kRelevant: r = 1 when
// the judge calls the page relevant (J(P) >= beta), else 0.
enum class RewardKind { kGraded, kRelevant };

// The key value of a judge ("topic", "self-trained", "density").
const char* JudgeName(JudgeKind judge);

struct OnlineParams {
  FtrlParams ftrl;          // alpha, beta, lambda1, lambda2, hash_bits
  BanditParams bandit;      // prior_weight, exploration, max_groups
  double gamma = 0.5;       // discount of the value found below a page
  double reward_exponent = 2.0;  // r = min(1, J(P) / beta)^k
  RewardKind reward = RewardKind::kGraded;  // key "reward": "graded", "relevant"
  double url_weight = 0.3;  // topic cosine of the URL's words in the prior
  int rescore_every = 250;  // pages between re-scorings of the queue
  size_t max_side_links = 600000;  // queued links with side features
  size_t max_words = 12;    // words per field (URL, anchor)
  // The link's page region (Outlink::block) as features and as a second
  // bandit arm; false (default): the parser does not compute regions.
  bool regions = false;
  JudgeKind judge = JudgeKind::kSelfTrained;  // key "judge"
  DensityJudgeParams density;   // judge_density, judge_min_tokens
  SelfTrainedJudgeParams judge_params;  // judge_alpha, judge_bits, judge_threshold,
                                 // judge_negative
};

// Reads [strategy.online] of `topic`; errors name the file and the key.
StatusOr<OnlineParams> ParseOnlineParams(const Topic& topic);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_ONLINE_ONLINE_PARAMS_H_
