// RoundState: what the crawler knows about the round it runs (issue 11),
// the one seam between the crawl loop and incremental crawling.
//
// Loaded from the store when the crawl starts or resumes: the round number
// (0 for `crawl`), the round's pending revisits (planned by a RoundPolicy,
// stored by CrawlStore::StartRound, minus those already fetched before a
// kill -9) with the validators, digest and SimHash of each URL's current
// version, and the SimHash index of every stored page (near-duplicates).
// The crawler asks it to
//   * prepare a dispatched task (conditional request headers),
//   * classify a revisit's response (304 / equal digest / gone / failed
//     before parsing, changed vs trivially changed after),
//   * find a near-duplicate of a freshly parsed page.
// Memory: one entry per pending revisit (~100 bytes + validators) and 32
// bytes per stored page in the SimHash index.
#ifndef TOPICRAWL_CRAWL_ROUND_STATE_H_
#define TOPICRAWL_CRAWL_ROUND_STATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/crawl_task.h"
#include "core/status.h"
#include "core/url_state.h"
#include "store/crawl_store.h"
#include "text/simhash.h"

namespace topicrawl {

class RoundState {
 public:
  struct Revisit {
    PageId version_id = 0;
    uint64_t digest = 0;
    uint64_t simhash = 0;
    std::string etag;
    std::string last_modified;
  };

  // Reads the round, its pending revisits and the SimHash index. A store
  // of an older schema has round 0, no revisits and an index of this
  // session's pages only. `revisits` receives the frontier rows to queue.
  Status Load(CrawlStore* store, std::vector<RevisitRecord>* revisits);

  int round() const { return round_; }
  bool follow_new_links() const { return follow_new_links_; }

  // The pending revisit of url_id, or null.
  const Revisit* Find(UrlId url_id) const;
  // Sets the conditional request headers of a revisit.
  void Prepare(CrawlTask* task) const;
  // The revisit is stored: forget it.
  void Done(UrlId url_id) { revisits_.erase(url_id); }

  // State of a revisit's response known before parsing, or nullopt when
  // the body must be parsed (new content). *profile says which revisit
  // record an unchanged one gets.
  static std::optional<UrlState> ClassifyBeforeParse(const Revisit& revisit,
                                                     const FetchResult& result,
                                                     uint64_t body_digest,
                                                     PageRecord::RevisitProfile* profile);
  // Changed vs trivially changed (SimHash distance <= 3).
  static UrlState ClassifyChange(const Revisit& revisit, uint64_t simhash);

  // The page that `simhash` nearly duplicates (another URL's), or 0; then
  // remembers page `id` of url_id.
  PageId NearDuplicateAndAdd(uint64_t simhash, PageId id, UrlId url_id);

 private:
  int round_ = 0;
  bool follow_new_links_ = true;
  std::unordered_map<UrlId, Revisit> revisits_;
  SimHashIndex index_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_ROUND_STATE_H_
