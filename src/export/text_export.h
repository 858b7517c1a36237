// Text corpora from a crawl: `topicrawl export DIR --format text|markdown`.
// One JSON object per line for every HTML page stored ok (optionally only
// the relevant ones), with exactly the fields retrieval pipelines ingest:
//   {"url": ..., "title": ..., "lang": ..., "text": ...}       (text)
//   {"url": ..., "title": ..., "lang": ..., "markdown": ...}   (markdown)
// The text is the page's main content (parse/main_content.h), read back
// from the page's WARC response record and decoded to UTF-8. Pages whose
// main content cannot be found (too little text), non-HTML pages and
// unreadable records are left out and counted.
//
// Opt-out signals (export/optout.h) found on a page are written in an
// extra "optout" array; with respect_optout (the default) a page with a
// reserving signal (noindex, noarchive, noai, tdm-reservation 1, ...) is
// left out and counted instead. The host's signals (robots.txt
// Content-Usage / Content-Signal, tdmrep.json: export/host_optout.h) count
// the same.
//
// Written to `out_path`.tmp and renamed at the end (a failure leaves
// nothing at `out_path`); an empty `out_path` streams to `out`.
#ifndef TOPICRAWL_EXPORT_TEXT_EXPORT_H_
#define TOPICRAWL_EXPORT_TEXT_EXPORT_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "core/status.h"

namespace topicrawl {

struct TextExportOptions {
  bool markdown = false;  // "markdown" instead of "text"
  bool relevant_only = false;
  double beta = -1;  // < 0: the crawl's beta
  bool respect_optout = true;
  std::string robots_agent = "topicrawl";  // whose robots.txt groups apply
};

struct TextExportStats {
  int64_t pages = 0;            // pages considered
  int64_t written = 0;          // lines written
  int64_t not_html = 0;
  int64_t no_main_content = 0;
  int64_t unreadable = 0;       // WARC record missing or broken
  int64_t opted_out = 0;        // left out for an opt-out signal
  int64_t with_signals = 0;     // written with an "optout" array
  int64_t truncated = 0;        // written, from a page cut at the size bound
};

StatusOr<TextExportStats> WriteTextExport(const std::string& crawl_dir,
                                          const std::string& out_path, std::ostream& out,
                                          const TextExportOptions& options);

// One human line: "exported N pages (M without main content, ...)".
std::string TextExportSummary(const TextExportStats& stats);

}  // namespace topicrawl

#endif  // TOPICRAWL_EXPORT_TEXT_EXPORT_H_
