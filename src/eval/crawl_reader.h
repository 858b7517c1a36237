// Reads a finished (or interrupted) crawl directory for evaluation.
//
// The store's schema is in docs/ARCHITECTURE.md ("store/"). Evaluation only
// needs: pages(id, url, final_url, status, fetched_at, relevance) and the
// meta(key, value) table. The database is opened read-only, so evaluating a
// crawl that is still running is safe (SQLite WAL readers do not block it).
#ifndef TOPICRAWL_EVAL_CRAWL_READER_H_
#define TOPICRAWL_EVAL_CRAWL_READER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl::eval {

// One downloaded page (a pages row with status = 'ok'), in download order.
struct DownloadedPage {
  int64_t id = 0;
  std::string url;        // the URL that was requested
  std::string final_url;  // after redirects; empty when the store left it NULL
  // R(P) as the crawl's strategy computed it; nullopt when NULL in the store.
  std::optional<double> relevance;
  std::optional<int64_t> fetched_at_ms;

  // The URL whose content was downloaded: final_url if set, else url.
  const std::string& EffectiveUrl() const {
    return final_url.empty() ? url : final_url;
  }
};

struct CrawlRecord {
  std::vector<DownloadedPage> pages;  // status = 'ok', ORDER BY id
  int64_t failed_rows = 0;            // pages rows with any other status + refusals (schema 6)
  std::map<std::string, std::string> meta;

  // Meta lookups; nullopt when absent or not a number.
  std::optional<double> MetaDouble(const std::string& key) const;
  std::optional<int64_t> MetaInt(const std::string& key) const;
};

// Reads `<crawl_dir>/crawl.db` (or `crawl_dir` itself when it names a file).
// Fails with a message naming the file when it is missing, is not a SQLite
// database, or lacks the pages table. A missing meta table is tolerated
// (meta is then empty).
StatusOr<CrawlRecord> ReadCrawl(const std::string& crawl_dir);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_CRAWL_READER_H_
