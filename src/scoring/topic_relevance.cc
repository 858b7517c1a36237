#include "scoring/topic_relevance.h"

namespace topicrawl {

StatusOr<std::shared_ptr<TopicRelevance>> TopicRelevance::Create(
    const Topic& topic, const TopicRelevanceOptions& options,
    std::shared_ptr<DocumentFrequencies> df) {
  if (topic.keywords.empty()) {
    return Status::Error("topic " + topic.name + " has no keywords");
  }
  std::shared_ptr<TopicRelevance> r(new TopicRelevance());
  r->topic_ = topic;
  r->options_ = options;
  // Topic terms and dictionary words stay whole in page text (风暴潮 must
  // not become 风暴 + 潮, or it could never match).
  TokenizerOptions tok = options.tokenizer;
  for (const TopicKeyword& k : topic.keywords) tok.user_words.push_back({k.term, 0});
  for (const std::string& w : topic.dictionary) tok.user_words.push_back({w, 0});
  auto tokenizer = Tokenizer::Create(tok);
  if (!tokenizer.ok()) return tokenizer.status();
  r->tokenizer_ = std::move(*tokenizer);
  for (const TopicKeyword& k : topic.keywords) {
    std::string term = r->tokenizer_->NormalizeTerm(k.term);
    std::vector<std::string> tokens = r->tokenizer_->Tokenize(k.term);
    if (tokens.size() != 1 || tokens[0] != term) {
      std::string got;
      for (const auto& t : tokens) got += (got.empty() ? "" : " ") + t;
      r->warnings_.push_back("keyword `" + k.term +
                             "` never matches: page text tokenises it as [" +
                             got + "]");
    }
    r->vector_.Add(std::move(term), k.weight);
  }
  r->df_ = df ? std::move(df)
              : std::make_shared<DocumentFrequencies>(options.min_idf);
  return r;
}

std::vector<std::string> TopicRelevance::Tokenize(std::string_view text) const {
  return tokenizer_->Tokenize(text);
}

CosineResult TopicRelevance::ScorePage(const std::vector<std::string>& tokens,
                                       bool observe) const {
  TopicCounts counts = CountTopicTerms(vector_, tokens);
  if (observe) {
    df_->ObserveDocument(options_.observe_all_terms
                             ? tokens
                             : DistinctTopicTerms(vector_, counts));
  }
  return TopicCosine(vector_, counts, *df_);
}

CosineResult TopicRelevance::Cosine(
    const std::vector<std::string>& tokens) const {
  return TopicCosine(vector_, tokens, *df_);
}

CosineResult TopicRelevance::Cosine(std::string_view text) const {
  return Cosine(tokenizer_->Tokenize(text));
}

}  // namespace topicrawl
