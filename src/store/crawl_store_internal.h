// Internal to store/: shared by crawl_store.cc (batches, writes, reads) and
// crawl_store_open.cc (opening, creating, repairing a crawl directory).
#ifndef TOPICRAWL_STORE_CRAWL_STORE_INTERNAL_H_
#define TOPICRAWL_STORE_CRAWL_STORE_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <string>

#include "core/status.h"
#include "store/crawl_store.h"
#include "store/sqlite_db.h"

namespace topicrawl {
namespace store_internal {

inline constexpr char kSchemaVersion[] = "1";
inline constexpr char kDbName[] = "crawl.db";
inline constexpr char kWarcDir[] = "warc";

// "<what> <path>: <strerror(errno)>".
std::string ErrnoText(const std::string& what, const std::string& path);

}  // namespace store_internal

// The connection and its prepared statements.
class CrawlStore::Db {
 public:
  std::unique_ptr<SqliteDb> conn;
  SqliteStatement insert_page, insert_link, log_frontier, merge_log, clear_log;
  SqliteStatement insert_event, set_meta, upsert_warc_file;
  SqliteStatement begin, commit, rollback;

  // Prepares every statement above (crawl_store.cc).
  Status Prepare();
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_CRAWL_STORE_INTERNAL_H_
