// "nb-link": the Naive-Bayes-guided crawler of seed 001
// (001_596420367c7d3764 §3.1, algorithm 1).
//
//   * Every outlink is scored before download by P(+ | features) of a link
//     classifier trained on automatically labelled links (`topicrawl train
//     link-nb`; features: strategies/naive_bayes/link_features.h, model:
//     classify/naive_bayes.h).
//   * The frontier is ordered by that score, highest first (the best-first
//     selector: a global heap, so no Sort(Frontier) of the whole queue).
//   * A link found again while still queued keeps the HIGHER of its old and
//     new score and moves in the queue accordingly (algorithm 1: "if
//     (OldScore < Score) UpdateScore; Sort"): the trait
//     keep_max_on_duplicate makes the frontier re-key it in place, O(log n).
//   * R(P) of a page stays the topic relevance (seed 000 eq. 3-4), so every
//     strategy is evaluated alike; when a page model is configured its
//     verdict P(+ | page) — the seed's automatic judge (§4.3.2) — is added to
//     the page explanation as "nb_page".
//
// Topic file:
//   [strategy.nb-link]
//   model = "networking-link.nb.json"     # required; relative to the topic file
//   page_model = "networking-page.nb.json"  # optional
//   min_score = 0.0    # links with P(+) below it are recorded but not queued
#include <cstdio>
#include <filesystem>
#include <memory>

#include "classify/naive_bayes.h"
#include "strategies/baselines/topic_strategy.h"
#include "strategies/naive_bayes/link_features.h"
#include "strategies/naive_bayes/nb_link_strategy.h"
#include "text/topic.h"

namespace topicrawl {
namespace {

constexpr char kName[] = "nb-link";

// Scores a link by the link classifier. Thread-safe (immutable).
class NbLinkScorer : public LinkScorer {
 public:
  NbLinkScorer(std::shared_ptr<const NaiveBayes> model,
               std::shared_ptr<const LinkFeatureExtractor> features, double min_score)
      : model_(std::move(model)), features_(std::move(features)), min_score_(min_score) {}

  // Seed 001's features: anchor and the text-window context.
  LinkContextNeeds NeededContexts() const override { return {true, false}; }

  LinkScore Score(const Outlink& link, const LinkParent& /*parent*/) const override {
    LinkTokens tokens = features_->Tokenize(link.anchor, link.context);
    NbScore s = model_->Score(LinkFeatures(tokens, model_->feature_group));
    LinkScore out;
    out.score = s.p_positive;
    out.admit = s.p_positive >= min_score_;
    out.parts = {{"nb", s.p_positive}};
    char buf[160];
    std::snprintf(buf, sizeof(buf),
                  "{\"s\":%.6g,\"parts\":{\"nb\":%.6g},\"lp\":%.4f,\"ln\":%.4f,"
                  "\"known\":%d,\"unknown\":%d}",
                  s.p_positive, s.p_positive, s.log_positive, s.log_negative, s.known,
                  s.unknown);
    out.explanation = buf;
    return out;
  }

 private:
  std::shared_ptr<const NaiveBayes> model_;
  std::shared_ptr<const LinkFeatureExtractor> features_;
  double min_score_;
};

class NbLinkStrategy : public TopicStrategy {
 public:
  NbLinkStrategy(std::shared_ptr<TopicRelevance> relevance, std::unique_ptr<LinkScorer> scorer,
                 const StrategyContext& context, std::shared_ptr<const NaiveBayes> page_model,
                 std::shared_ptr<const LinkFeatureExtractor> page_words)
      : TopicStrategy(kName, "best-first", std::move(relevance), std::move(scorer), context),
        page_model_(std::move(page_model)),
        page_words_(std::move(page_words)) {}

  StrategyTraits Traits() const override {
    StrategyTraits t = TopicStrategy::Traits();
    t.keep_max_on_duplicate = true;
    return t;
  }

