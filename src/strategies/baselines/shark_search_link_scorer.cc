#include "strategies/baselines/shark_search_link_scorer.h"

#include <nlohmann/json.hpp>

#include "scoring/explanation.h"

namespace topicrawl {
namespace {

Status InUnitRange(double v, const char* key) {
  if (v >= 0 && v <= 1) return Status::Ok();
  return Status::Error(std::string("[strategy.shark-search] ") + key +
                       " must be in [0, 1]");
}

}  // namespace

StatusOr<SharkSearchParams> SharkSearchParams::FromStrategy(
    const StrategyParams& p) {
  auto unknown = p.UnknownKeys(
      {"delta", "beta", "gamma", "depth", "relevance_threshold", "context"});
  if (!unknown.empty()) {
    return Status::Error("[strategy.shark-search] unknown key `" + unknown[0] +
                         "` (known: delta, beta, gamma, depth, "
                         "relevance_threshold, context)");
  }
  SharkSearchParams out;
  struct NumberKey { const char* key; double* value; };
  for (NumberKey k : {NumberKey{"delta", &out.delta}, {"beta", &out.beta},
                      {"gamma", &out.gamma},
                      {"relevance_threshold", &out.relevance_threshold}}) {
    auto v = p.Number(k.key, *k.value);
    if (!v.ok()) return v.status();
    Status s = InUnitRange(*v, k.key);
    if (!s.ok()) return s;
    *k.value = *v;
  }
  auto depth = p.Integer("depth", out.depth);
  if (!depth.ok()) return depth.status();
  if (*depth < 0 || *depth > 1000) {
    return Status::Error("[strategy.shark-search] depth must be in [0, 1000]");
  }
  out.depth = static_cast<int>(*depth);
  auto context = p.String("context", "context");
  if (!context.ok()) return context.status();
  if (*context != "context" && *context != "dom_context") {
    return Status::Error(
        "[strategy.shark-search] context must be \"context\" or \"dom_context\"");
  }
  out.use_dom_context = *context == "dom_context";
  return out;
}

StatusOr<std::unique_ptr<SharkSearchLinkScorer>> SharkSearchLinkScorer::Create(
    std::shared_ptr<const TopicRelevance> relevance) {
  auto params =
      SharkSearchParams::FromStrategy(relevance->topic().Strategy("shark-search"));
  if (!params.ok()) return params.status();
  return std::make_unique<SharkSearchLinkScorer>(std::move(relevance), *params);
}

LinkScore SharkSearchLinkScorer::Score(const Outlink& link,
                                       const LinkParent& parent) const {
  const double sim_parent = parent.page ? parent.page->relevance : 0.0;
  const bool relevant = sim_parent > params_.relevance_threshold;
  const int parent_depth =
      parent.carry.depth_left < 0 ? params_.depth : parent.carry.depth_left;

  LinkScore s;
  s.carry.inherited = params_.delta * (relevant ? sim_parent : parent.carry.inherited);
  s.carry.depth_left = relevant ? params_.depth : parent_depth - 1;
  s.admit = s.carry.depth_left >= 0;

  CosineResult anchor = relevance_->Cosine(link.anchor);
  double context = 1.0;
  CosineResult context_cos;
  if (anchor.cosine <= 0) {
    context_cos = relevance_->Cosine(params_.use_dom_context ? link.dom_context
                                                             : link.context);
    context = context_cos.cosine;
  }
  const double neighbourhood =
      params_.beta * anchor.cosine + (1 - params_.beta) * context;
  s.score = params_.gamma * s.carry.inherited + (1 - params_.gamma) * neighbourhood;
  s.parts = {{"inherited", s.carry.inherited},
             {"anchor", anchor.cosine},
             {"context", context},
             {"neighbourhood", neighbourhood},
             {"parent", sim_parent}};
  nlohmann::json j = ExplanationBase(s);
  j["depth_left"] = s.carry.depth_left;
  j["admit"] = s.admit;
  j["anchor_terms"] = TermsJson(anchor.terms);
  if (!context_cos.terms.empty()) j["context_terms"] = TermsJson(context_cos.terms);
  s.explanation = DumpCompact(j);
  return s;
}

}  // namespace topicrawl
