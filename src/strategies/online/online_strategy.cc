#include "strategies/online/online_strategy.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "core/hash.h"
#include "crawl/dedup.h"
#include "frontier/link_selector.h"
#include "scoring/relevance_scorer.h"
#include "text/topic.h"

namespace topicrawl {
StatusOr<Strategy> NewOnlineStrategy(const StrategyContext& context) {
  if (context.topic_file.empty()) {
    return Status::Error("strategy 'online' needs a topic: pass --topic FILE");
  }
  auto topic = LoadTopicFile(context.topic_file);
  if (!topic.ok()) return topic.status();
  auto params = ParseOnlineParams(*topic);
  if (!params.ok()) return params.status();
  auto rel = TopicRelevance::Create(*topic);
  if (!rel.ok()) return rel.status();
  std::shared_ptr<TopicRelevance> relevance(std::move(rel).value());
  StrategyTraits traits;
  traits.beta = relevance->topic().beta;
  traits.focus_gated = true;
  traits.link_contexts = {true, false, params->regions};
  return ComposeStrategy("online", traits,
                         std::make_shared<OnlineStrategy>(*params, std::move(relevance), context));
}

OnlineStrategy::OnlineStrategy(const OnlineParams& params,
                               std::shared_ptr<TopicRelevance> relevance,
                               const StrategyContext& context)
    : params_(params),
      relevance_(std::move(relevance)),
      page_scorer_(std::make_unique<RelevancePageScorer>(relevance_)),
      judge_(params.judge == JudgeKind::kSelfTrained
                 ? std::make_unique<SelfTrainedJudge>(params.judge_params, relevance_->topic().beta)
                 : nullptr),
      rng_seed_(context.rng_seed),
      out_dir_(context.out_dir),
      dedup_ignore_scheme_(context.dedup_ignore_scheme),
      model_(params.ftrl),
      bandit_(params.bandit),
      featurizer_(&model_, &bandit_, params.max_words) {}

StatusOr<std::unique_ptr<LinkSelector>> OnlineStrategy::MakeSelector() {
  LinkSelectorOptions options;
  options.seed = rng_seed_;
  return MakeLinkSelector("best-first", options);
}

double OnlineStrategy::Reward(double relevance) const {
  const double beta = relevance_->topic().beta;
  // A page the judge calls irrelevant pays nothing however close it came:
  // a graded reward pays a tree of near-misses (pages that mention the
  // topic in passing) as much as one relevant page, and the learner then
  // follows the tree.
  if (params_.reward == RewardKind::kRelevant) return beta > 0 && relevance >= beta ? 1.0 : 0.0;
  const double x = beta > 0 ? std::min(1.0, std::max(0.0, relevance) / beta) : 0.0;
  return std::pow(x, params_.reward_exponent);
}

double OnlineStrategy::Prior(const Outlink& link, double parent_relevance) const {
  const double alpha = relevance_->topic().alpha;
  double prior = alpha * relevance_->Cosine(link.anchor).cosine + (1 - alpha) * parent_relevance;
  if (params_.url_weight > 0) {
    std::string words;
    for (const std::string& w : OnlineWords(UrlPath(link.url), params_.max_words)) {
      words += w;
      words += ' ';
    }
    prior += params_.url_weight * relevance_->Cosine(words).cosine;
  }
  return std::clamp(prior, 0.0, 1.0);
}

LinkSide OnlineStrategy::MakeSide(const Outlink& link, std::string_view parent_host,
                                  double parent_relevance, double prior,
                                  std::vector<std::string>* context_words) const {
  LinkSide side;
  if (!link.block.empty()) {
    side.block_group = BlockGroup(parent_host, link.block);
    side.block_hash = static_cast<uint32_t>(Hash64(link.block)) | 1;
    side.kind = BlockKind(link.block);
  }
  // The first three distinct words of the context that are not anchor words.
  const std::vector<std::string> anchor = OnlineWords(link.anchor, params_.max_words);
  context_words->clear();
  for (const std::string& w : OnlineWords(link.context, 4 * params_.max_words)) {
    if (context_words->size() == 3) break;
    if (w == "#" || (w.size() < 3 && static_cast<unsigned char>(w[0]) < 0x80)) continue;
    if (std::find(anchor.begin(), anchor.end(), w) != anchor.end()) continue;
    if (std::find(context_words->begin(), context_words->end(), w) != context_words->end()) {
      continue;
    }
    side.context[context_words->size()] = LinkFeaturizer::ContextHash(w);
    context_words->push_back(w);
  }
  side.prior = static_cast<uint16_t>(std::lround(prior * 65535));
  side.parent_bucket = ParentBucket(parent_relevance, relevance_->topic().beta);
  side.generation = generation_.load(std::memory_order_relaxed);
  side.cross_host = UrlHost(link.url) != parent_host ? 1 : 0;
  return side;
}

OnlineStrategy::Scored OnlineStrategy::ScoreLocked(const std::vector<HashedFeature>& x,
                                                   double prior, std::string_view url,
                                                   uint64_t block_group) const {
  Scored s;
  s.q = model_.Predict(x, Logit(std::clamp(prior, 0.01, 0.99)));
  s.score = bandit_.Ucb(DirectoryGroup(url), s.q);
  if (block_group != 0) s.score = std::max(s.score, bandit_.Ucb(block_group, s.q));
  return s;
}

std::string OnlineStrategy::Explain(const Scored& s, double prior,
                                    const std::vector<HashedFeature>& x,
                                    const std::vector<std::string>& names) const {
  std::vector<std::pair<double, size_t>> parts;
  for (size_t k = 0; k < x.size(); ++k) {
    const double c = model_.Weight(x[k].slot) * x[k].value;
    if (c != 0) parts.emplace_back(c, k);
  }
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
    return std::abs(a.first) > std::abs(b.first);
  });
  char head[160];
  std::snprintf(head, sizeof(head), "{\"s\":%.4f,\"q\":%.4f,\"prior\":%.4f,\"top\":[", s.score,
                s.q, prior);
  std::string out = head;
  for (size_t k = 0; k < std::min<size_t>(parts.size(), 6); ++k) {
    std::string name = names[parts[k].second];
    for (char& ch : name) {
      if (ch == '"' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20) ch = '_';
    }
    char num[32];
    std::snprintf(num, sizeof(num), "%.4f", parts[k].first);
    out += (k ? ",[\"" : "[\"") + name + "\"," + num + "]";
  }
  return out + "]}";
}

