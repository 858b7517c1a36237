#include "strategies/baselines/topic_strategy.h"

#include <algorithm>

#include "core/hash.h"
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
                             const StrategyContext& context)
    : name_(std::move(name)),
      selector_(std::move(selector)),
      relevance_(std::move(relevance)),
      link_scorer_(std::move(link_scorer)),
      rng_seed_(context.rng_seed),
      out_dir_(context.out_dir),
      dedup_ignore_scheme_(context.dedup_ignore_scheme) {
  if (relevance_) page_scorer_ = std::make_unique<RelevancePageScorer>(relevance_);
}

StatusOr<std::unique_ptr<LinkSelector>> TopicStrategy::MakeSelector() {
  LinkSelectorOptions options;
  options.seed = rng_seed_;
  auto selector = MakeLinkSelector(selector_, options);
  if (!selector.ok()) {
    return Status::Error("strategy '" + name_ + "': " + selector.status().message());
  }
  return std::move(selector).value();
}

UrlId TopicStrategy::Dedup(std::string_view canonical_url) const {
  return DedupId(canonical_url, dedup_ignore_scheme_);
}

StrategyTraits TopicStrategy::Traits() const {
  StrategyTraits t;
  if (relevance_) t.beta = relevance_->topic().beta;
  t.focus_gated = selector_ == "best-first";
  t.link_contexts = link_scorer_ ? link_scorer_->NeededContexts() : LinkContextNeeds{false, false};
  return t;
}

Strategy ComposeTopicStrategy(std::shared_ptr<TopicStrategy> strategy) {
  const std::string name = strategy->Name();
  const StrategyTraits traits = strategy->Traits();
  return ComposeStrategy(name, traits, std::move(strategy));
}

Status TopicStrategy::Finish() {
  // Every strategy with a topic writes df.tsv (README: "every crawl").
  if (!relevance_ || out_dir_.empty()) return Status::Ok();
  return relevance_->df().WriteSnapshot(out_dir_ + "/df.tsv");
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
      PutCarry(Dedup(page.links[i].url), ls.carry);
    }
  }
}

// Section "topic", version 1:
//   u64 Hash64 of the topic's terms (a resume with another topic is refused)
//   bool has_df; [i64 D, u64 n, n x (str term, i64 D_i)]      sorted by term
//   bool uses_carry; [u64 n, n x (u64 url_id, f64 inherited, i64 depth_left)]
//                                                            sorted by url_id
// then the subclass's section (SaveMore).
namespace {
constexpr uint32_t kTopicSectionVersion = 1;

uint64_t TopicFingerprint(const TopicRelevance* rel) {
  if (!rel) return 0;
  std::string joined;
  for (const std::string& t : rel->vector().terms) joined += t + '\n';
  return Hash64(joined);
}
}  // namespace

Status TopicStrategy::SaveState(std::string* blob) const {
  StateWriter w;
  w.Section("topic", kTopicSectionVersion);
  w.U64(TopicFingerprint(relevance_.get()));
  w.Bool(relevance_ != nullptr);
  if (relevance_) {
    std::vector<std::pair<std::string, int64_t>> counts;
    w.I64(relevance_->df().Counts(&counts));
    w.U64(counts.size());
    for (const auto& [term, n] : counts) {
      w.Str(term);
      w.I64(n);
    }
  }
  w.Bool(uses_carry_);
  if (uses_carry_) {
    std::vector<std::pair<UrlId, LinkCarry>> carries;
    {
      std::lock_guard<std::mutex> lock(carry_mu_);
      carries.assign(carry_.begin(), carry_.end());
    }
    std::sort(carries.begin(), carries.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    w.U64(carries.size());
    for (const auto& [id, c] : carries) {
      w.U64(id);
      w.F64(c.inherited);
      w.I64(c.depth_left);
    }
  }
  SaveMore(&w);
  *blob = w.Take();
  return Status::Ok();
}

Status TopicStrategy::RestoreState(std::string_view blob) {
  if (blob.empty()) return Status::Ok();
  StateReader r(blob);
  uint32_t version = 0;
  if (Status s = r.Section("topic", kTopicSectionVersion, &version); !s.ok()) return s;
  uint64_t fingerprint = 0;
  bool has_df = false, has_carry = false;
  if (!r.U64(&fingerprint, "topic fingerprint") || !r.Bool(&has_df, "has_df")) {
    return r.status();
  }
  if (fingerprint != TopicFingerprint(relevance_.get()) || has_df != (relevance_ != nullptr)) {
    return Status::Error(
        "the saved state was learned for another topic (its terms differ from this "
        "crawl's --topic)");
  }
  if (has_df) {
    int64_t documents = 0;
    uint64_t n = 0;
    if (!r.I64(&documents, "D") || !r.Count(&n, 16, "document frequencies")) {
      return r.status();
    }
    std::vector<std::pair<std::string, int64_t>> counts(n);
    for (auto& [term, di] : counts) {
      if (!r.Str(&term, "term") || !r.I64(&di, "D_i")) return r.status();
      if (di < 0 || di > documents) return Status::Error("topic: D_i out of range for " + term);
    }
    if (documents < 0) return Status::Error("topic: negative document count");
    relevance_->df().SetCounts(documents, counts);
  }
  if (!r.Bool(&has_carry, "uses_carry")) return r.status();
  if (has_carry != uses_carry_) {
    return Status::Error("topic: saved state has " + std::string(has_carry ? "" : "no ") +
                         "Shark-search carries, this strategy " +
                         (uses_carry_ ? "uses" : "does not use") + " them");
  }
  if (has_carry) {
    uint64_t n = 0;
    if (!r.Count(&n, 24, "carries")) return r.status();
    absl::flat_hash_map<UrlId, LinkCarry> carries;
    carries.reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t id;
      LinkCarry c;
      int64_t depth;
      if (!r.U64(&id, "carry url_id") || !r.F64(&c.inherited, "carry inherited") ||
          !r.I64(&depth, "carry depth")) {
        return r.status();
      }
      c.depth_left = static_cast<int>(depth);
      carries[id] = c;
    }
    std::lock_guard<std::mutex> lock(carry_mu_);
    carry_ = std::move(carries);
  }
  if (Status s = RestoreMore(&r); !s.ok()) return s;
  if (!r.status().ok()) return r.status();
  if (!r.AtEnd()) {
    return Status::Error(std::to_string(r.remaining()) +
                         " unexpected bytes after the saved state");
  }
  return Status::Ok();
}

}  // namespace topicrawl
