// Features of seed 004's result-page classifier (004_d65f8d41b01a9f7d §3.1):
// is a relevant page a DetailPage (text-rich: a result) or a LinkPage (a
// hub of links: to be expanded)? The seed's triple
//
//   TextDegree  = log2(plainTexts / k)       plainTexts = words of the page
//                                            minus the words of its anchors;
//                                            k an empirical constant (100)
//   LinkDegree  = log2(linknums / TotalWords)   links per word of the page
//   Aggregation = "from the count and size of the text blocks": here
//                 F * log2(1 + B), B = blocks of >= min_block_words words,
//                 F = share of the page's words inside such blocks
//                 (0 for a page of short lines and menus; grows with long
//                 paragraphs, slowly with their number)
//
// Word counts: a Latin/number run is one word, each Han/Kana/Hangul
// character one word (no segmenter: the features only need sizes, and the
// SVM is trained per web). Counts of zero are taken as 1 inside the logs.
//
// Labels on our benchmark webs (`topicrawl label result-pages`, the rule
// the SVM is trained on): a page is a LinkPage (label 0) when its URL names
// an index, table of contents or listing (file name index, contents, toc,
// genindex*, modindex, py-modindex, search, sitemap, bookindex, *-index,
// directory URLs ending in '/'), else a DetailPage (label 1). The rule reads
// only the URL, not the three features, so the SVM is not trained on its
// own inputs.
#ifndef TOPICRAWL_STRATEGIES_JLSE_RESULT_PAGE_FEATURES_H_
#define TOPICRAWL_STRATEGIES_JLSE_RESULT_PAGE_FEATURES_H_

#include <array>
#include <string>
#include <string_view>

#include "core/crawl_task.h"

namespace topicrawl {

struct ResultPageFeatureOptions {
  double k = 100;            // TextDegree's constant
  int min_block_words = 20;  // a "text block" for Aggregation
};

struct ResultPageFeatures {
  double text_degree = 0;
  double link_degree = 0;
  double aggregation = 0;
  // The raw counts (for explanations and tests).
  int total_words = 0;
  int plain_words = 0;
  int links = 0;
  int big_blocks = 0;
  std::array<double, 3> vector() const { return {text_degree, link_degree, aggregation}; }
};

// Word units of a UTF-8 text (see above).
int CountWordUnits(std::string_view utf8);

ResultPageFeatures ComputeResultPageFeatures(const ParsedPage& page,
                                             const ResultPageFeatureOptions& options = {});

// The URL rule above: true = DetailPage.
bool IsDetailPageUrl(std::string_view url);

// Until an SVM model is given: the fallback decision of the jlse strategy, a
// DetailPage has TextDegree >= 0 (>= k plain words) and LinkDegree <= -3
// (at most one link per 8 words). Documented in docs/strategies/jlse.md.
bool IsDetailPageByRule(const ResultPageFeatures& f);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_JLSE_RESULT_PAGE_FEATURES_H_
