#include "strategies/online/group_bandit.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "crawl/state_blob.h"

namespace topicrawl {

void GroupBandit::Observe(uint64_t key, double reward) {
  auto it = arms_.find(key);
  if (it == arms_.end()) {
    if (arms_.size() >= params_.max_groups) return;
    it = arms_.emplace(key, ArmStats{}).first;
  }
  it->second.n += 1;
  it->second.s += std::clamp(reward, 0.0, 1.0);
}

ArmStats GroupBandit::Stats(uint64_t key) const {
  auto it = arms_.find(key);
  return it == arms_.end() ? ArmStats{} : it->second;
}

double GroupBandit::Mean(uint64_t key, double q) const {
  const ArmStats a = Stats(key);
  return (a.s + params_.prior_weight * q) / (a.n + params_.prior_weight);
}

double GroupBandit::Ucb(uint64_t key, double q) const {
  const ArmStats a = Stats(key);
  const double m = (a.s + params_.prior_weight * q) / (a.n + params_.prior_weight);
  const double v = std::max(m * (1 - m), params_.min_variance);
  return m + params_.exploration * std::sqrt(v / (a.n + params_.prior_weight + 1));
}

namespace {
constexpr uint32_t kBanditVersion = 1;
}

void GroupBandit::Save(StateWriter* out) const {
  out->Section("bandit", kBanditVersion);
  std::vector<std::pair<uint64_t, ArmStats>> arms(arms_.begin(), arms_.end());
  std::sort(arms.begin(), arms.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  out->U64(arms.size());
  for (const auto& [key, a] : arms) {
    out->U64(key);
    out->F64(a.n);
    out->F64(a.s);
  }
}

Status GroupBandit::Restore(StateReader* in) {
  uint32_t version = 0;
  if (Status s = in->Section("bandit", kBanditVersion, &version); !s.ok()) return s;
  uint64_t count = 0;
  if (!in->Count(&count, 24, "arms")) return in->status();
  absl::flat_hash_map<uint64_t, ArmStats> arms;
  arms.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t key = 0;
    ArmStats a;
    if (!in->U64(&key, "arm key") || !in->F64(&a.n, "arm n") || !in->F64(&a.s, "arm s")) {
      return in->status();
    }
    if (!(a.n >= 0) || !(a.s >= 0) || a.s > a.n) {
      return Status::Error("bandit: arm counts out of range");
    }
    arms[key] = a;
  }
  arms_ = std::move(arms);
  return Status::Ok();
}

}  // namespace topicrawl