void OnlineStrategy::JudgePage(const ParsedPage& page, const PageScore& ps,
                               PageAssessment* out) {
  char judged[64];
  if (params_.judge == JudgeKind::kDensity) {
    out->relevance = DensityRelevance(ps, relevance_->topic().beta, params_.density);
    std::snprintf(judged, sizeof(judged), "\"d\":%.5f,\"j\":%.4f",
                  TopicDensity(ps, params_.density.min_tokens), out->relevance);
  } else if (judge_) {
    const Judgement j = judge_->Judge(page, ps.relevance);
    judge_->Train(j, ps.relevance);
    out->relevance = j.relevance;
    std::snprintf(judged, sizeof(judged), "\"p\":%.4f,\"j\":%.4f", j.probability,
                  j.relevance);
  } else {
    return;
  }
  if (!out->explanation.empty() && out->explanation.back() == '}') {
    out->explanation.pop_back();
    out->explanation += ",\"judge\":{" + std::string(judged) + "}}";
  }
}

void OnlineStrategy::Assess(const CrawlTask& task, const ParsedPage& page,
                            PageAssessment* out) {
  out->links.assign(page.links.size(), {});
  PageScore ps = page_scorer_->Score(page);
  out->relevance = ps.relevance;
  out->explanation = ps.ExplanationJson();
  JudgePage(page, ps, out);
  const double parent_judged = out->relevance;
  const std::string_view parent_host = UrlHost(task.url);
  std::vector<std::pair<UrlId, LinkSide>> sides;
  sides.reserve(page.links.size());
  std::vector<HashedFeature> x;
  std::vector<std::string> names, context_words;
  double best_q = 0;
  {
    std::shared_lock<std::shared_mutex> lock(model_mu_);
    for (size_t i = 0; i < page.links.size(); ++i) {
      const Outlink& link = page.links[i];
      if (link.url.empty()) continue;
      const double prior = Prior(link, ps.relevance);
      LinkSide side = MakeSide(link, parent_host, parent_judged, prior, &context_words);
      LinkInput in{link.url, link.anchor, task.depth + 1, &side, &context_words, link.block};
      featurizer_.Build(in, &x, &names);
      const Scored s = ScoreLocked(x, prior, link.url, side.block_group);
      best_q = std::max(best_q, s.q);
      out->links[i].score = s.score;
      out->links[i].explanation = Explain(s, prior, x, names);
      sides.emplace_back(DedupId(link.url, dedup_ignore_scheme_), side);
    }
  }
  std::lock_guard<std::mutex> lock(side_mu_);
  page_value_[task.url_id] = best_q;
  for (auto& [id, side] : sides) {
    if (side_.size() >= params_.max_side_links && !side_.contains(id)) {
      side_dropped_.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    side_.try_emplace(id, side);
  }
}

void OnlineStrategy::Learn(const CrawlTask& task, double reward) {
  LinkSide side;
  bool has_side = false;
  double below = 0;
  {
    std::lock_guard<std::mutex> lock(side_mu_);
    if (auto it = side_.find(task.url_id); it != side_.end()) {
      side = it->second;
      has_side = true;
      side_.erase(it);
    }
    if (auto it = page_value_.find(task.url_id); it != page_value_.end()) {
      below = it->second;
      page_value_.erase(it);
    }
  }
  std::unique_lock<std::shared_mutex> lock(model_mu_);
  if (has_side) {
    // The features as the link had them when it was chosen (yields before
    // this page's outcome).
    std::vector<HashedFeature> x;
    featurizer_.Build({task.url, task.anchor, task.depth, &side, nullptr, {}}, &x);
    const double y = std::min(1.0, reward + params_.gamma * below);
    model_.Update(x, Logit(std::clamp(side.prior / 65535.0, 0.01, 0.99)), y);
    if (side.block_group != 0) bandit_.Observe(side.block_group, reward);
  }
  bandit_.Observe(DirectoryGroup(task.url), reward);
  bandit_.Observe(DirectoryGroup(task.url, 1), reward);
}

void OnlineStrategy::OnPageStored(const CrawlTask& task, PageId /*id*/,
                                  const ParsedPage& /*page*/, const PageAssessment& assessment,
                                  Frontier* frontier) {
  Learn(task, Reward(assessment.relevance));
  ++pages_;
  const int interval =
      std::max<int>(params_.rescore_every, static_cast<int>(frontier->Queued() / 200));
  if (++pages_since_rescore_ >= interval) RescoreQueue(frontier);
}

double OnlineStrategy::ScoreQueued(std::string_view url, std::string_view anchor,
                                   uint32_t depth) const {
  std::lock_guard<std::mutex> side_lock(side_mu_);
  std::shared_lock<std::shared_mutex> lock(model_mu_);
  auto it = side_.find(DedupId(url, dedup_ignore_scheme_));
  if (it == side_.end()) return -1;
  std::vector<HashedFeature> x;
  featurizer_.Build({url, anchor, depth, &it->second, nullptr, {}}, &x);
  return ScoreLocked(x, it->second.prior / 65535.0, url, it->second.block_group).score;
}

void OnlineStrategy::RescoreQueue(Frontier* frontier) {
  const auto t0 = std::chrono::steady_clock::now();
  pages_since_rescore_ = 0;
  const uint16_t gen = static_cast<uint16_t>(generation_.load() + 1);
  generation_.store(gen);
  std::lock_guard<std::mutex> side_lock(side_mu_);
  std::shared_lock<std::shared_mutex> lock(model_mu_);
  std::vector<HashedFeature> x;
  frontier->RescoreAll([&](const QueuedLinkView& v) {
    auto it = side_.find(v.url_id);
    if (it == side_.end()) return v.score;
    it->second.generation = gen;
    featurizer_.Build({v.url, v.anchor, v.depth, &it->second, nullptr, {}}, &x);
    return ScoreLocked(x, it->second.prior / 65535.0, v.url, it->second.block_group).score;
  });
  // Entries of links that were never queued (found again after their fetch)
  // or left the queue otherwise: not touched by this pass nor recorded since
  // the previous one.
  const uint16_t keep_from = static_cast<uint16_t>(gen - 1);
  absl::erase_if(side_, [&](const auto& kv) {
    const uint16_t g = kv.second.generation;
    return g != gen && g != keep_from;
  });
  ++rescores_;
  rescore_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

size_t OnlineStrategy::MemoryBytes() const {
  std::lock_guard<std::mutex> lock(side_mu_);
  return model_.MemoryBytes() + bandit_.MemoryBytes() + (judge_ ? judge_->MemoryBytes() : 0) +
         side_.capacity() * (sizeof(UrlId) + sizeof(LinkSide) + 1) +
         page_value_.capacity() * (sizeof(UrlId) + sizeof(double) + 1);
}

Status OnlineStrategy::Finish() {
  if (out_dir_.empty()) return Status::Ok();
  Status df = relevance_->df().WriteSnapshot(out_dir_ + "/df.tsv");
  std::ofstream stats(out_dir_ + "/online_stats.json");
  size_t side_size;
  {
    std::lock_guard<std::mutex> lock(side_mu_);
    side_size = side_.size();
  }
  stats << "{\"pages\":" << pages_ << ",\"updates\":" << model_.updates()
        << ",\"groups\":" << bandit_.size() << ",\"side_links\":" << side_size
        << ",\"side_dropped\":" << side_dropped_.load()
        << ",\"judge_positives\":" << (judge_ ? judge_->positives() : 0)
        << ",\"judge_negatives\":" << (judge_ ? judge_->negatives() : 0) << ",\"rescores\":" << rescores_
        << ",\"rescore_seconds\":" << rescore_seconds_
        << ",\"model_bytes\":" << MemoryBytes() << "}\n";
  if (!stats) return Status::Error("cannot write " + out_dir_ + "/online_stats.json");
  return df;
}

}  // namespace topicrawl
