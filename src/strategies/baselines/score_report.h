// `topicrawl score FILE.html --topic T`: one saved page scored by hand as a
// crawl would score it, as a report: the page's R(P) (seed 000 eq. 3-4)
// with the contributing topic terms, then the first outlinks' scores with
// their parts (eq. 5, or Shark-search).
//
// Document frequencies: with df_from, the snapshot a crawl wrote (DIR/df.tsv,
// or the named file; DocumentFrequencies::WriteSnapshot) is used as is and
// the page is not added to it. Without it the page is scored exactly as the
// first page of a crawl: D = 1 after observing it, so every IDF is clamped to
// the same floor and R(P) is the cosine between the topic weights and the
// page's term frequencies (text/tfidf.h).
#ifndef TOPICRAWL_STRATEGIES_BASELINES_SCORE_REPORT_H_
#define TOPICRAWL_STRATEGIES_BASELINES_SCORE_REPORT_H_

#include <cstdio>
#include <string>

#include "core/status.h"
#include "text/topic.h"

namespace topicrawl {

struct ScoreReportOptions {
  std::string file;         // the page's file (its name is reported, and makes the default base)
  std::string base;         // URL the page was served at; "" = http://localhost/<file name>
  std::string df_from;      // crawl directory or df.tsv; "" = none
  std::string link_scorer = "relevance";  // or "shark-search"
  int links = 20;           // outlinks reported
};

// Writes the report of `html` to `out` and the topic's warnings
// ("score: warning: ...") to `warnings`. Errors: an unreadable df snapshot,
// a topic the scorers refuse.
Status WriteScoreReport(const Topic& topic, const std::string& html, const ScoreReportOptions& options,
                        std::FILE* out, std::FILE* warnings);

// `s` cut to at most max_bytes on a UTF-8 boundary, with "…" when cut.
std::string ClipUtf8(std::string s, size_t max_bytes);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_BASELINES_SCORE_REPORT_H_
