// `topicrawl export DIR --format jsonl`: one JSON object per stored page and
// line, for other tools, with the chosen fields (JsonlExportFields()):
//   id, url, final_url (url when there was no redirect), fetched_at, status,
//   http_code, title, text (the page's text read back from its WARC record;
//   "" for failed or unreadable pages), relevance (null when unscored),
//   link_score, explanation (parsed JSON, or the raw string when it is not
//   JSON), depth, parent_url (null for seeds), optout (the page's opt-out
//   signals, export/page_optout.h; null when unreadable).
// Pages stored ok (every row with all_statuses), in id order; with
// relevant_only the ok pages of relevance >= beta (the crawl's beta when
// beta < 0, 0.62 when it has none). Streaming: each row's text is read and
// written before the next row, so memory does not grow with the crawl.
#ifndef TOPICRAWL_EXPORT_JSONL_EXPORT_H_
#define TOPICRAWL_EXPORT_JSONL_EXPORT_H_

#include <cstdint>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "core/status.h"
#include "store/crawl_db_reader.h"

namespace topicrawl {

// Every field, in the order of a line.
const std::vector<std::string>& JsonlExportFields();

// A comma-separated field list as a set (every field when empty). Error:
// an unknown name (the message lists the known ones).
StatusOr<std::set<std::string>> ParseJsonlFields(const std::string& list);

struct JsonlExportOptions {
  std::set<std::string> fields;  // from ParseJsonlFields
  bool relevant_only = false;
  bool all_statuses = false;
  double beta = -1;  // < 0: the crawl's beta
  std::string robots_agent = "topicrawl";  // whose robots.txt groups decide the host's opt-outs
};

struct JsonlExportStats {
  int64_t written = 0;
  int64_t unreadable = 0;  // pages written without their text (WARC record unreadable)
};

// Writes the lines of the crawl in `crawl_dir` (its crawl.db open as `db`)
// to `out_path` (truncated), or to `out` when out_path is empty. Errors:
// the file cannot be written, the hosts' opt-outs cannot be read, the query
// or a write fails.
StatusOr<JsonlExportStats> WriteJsonlExport(CrawlDbReader& db, const std::string& crawl_dir,
                                            const std::string& out_path, std::ostream& out,
                                            const JsonlExportOptions& options);

// One human line: "exported N pages" (and how many without readable text).
std::string JsonlExportSummary(const JsonlExportStats& stats);

}  // namespace topicrawl

#endif  // TOPICRAWL_EXPORT_JSONL_EXPORT_H_
