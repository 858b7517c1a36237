#include "strategies/online/page_judge.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "core/hash.h"
#include "crawl/state_blob.h"
#include "scoring/scorer.h"
#include "strategies/online/link_features.h"

namespace topicrawl {

double TopicDensity(const PageScore& score, int min_tokens) {
  const int tokens = std::max(score.total_terms, min_tokens);
  if (tokens <= 0) return 0;
  double mass = 0;
  for (const TermWeight& t : score.terms) mass += t.count * t.topic_weight;
  return mass / tokens;
}

double DensityRelevance(const PageScore& score, double beta, const DensityJudgeParams& params) {
  return std::min(1.0, beta * TopicDensity(score, params.min_tokens) / params.d0);
}

SelfTrainedJudge::SelfTrainedJudge(const SelfTrainedJudgeParams& params, double beta)
    : params_(params), beta_(beta > 0 ? beta : 1.0), model_(params.ftrl) {}

double SelfTrainedJudge::Margin(double cosine) const {
  return Logit(std::clamp(cosine / (2 * beta_), 0.01, 0.99));
}

Judgement SelfTrainedJudge::Judge(const ParsedPage& page, double cosine) const {
  Judgement j;
  absl::flat_hash_set<uint64_t> seen;
  auto add = [&](std::string_view ns, std::string_view value) {
    std::string key(ns);
    key.push_back('\x1f');
    key.append(value);
    const uint64_t h = Hash64(key);
    if (seen.insert(h).second) j.features.push_back({model_.Slot(h), 1.0f});
  };
  // Words only, no host or directory: the confident positives of a crawl
  // come from few sites, so a location feature learns "this site" rather
  // than "this topic" and then calls every page of that site relevant, which
  // the link model, trained on these judgments, follows (self-training's
  // confirmation bias; measured in docs/notebook/2026-11-28-online-judge.md).
  add("bias", "");
  for (const std::string& w : OnlineWords(page.title, 32)) add("t", w);
  for (const std::string& h : page.headings) {
    for (const std::string& w : OnlineWords(h, 16)) add("t", w);
  }
  for (const std::string& w : OnlineWords(page.text, params_.max_words)) add("w", w);
  {
    std::lock_guard<std::mutex> lock(mu_);
    j.probability = model_.Predict(j.features, Margin(cosine));
  }
  j.relevance = std::max(cosine, std::min(1.0, beta_ * j.probability / params_.threshold));
  return j;
}

void SelfTrainedJudge::Train(const Judgement& j, double cosine) {
  double y;
  if (cosine >= beta_) {
    y = 1;
  } else if (cosine <= params_.negative_fraction * beta_) {
    y = 0;
  } else {
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  model_.Update(j.features, Margin(cosine), y);
  (y > 0 ? positives_ : negatives_) += 1;
}

void SelfTrainedJudge::Save(StateWriter* out) const {
  std::lock_guard<std::mutex> lock(mu_);
  out->Section("judge", 1);
  out->U64(positives_);
  out->U64(negatives_);
  model_.Save(out);
}

Status SelfTrainedJudge::Restore(StateReader* in) {
  uint32_t version = 0;
  if (Status s = in->Section("judge", 1, &version); !s.ok()) return s;
  uint64_t pos = 0, neg = 0;
  if (!in->U64(&pos, "judge positives") || !in->U64(&neg, "judge negatives")) {
    return in->status();
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (Status s = model_.Restore(in); !s.ok()) return s;
  positives_ = pos;
  negatives_ = neg;
  return Status::Ok();
}

}  // namespace topicrawl
