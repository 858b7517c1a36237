// The identity of a page for de-duplication: Hash64 of its canonical URL,
// with https:// folded to http:// when the crawl treats both schemes as one
// resource (the default: on the benchmark webs and most real sites the two
// serve the same page, and links use both).
#ifndef TOPICRAWL_CRAWL_DEDUP_H_
#define TOPICRAWL_CRAWL_DEDUP_H_

#include <string_view>

#include "core/crawl_task.h"
#include "core/hash.h"

#include <string>

namespace topicrawl {

// REQUIRES: `canonical_url` is a canonical absolute URL (ResolveLink output).
inline UrlId DedupId(std::string_view canonical_url, bool ignore_scheme) {
  if (ignore_scheme && canonical_url.substr(0, 8) == "https://") {
    std::string folded = "http://";
    folded.append(canonical_url.substr(8));
    return Hash64(folded);
  }
  return Hash64(canonical_url);
}

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_DEDUP_H_
