// The WARC records for one stored page (internal to store/, public for tests).
//
// A page with a response yields, in this order, each its own gzip member:
//   response  application/http; msgtype=response  (rewritten head + body)
//   request   application/http; msgtype=request   (when a request head exists)
//   metadata  application/warc-fields             (crawl facts, see below)
//   conversion text/html                          (--render: the rendered
//              DOM, WARC-Refers-To the response; only for rendered pages)
// request and metadata carry WARC-Concurrent-To: <response record id>.
// The response comes first so that reading one gzip member at the page's
// warc_offset yields the response (as CDX-style readers expect).
//
// The body stored by the fetcher is decoded (Content-Encoding undone), so the
// response head is rewritten to describe what is stored: Content-Encoding,
// Transfer-Encoding and Content-Length are dropped, "Content-Length: <stored
// body size>" is appended, and the dropped values are kept in the metadata
// record as original-content-encoding / original-transfer-encoding /
// original-content-length. WARC-Payload-Digest is therefore the digest of
// the decoded entity. A body cut at the size limit (kTooLarge) is marked
// "WARC-Truncated: length" (WARC/1.1 section 5.13).
#ifndef TOPICRAWL_STORE_PAGE_WARC_H_
#define TOPICRAWL_STORE_PAGE_WARC_H_

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "store/crawl_store.h"
#include "store/warc_writer.h"

namespace topicrawl {

// Records for `page` stored as page `id`; empty when the page has no
// response (no WARC records for bodiless failures). The response record's
// block_suffix points into page.body, which must outlive the records.
std::vector<WarcRecord> BuildPageWarcRecords(const PageRecord& page, PageId id,
                                             std::mt19937_64& rng);

// A raw HTTP request/response head with CRLF line endings ending in an empty
// line. When `head` holds several blocks (interim 1xx or redirect responses
// concatenated), only the last non-empty block is kept.
std::string NormalizeHttpHead(std::string_view head);

// Shortest round-trip text of a double ("0.5", "1e-07").
std::string FormatDouble(double value);

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_PAGE_WARC_H_
