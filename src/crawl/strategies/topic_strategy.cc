#include "crawl/strategies/topic_strategy.h"

#include "crawl/dedup.h"
#include "frontier/link_selector.h"
#include "scoring/relevance_scorer.h"
#include "text/topic.h"

namespace topicrawl {

StatusOr<std::shared_ptr<TopicRelevance>> TopicStrategy::LoadRelevance(
    const StrategyContext& context, bool require_topic) {
  if (context.topic_file.empty()) {
    if (require_topic) {
      return Status::Error("this strategy needs a topic: pass --topic FILE");
    }
    return std::shared_ptr<TopicRelevance>();
  }
  auto topic = LoadTopicFile(context.topic_file);
  if (!topic.ok()) return topic.status();
  auto rel = TopicRelevance::Create(*topic);
  if (!rel.ok()) return rel.status();
  return std::shared_ptr<TopicRelevance>(std::move(rel).value());
}

TopicStrategy::TopicStrategy(std::string name, std::string selector,
                             std::shared_ptr<TopicRelevance> relevance,
                             std::unique_ptr<LinkScorer> link_scorer,
                             uint64_t rng_seed)
    : name_(std::move(name)),
      selector_(std::move(selector)),
      relevance_(std::move(relevance)),
      link_scorer_(std::move(link_scorer)),
      rng_seed_(rng_seed) {
  if (relevance_) page_scorer_ = std::make_unique<RelevancePageScorer>(relevance_);
}

std::unique_ptr<LinkSelector> TopicStrategy::MakeSelector() {
  LinkSelectorOptions options;
  options.seed = rng_seed_;
  auto selector = MakeLinkSelector(selector_, options);
  // The registry's names are fixed at compile time; a failure here is a bug.
  return selector.ok() ? std::move(selector).value() : NewBfsLinkSelector();
}

double TopicStrategy::Beta() const {
  return relevance_ ? relevance_->topic().beta : -1.0;
}

LinkCarry TopicStrategy::TakeCarry(UrlId url_id, const LinkCarry& fallback) {
  std::lock_guard<std::mutex> lock(carry_mu_);
  auto it = carry_.find(url_id);
  if (it == carry_.end()) return fallback;
  LinkCarry c = it->second;
  carry_.erase(it);
  return c;
}

void TopicStrategy::PutCarry(UrlId url_id, const LinkCarry& carry) {
  std::lock_guard<std::mutex> lock(carry_mu_);
  auto [it, inserted] = carry_.try_emplace(url_id, carry);
  // A URL linked from several pages keeps its best inheritance.
  if (!inserted && carry.inherited > it->second.inherited) it->second = carry;
}

void TopicStrategy::Assess(const CrawlTask& task, const ParsedPage& page,
                           PageAssessment* out) {
  out->links.assign(page.links.size(), {});
  if (!page_scorer_) return;
  PageScore ps = page_scorer_->Score(page);
  out->relevance = ps.relevance;
  out->explanation = ps.ExplanationJson();
  if (!link_scorer_) return;
  LinkParent parent;
  parent.page = &ps;
  parent.task = &task;
  if (uses_carry_) parent.carry = TakeCarry(task.url_id, seed_carry_);
  for (size_t i = 0; i < page.links.size(); ++i) {
    LinkScore ls = link_scorer_->Score(page.links[i], parent);
    auto& link = out->links[i];
    link.score = ls.score;
    link.admit = ls.admit;
    link.explanation = std::move(ls.explanation);
    if (uses_carry_ && ls.admit && !page.links[i].url.empty()) {
      PutCarry(DedupId(page.links[i].url, true), ls.carry);
    }
  }
}

}  // namespace topicrawl
