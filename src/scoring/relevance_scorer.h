// RelevancePageScorer: R(P) of seed 000 (000_b5a9e3e8aba53bab), eq. 3-4.
//
// The page text is the title followed by the visible text blocks
// (ParsedPage::title + ParsedPage::text). Headings are NOT added again: the
// parser already includes h1..h6 in text_blocks, so adding
// ParsedPage::headings would count them twice. Meta description/keywords
// are not visible text and are left out (the seed scores "网页文本").
//
// Each scored page is first counted in the crawl's document frequencies
// (D += 1, D_i += 1 for its terms), then weighted with eq. 3 and compared
// with the topic by eq. 4. Observing first keeps D >= 1 (the first page of
// a crawl would otherwise divide by zero) — see text/tfidf.h for the IDF
// clamp that applies while D is small.
#ifndef TOPICRAWL_SCORING_RELEVANCE_SCORER_H_
#define TOPICRAWL_SCORING_RELEVANCE_SCORER_H_

#include <memory>
#include <string>

#include "scoring/scorer.h"
#include "scoring/topic_relevance.h"

namespace topicrawl {

// The text RelevancePageScorer scores: title + "\n" + text.
std::string PageText(const ParsedPage& page);

class RelevancePageScorer : public PageScorer {
 public:
  // `observe`: count each scored page in the document frequencies (true
  // during a crawl; false to score against fixed statistics, e.g. a
  // snapshot).
  explicit RelevancePageScorer(std::shared_ptr<const TopicRelevance> relevance,
                               bool observe = true)
      : relevance_(std::move(relevance)), observe_(observe) {}

  PageScore Score(const ParsedPage& page) const override;

 private:
  std::shared_ptr<const TopicRelevance> relevance_;
  bool observe_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_SCORING_RELEVANCE_SCORER_H_
