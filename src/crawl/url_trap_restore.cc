#include "crawl/url_trap_restore.h"

#include <functional>
#include <string>
#include <unordered_set>

namespace topicrawl {

Status RestoreTrapCounts(CrawlStore* store, UrlTrapGuard* guard, int64_t* admitted) {
  if (admitted != nullptr) *admitted = 0;
  if (!guard->counts_patterns()) return Status::Ok();
  // Rows of later rounds repeat a URL (revisits are never trap candidates);
  // a 64-bit hash per URL keeps this set small on big crawls (a collision
  // only under-counts one URL).
  std::unordered_set<size_t> seen;
  int64_t n = 0;
  Status s = store->LoadPages([&](const PageSummary& page) {
    // Decided before the trap check (robots, the host's failure budget) or
    // refused by it: never counted when they happened.
    if (page.status == "robots_denied" || page.status == "host_failed" ||
        page.status == "trap_refused") {
      return true;
    }
    if (!seen.insert(std::hash<std::string>{}(page.url)).second) return true;
    guard->Admit(page.url);
    ++n;
    return true;
  });
  if (admitted != nullptr) *admitted = n;
  return s;
}

}  // namespace topicrawl
