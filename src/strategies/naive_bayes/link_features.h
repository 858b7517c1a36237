// Features of a link for the seed-001 classifier (001_596420367c7d3764 §3.1,
// §4.2), from its anchor text and its context (Outlink::context: the seed's
// heuristic — anchors of the neighbouring links inside a window, else the
// nearby text; parse/html_parser.h):
//
//   group 1: the words of the anchor                      "a:<word>"
//   group 2: the words of the anchor                      "a:<word>"
//            the words of the context                     "c:<word>"
//            does the anchor contain a dictionary term?   "dict_a=1" | "dict_a=0"
//            does the context contain one?                "dict_c=1" | "dict_c=0"
//
// Anchor and context words are different features (a word in the anchor
// says more than the same word next to it). The two yes/no questions are
// always answered, so both answers can carry evidence under the seed's
// presence-only eq. 1 (naive_bayes.h). Words come from the project's zh/en
// tokeniser (text/tokenizer.h) with the domain dictionary as user words, so
// dictionary terms stay whole.
//
// Thread-safety: a LinkFeatureExtractor is immutable; all methods are const
// and thread-safe.
#ifndef TOPICRAWL_STRATEGIES_NAIVE_BAYES_LINK_FEATURES_H_
#define TOPICRAWL_STRATEGIES_NAIVE_BAYES_LINK_FEATURES_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "text/tokenizer.h"
#include "text/topic.h"
#include "text/utf8_util.h"

namespace topicrawl {

// The tokenised parts of one link, from which any feature group is built.
struct LinkTokens {
  std::vector<std::string> anchor;
  std::vector<std::string> context;
  bool anchor_has_dict = false;
  bool context_has_dict = false;
};

// Feature group 1 or 2 (see above). Other groups are treated as 2.
std::vector<std::string> LinkFeatures(const LinkTokens& tokens, int group);

// The link as a bag of page words (anchor + context, no prefixes): how the
// page-trained classifier of §4.2 / table 2 sees a link ("these feature words
// are treated as words occurring in a page").
std::vector<std::string> LinkAsPageWords(const LinkTokens& tokens);

class LinkFeatureExtractor {
 public:
  // `dictionary`: domain terms (the topic file's `dictionary`, else its
  // keywords). `base` supplies the tokeniser settings; the dictionary is
  // added to its user words. Errors: the tokeniser's.
  static StatusOr<std::unique_ptr<LinkFeatureExtractor>> Create(
      const std::vector<std::string>& dictionary, TokenizerOptions base = {});

  LinkTokens Tokenize(std::string_view anchor, std::string_view context) const;
  // Words of a page (title + text) for the page classifier.
  std::vector<std::string> PageWords(std::string_view text) const;
  // True when `tokens` hold a dictionary term (Latin terms match whole
  // tokens), or the normalised `text` contains a Chinese or multi-word term
  // (the segmenter may keep a longer word whole: 网络协议 holds 协议).
  bool HasDictionaryTerm(const std::vector<std::string>& tokens,
                         std::string_view text) const;

  const Tokenizer& tokenizer() const { return *tokenizer_; }
  const std::vector<std::string>& dictionary() const { return dictionary_; }

 private:
  LinkFeatureExtractor() = default;

  std::unique_ptr<Tokenizer> tokenizer_;
  std::vector<std::string> dictionary_;      // as given
  StringSet terms_;                       // normalised Latin single-token terms
  std::vector<std::string> text_terms_;   // Chinese or multi-token terms
};

// The domain dictionary of a topic for link features: its keywords and its
// `dictionary` terms (in that order, without repeats).
std::vector<std::string> FeatureDictionary(const Topic& topic);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_NAIVE_BAYES_LINK_FEATURES_H_
