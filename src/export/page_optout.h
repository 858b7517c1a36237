// The opt-out signals of one stored page, for the exports that list pages
// (WACZ pages/pages.jsonl, `export --format jsonl`): the stored response
// head and the HTML head's <meta> elements (export/optout.h) and the page's
// host files, robots.txt and tdmrep.json (export/host_optout.h). The text
// and Markdown corpora get the same signals from their own main-content
// pass (export/text_export.h).
#ifndef TOPICRAWL_EXPORT_PAGE_OPTOUT_H_
#define TOPICRAWL_EXPORT_PAGE_OPTOUT_H_

#include <cstdint>
#include <string>

#include "core/status.h"
#include "export/host_optout.h"
#include "export/optout.h"

namespace topicrawl {

// Where a page's response record is and how to read it.
struct StoredPageRef {
  std::string url;           // the URL the record archives
  std::string content_type;  // of the response (charset for the HTML)
  std::string warc_file;     // relative to the crawl directory
  int64_t warc_offset = 0;
};

// An error when the response record cannot be read (a suspicious file
// name, a truncated file, not a response record).
StatusOr<OptOutSignals> StoredPageOptOut(const std::string& crawl_dir, const StoredPageRef& page,
                                         const HostOptOut& hosts);

}  // namespace topicrawl

#endif  // TOPICRAWL_EXPORT_PAGE_OPTOUT_H_
