// TopicRelevance: the shared engine of seed 000 eq. 3-4 for one topic —
// a tokeniser that keeps the topic terms and dictionary words whole, the
// topic vector W_TK in the tokeniser's normal form, and the crawl's
// document frequencies. Page and link scorers share one instance.
//
// Thread-safe: all methods are const; Observe() updates the (internally
// synchronised) DocumentFrequencies.
#ifndef TOPICRAWL_SCORING_TOPIC_RELEVANCE_H_
#define TOPICRAWL_SCORING_TOPIC_RELEVANCE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "text/tfidf.h"
#include "text/tokenizer.h"
#include "text/topic.h"

namespace topicrawl {

struct TopicRelevanceOptions {
  // Tokeniser settings; the topic's keywords and dictionary are added to
  // its user words.
  TokenizerOptions tokenizer;
  // Lower clamp of lg(D / (1 + D_i)) (see text/tfidf.h).
  double min_idf = 0.01;
  // What a page contributes to D_i: false (default) counts only the topic
  // terms it contains — all that eq. 4 reads, and cheap; true counts every
  // distinct token (a full DF table, e.g. for snapshots used with other
  // topics).
  bool observe_all_terms = false;
};

class TopicRelevance {
 public:
  // `df` may be shared with other components (or loaded from a snapshot);
  // null creates a fresh, empty one.
  static StatusOr<std::shared_ptr<TopicRelevance>> Create(
      const Topic& topic, const TopicRelevanceOptions& options = {},
      std::shared_ptr<DocumentFrequencies> df = nullptr);

  std::vector<std::string> Tokenize(std::string_view text) const;
  // Eq. 3-4 for a page: when `observe`, first counts it in D / D_i (see
  // observe_all_terms), then scores it with the updated statistics.
  CosineResult ScorePage(const std::vector<std::string>& tokens,
                         bool observe) const;
  // Eq. 3-4 for tokens / for text, with the current statistics; does not
  // observe.
  CosineResult Cosine(const std::vector<std::string>& tokens) const;
  CosineResult Cosine(std::string_view text) const;

  const Topic& topic() const { return topic_; }
  const TopicVector& vector() const { return vector_; }
  const Tokenizer& tokenizer() const { return *tokenizer_; }
  DocumentFrequencies& df() const { return *df_; }
  // Problems found with the topic that do not stop a crawl, e.g. a keyword
  // that can never match because it tokenises into several tokens or is a
  // stop word.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  TopicRelevance() = default;

  Topic topic_;
  TopicRelevanceOptions options_;
  TopicVector vector_;
  std::unique_ptr<Tokenizer> tokenizer_;
  std::shared_ptr<DocumentFrequencies> df_;
  std::vector<std::string> warnings_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_SCORING_TOPIC_RELEVANCE_H_
