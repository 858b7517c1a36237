// GroupBandit: the exploration part of strategy `online`, a bandit whose arms
// are link groups (host + directory of the target URL; host + page region of
// the link, Outlink::block). Each arm keeps n, the pages fetched through
// links of the group, and s, the sum of their rewards.
//
// Arm value: Bayes-UCB (Kaufmann, Cappé & Garivier, "On Bayesian Upper
// Confidence Bounds for Bandit Problems", AISTATS 2012) over a Beta
// posterior whose prior is the link model's own prediction q for the link,
// with prior weight a (pseudo-pages):
//
//   m   = (s + a q) / (n + a)
//   ucb = m + c * sqrt(max(m (1 - m), v0) / (n + a + 1))
//
// An untried group is worth q plus its widest bonus; a group whose pages
// keep paying stays high whatever q says; an exhausted one (n large, s ~ 0)
// falls towards 0 and is dropped. The variance floor v0 keeps a bonus for
// groups the model thinks poor (m near 0): without it a section behind an
// irrelevant-looking page is never probed. The normal approximation of the Beta
// quantile replaces the paper's exact quantile (a crawl ranks links, so a
// monotone bonus in the posterior spread is enough) and keeps it
// deterministic: no sampling, so a crawl on one thread is reproducible.
//
// Bounded memory: at most `max_groups` arms; later groups are untracked
// (always "untried"). Not thread-safe.
#ifndef TOPICRAWL_STRATEGIES_ONLINE_GROUP_BANDIT_H_
#define TOPICRAWL_STRATEGIES_ONLINE_GROUP_BANDIT_H_

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "core/status.h"

namespace topicrawl {

class StateWriter;
class StateReader;

struct BanditParams {
  double prior_weight = 2.0;   // a: pseudo-pages behind the model's prediction
  double exploration = 1.0;    // c: width of the bonus (0: greedy on m)
  double min_variance = 0.0;   // v0: floor of the posterior variance term
  size_t max_groups = 1 << 18;
};

struct ArmStats {
  double n = 0;  // pages fetched through the group's links
  double s = 0;  // sum of their rewards
};

class GroupBandit {
 public:
  explicit GroupBandit(const BanditParams& params) : params_(params) {}

  // Counts one fetched page of group `key` with reward r in [0, 1].
  void Observe(uint64_t key, double reward);
  ArmStats Stats(uint64_t key) const;
  // The posterior mean m and the Bayes-UCB value above, for a link whose
  // model prediction is q.
  double Mean(uint64_t key, double q) const;
  double Ucb(uint64_t key, double q) const;

  size_t size() const { return arms_.size(); }
  size_t MemoryBytes() const { return arms_.capacity() * (sizeof(uint64_t) + sizeof(ArmStats) + 1); }

  // Section "bandit" v1: arms sorted by key.
  void Save(StateWriter* out) const;
  Status Restore(StateReader* in);

 private:
  BanditParams params_;
  absl::flat_hash_map<uint64_t, ArmStats> arms_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_ONLINE_GROUP_BANDIT_H_