  void Assess(const CrawlTask& task, const ParsedPage& page, PageAssessment* out) override {
    TopicStrategy::Assess(task, page, out);
    if (!page_model_) return;
    NbScore s = page_model_->Score(page_words_->PageWords(page.title + "\n" + page.text));
    char buf[48];
    std::snprintf(buf, sizeof(buf), "\"nb_page\":%.6g", s.p_positive);
    // The explanation is a compact JSON object; add the judge's verdict.
    if (out->explanation.size() >= 2 && out->explanation.front() == '{') {
      out->explanation.insert(1, std::string(buf) + (out->explanation.size() > 2 ? "," : ""));
    } else {
      out->explanation = std::string("{") + buf + "}";
    }
  }

 private:
  std::shared_ptr<const NaiveBayes> page_model_;
  std::shared_ptr<const LinkFeatureExtractor> page_words_;
};

// A model path from the topic file, relative to the topic file's directory.
std::string ResolveNextTo(const std::string& topic_file, const std::string& path) {
  std::filesystem::path p(path);
  if (p.is_absolute() || topic_file.empty()) return path;
  return (std::filesystem::path(topic_file).parent_path() / p).string();
}

StatusOr<std::shared_ptr<const NaiveBayes>> LoadModel(const std::string& path,
                                                      NbModelKind kind,
                                                      const char* key) {
  auto m = NaiveBayes::Load(path);
  if (!m.ok()) {
    return Status::Error(std::string(kName) + ": " + key + ": " + m.status().message());
  }
  if (m->kind() != kind) {
    return Status::Error(std::string(kName) + ": " + key + " " + path + " is a " +
                         std::string(NbModelKindName(m->kind())) + " model, expected a " +
                         std::string(NbModelKindName(kind)) + " model");
  }
  return std::shared_ptr<const NaiveBayes>(
      std::make_shared<NaiveBayes>(std::move(m).value()));
}

}  // namespace

StatusOr<Strategy> NewNbLinkStrategy(const StrategyContext& context) {
  auto rel = TopicStrategy::LoadRelevance(context, /*require_topic=*/true);
  if (!rel.ok()) return rel.status();
  const Topic& topic = (*rel)->topic();
  const StrategyParams& params = topic.Strategy(kName);
  auto unknown = params.UnknownKeys({"model", "page_model", "min_score"});
  if (!unknown.empty()) {
    return Status::Error(context.topic_file + ": [strategy.nb-link]: unknown key '" +
                         unknown.front() + "' (known: model, page_model, min_score)");
  }
  auto model_path = params.String("model", "");
  if (!model_path.ok()) return model_path.status();
  if (model_path->empty()) {
    return Status::Error(
        "nb-link needs a link classifier: set [strategy.nb-link] model = \"FILE\" in the "
        "topic file " + context.topic_file + " (train one with `topicrawl train link-nb`)");
  }
  auto min_score = params.Number("min_score", 0.0);
  if (!min_score.ok()) return min_score.status();
  auto model = LoadModel(ResolveNextTo(context.topic_file, *model_path), NbModelKind::kLink,
                         "model");
  if (!model.ok()) return model.status();
  auto features = LinkFeatureExtractor::Create((*model)->dictionary);
  if (!features.ok()) return features.status();
  auto scorer = std::make_unique<NbLinkScorer>(
      *model, std::shared_ptr<const LinkFeatureExtractor>(std::move(features).value()),
      *min_score);

  std::shared_ptr<const NaiveBayes> page_model;
  std::shared_ptr<const LinkFeatureExtractor> page_words;
  auto page_path = params.String("page_model", "");
  if (!page_path.ok()) return page_path.status();
  if (!page_path->empty()) {
    auto pm = LoadModel(ResolveNextTo(context.topic_file, *page_path), NbModelKind::kPage,
                        "page_model");
    if (!pm.ok()) return pm.status();
    page_model = *pm;
    auto pw = LinkFeatureExtractor::Create(page_model->dictionary);
    if (!pw.ok()) return pw.status();
    page_words = std::move(pw).value();
  }
  return ComposeTopicStrategy(std::make_shared<NbLinkStrategy>(
      *rel, std::move(scorer), context, std::move(page_model),
      std::move(page_words)));
}

}  // namespace topicrawl
