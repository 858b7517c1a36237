// The URL-trap budget across --resume: UrlTrapGuard counts in memory, so a
// resumed crawl rebuilds its per-pattern counts from the pages the crawl
// directory already holds -- otherwise every resume would grant each trap
// pattern a fresh budget of max_urls_per_pattern URLs.
#ifndef TOPICRAWL_CRAWL_URL_TRAP_RESTORE_H_
#define TOPICRAWL_CRAWL_URL_TRAP_RESTORE_H_

#include <cstdint>

#include "core/status.h"
#include "crawl/url_trap.h"
#include "store/crawl_store.h"

namespace topicrawl {

// Counts (UrlTrapGuard::Admit) every distinct URL of a `pages` row that
// passed the trap check when it was dispatched: every status but the
// refusals decided before it (robots_denied, host_failed) and trap_refused
// itself. A URL fetched in several rounds counts once. `*admitted` (if not
// null) receives the number of URLs counted.
Status RestoreTrapCounts(CrawlStore* store, UrlTrapGuard* guard, int64_t* admitted);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_URL_TRAP_RESTORE_H_
