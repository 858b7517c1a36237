// The visible text of a stored page, read back from its WARC response record
// (crawl.db keeps only the record's place): decode the charset, parse, keep
// title and text. Used by the search indexer and `topicrawl export`.
#ifndef TOPICRAWL_SEARCH_PAGE_TEXT_H_
#define TOPICRAWL_SEARCH_PAGE_TEXT_H_

#include <cstdint>
#include <string>

#include "core/status.h"

namespace topicrawl {

struct PageText {
  std::string title;
  std::string text;  // text blocks joined by '\n'
};

// `warc_file` is the pages.warc_file value (relative to `crawl_dir`; names
// with ".." or a leading '/' are refused), `offset` pages.warc_offset.
StatusOr<PageText> ReadStoredPageText(const std::string& crawl_dir, const std::string& warc_file,
                                      int64_t offset, const std::string& content_type,
                                      const std::string& url);

}  // namespace topicrawl

#endif  // TOPICRAWL_SEARCH_PAGE_TEXT_H_
