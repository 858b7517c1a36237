// Internal to store/: shared by crawl_store.cc (batches, writes, reads) and
// crawl_store_open.cc (opening, creating, repairing a crawl directory).
#ifndef TOPICRAWL_STORE_CRAWL_STORE_INTERNAL_H_
#define TOPICRAWL_STORE_CRAWL_STORE_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "core/status.h"
#include "store/crawl_store.h"
#include "store/sqlite_db.h"

namespace topicrawl {
namespace store_internal {

// Schema versions (meta.schema_version). 7: fetches is a rowid table (rows
// appended in fetch order) with a UNIQUE index fetches_key(url_id, round)
// instead of a WITHOUT ROWID table keyed that way (issue 12: the random-order
// tree a commit rewrites is the ~20-byte index, not the ~60-byte rows).
// 6: URL-trap refusals as a reason
// id on their frontier_state row, reasons interned in refusal_reasons, no
// pages row (issue 12). 5: state changes in their own
// frontier_state(url_id, state) table, frontier_log holds admissions only
// (issue 12). 4: frontier_log is the frontier
// (never merged) and `frontier` a view; compact page_links JSON (issue 12).
// 3: rounds (issue 11): pages gains
// round and near_dup_of, plus the fetches and revisits tables. 2: a page's links as one JSON text
// in page_links, `links` a view over it, 16 KiB pages. 1: links as rows of a
// rowid table plus the links_from_id index, 4 KiB pages; still resumed and
// written (see crawl_store_open.cc).
inline constexpr int kSchemaVersion = 7;
inline constexpr int kOldestSchemaVersion = 1;
inline constexpr char kDbName[] = "crawl.db";
inline constexpr char kWarcDir[] = "warc";

// "<what> <path>: <strerror(errno)>".
std::string ErrnoText(const std::string& what, const std::string& path);

}  // namespace store_internal

// The connection and its prepared statements.
class CrawlStore::Db {
 public:
  std::unique_ptr<SqliteDb> conn;
  int schema_version = store_internal::kSchemaVersion;
  SqliteStatement insert_page, log_frontier;
  SqliteStatement log_state;  // schema 5: frontier_state; else a frontier_log row
  SqliteStatement insert_links;  // page_links (schema 2) or links rows (1)
  std::string links_json;        // reused buffer (schema 2)
  std::string compact;           // reused buffer (AppendCompactJsonNumbers)
  std::string cut_url;           // reused buffer (CompactUrl, schema 5)
  SqliteStatement merge_log, clear_log;
  SqliteStatement insert_event, set_meta, upsert_warc_file;
  SqliteStatement insert_host_file;  // prepared on first use (AddHostFile)
  bool host_files_ready = false;
  SqliteStatement insert_fetch, version_page;  // schema 3
  SqliteStatement begin, commit, rollback;
  // Schema 6: refusal_reasons, interned; "status\nerror" -> id, read from
  // the table at the first refusal after opening (a few per trap pattern).
  SqliteStatement insert_reason;
  std::unordered_map<std::string, int64_t> reason_ids;
  bool reasons_loaded = false;
  int64_t next_reason_id = 1;

  // Prepares every statement above for `schema_version` (crawl_store.cc).
  Status Prepare();
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_CRAWL_STORE_INTERNAL_H_
