// `topicrawl score FILE.html --topic T --scorer sdtp`: the parts of seed
// 002's Sim(p) (strategies/tda/sdtp_scorer.h) for one saved page, as a
// report: StaticSim with its ontology terms, DynamicSim (with the word
// vectors and DSV of a tda crawl), the combination and contradictions.
#ifndef TOPICRAWL_STRATEGIES_TDA_SDTP_REPORT_H_
#define TOPICRAWL_STRATEGIES_TDA_SDTP_REPORT_H_

#include <cstdio>
#include <string>

#include "core/status.h"
#include "text/topic.h"

namespace topicrawl {

struct SdtpReportOptions {
  std::string file;  // the page's file (reported; its name makes the default base)
  std::string base;  // URL the page was served at; "" = http://localhost/<file name>
  // A tda crawl directory (tda-vectors.bin + tda-dsv.tsv); "" = the topic's
  // [strategy.tda] vectors, none when that is empty too (DynamicSim off).
  std::string vectors;
};

// Writes the report of `html` to `out`. Errors: bad [strategy.tda] keys, a
// topic without terms, unreadable vectors or DSV.
Status WriteSdtpReport(const Topic& topic, const std::string& html, const SdtpReportOptions& options,
                       std::FILE* out);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_TDA_SDTP_REPORT_H_
