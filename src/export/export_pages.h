// The stored pages an export writes, read from a crawl directory's
// crawl.db (store/crawl_db_reader.h) one row at a time.
#ifndef TOPICRAWL_EXPORT_EXPORT_PAGES_H_
#define TOPICRAWL_EXPORT_EXPORT_PAGES_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/status.h"
#include "store/crawl_db_reader.h"

namespace topicrawl {

struct ExportPage {
  int64_t id = 0;
  std::string url;  // the URL the record archives (final URL after redirects)
  std::string requested_url;
  int64_t fetched_at = 0;  // unix ms: the records' WARC-Date
  std::string title;
  std::optional<double> relevance;
  double link_score = 0;
  std::string explanation;  // JSON text (why fetched), may be empty
  int64_t depth = 0;
  std::string content_type;
  std::string warc_file;  // relative to the crawl directory
  int64_t warc_offset = 0;
  int64_t warc_length = 0;  // the page's records: response, request, metadata
};

struct ExportFilter {
  bool relevant_only = false;  // relevance >= beta
  double beta = 0.62;
  bool by_warc_position = false;  // order by (warc_file, warc_offset), else id
};

// An error naming what is missing when `db` is not a crawl directory this
// version can export (a store of an older schema without WARC positions).
Status CheckExportSchema(CrawlDbReader& db);

// `flag_beta` when >= 0, else the crawl's meta beta, else 0.62.
double ExportBeta(CrawlDbReader& db, double flag_beta);

// Calls `visit` for every page stored ok that has a WARC record and passes
// `filter`; `visit` returns false to stop.
Status ForEachExportPage(CrawlDbReader& db, const ExportFilter& filter,
                         const std::function<bool(const ExportPage&)>& visit);

}  // namespace topicrawl

#endif  // TOPICRAWL_EXPORT_EXPORT_PAGES_H_
