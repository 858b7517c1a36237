// Seed 001's automatic collection of labelled links (001_596420367c7d3764
// §3.2.2, "算法2"), second half: turn a finished generic (BFS) crawl into the
// labelled data directory of strategies/naive_bayes/link_dataset.h.
//
// Every stored link (the crawl's `links` table: anchor + seed-001 context)
// is labelled by the URL-prefix rule (strategies/naive_bayes/url_prefix_labeler.h) applied
// to its TARGET; every downloaded HTML page (read back from the WARC files)
// is labelled by the same rule applied to its own URL. Labelled links and
// labelled pages are each split 7:3, stratified by class, with `seed`.
//
// Duplicates: navigation repeats the same link on every page of a site;
// with `dedup` (default) a (to_url, anchor, context) triple is kept once, so
// that identical examples cannot sit on both sides of the split and inflate
// the test scores.
#ifndef TOPICRAWL_STRATEGIES_NAIVE_BAYES_CRAWL_EXPORT_H_
#define TOPICRAWL_STRATEGIES_NAIVE_BAYES_CRAWL_EXPORT_H_

#include <cstdint>
#include <functional>
#include <string>

#include "core/crawl_task.h"
#include "core/status.h"
#include "text/topic.h"

namespace topicrawl {

struct ExportOptions {
  uint64_t seed = 1;            // of the stratified splits
  double train_fraction = 0.7;  // the seed's 7:3
  bool dedup = true;            // see above
  bool pages = true;            // also write pages.tsv (needs the WARC files)
  size_t max_page_tokens = 20000;  // words kept per page (the first ones)
};

struct ExportSummary {
  int64_t links_read = 0;
  int64_t duplicates = 0;        // dropped by dedup
  int64_t links_positive = 0;    // after dedup
  int64_t links_negative = 0;
  int64_t links_unlabelled = 0;
  int64_t train_positive = 0, train_negative = 0;
  int64_t test_positive = 0, test_negative = 0;
  int64_t pages_positive = 0, pages_negative = 0, pages_unlabelled = 0;
  int64_t pages_unreadable = 0;  // WARC record missing or unreadable
};

// One downloaded HTML page of a crawl directory, read back from its WARC
// record and parsed.
struct StoredPage {
  int64_t id = 0;     // pages.id (download order)
  std::string url;    // final URL when redirected, else the URL
  std::string title;
  std::string text;   // ParsedPage::text
  const ParsedPage* parsed = nullptr;  // the whole parse (valid during visit)
};

// Calls `visit` for every page stored with status 'ok', in download order.
// Pages whose WARC record is missing or unreadable are skipped and counted
// in *unreadable (may be null). Errors: the crawl database cannot be read.
Status ForEachStoredPage(const std::string& crawl_dir,
                         const std::function<void(const StoredPage&)>& visit,
                         int64_t* unreadable);

// Reads `crawl_dir` (crawl.db + warc/), writes the data files into
// `out_dir` (created if missing; existing data files are replaced).
// Errors: the topic has no prefixes, the crawl cannot be read, I/O.
StatusOr<ExportSummary> ExportLabelledData(const std::string& crawl_dir,
                                           const Topic& topic,
                                           const std::string& out_dir,
                                           const ExportOptions& options = {});

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_NAIVE_BAYES_CRAWL_EXPORT_H_
