// Seed 004's two tables in crawl.db (004_d65f8d41b01a9f7d §3.3.1):
//   LinkTable  <ID, url, parentID, depth, anchorText>   every crawled page and
//                                                       the link that reached it
//   ResultTable <ID, urlID>                             result pages; urlID =
//                                                       LinkTable.ID
// From a ResultTable row, follow parentID in LinkTable back to a seed: the
// paths of the web link graph Gw. ID is pages.id of the crawl (0 = no parent).
//
// A separate addition to the store: the jlse strategy writes the tables when
// the crawl ends, through its own connection, after the crawl store closed
// (so it never competes with the store's batch transaction). Rewriting
// replaces the previous contents (a resumed crawl rewrites the whole set).
#ifndef TOPICRAWL_STRATEGIES_JLSE_JLSE_TABLES_H_
#define TOPICRAWL_STRATEGIES_JLSE_JLSE_TABLES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl {

struct JlseLinkRow {
  int64_t id = 0;
  std::string url;
  int64_t parent_id = 0;
  uint32_t depth = 0;
  std::string anchor;
};

// Creates (if missing) and fills LinkTable and ResultTable in the SQLite
// database `db_path` (which must exist), in one transaction.
Status WriteJlseTables(const std::string& db_path, const std::vector<JlseLinkRow>& links,
                       const std::vector<int64_t>& result_ids);

// Reads them back (tests, tools). Errors: no such tables.
Status ReadJlseTables(const std::string& db_path, std::vector<JlseLinkRow>* links,
                      std::vector<int64_t>* result_ids);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_JLSE_JLSE_TABLES_H_
