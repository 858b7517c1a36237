#include "scoring/relevance_scorer.h"

namespace topicrawl {

std::string PageText(const ParsedPage& page) {
  std::string text;
  text.reserve(page.title.size() + page.text.size() + 1);
  text += page.title;
  text += '\n';
  text += page.text;
  return text;
}

PageScore RelevancePageScorer::Score(const ParsedPage& page) const {
  std::vector<std::string> tokens = relevance_->Tokenize(PageText(page));
  CosineResult cos = relevance_->ScorePage(tokens, observe_);
  PageScore score;
  score.relevance = cos.cosine;
  score.total_terms = cos.total_terms;
  score.terms = std::move(cos.terms);
  return score;
}

}  // namespace topicrawl
