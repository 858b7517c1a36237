// A small closed crawl directory for the export tests: pages from
// store_test_util's MakeTestPage (ok pages, 404s, robots denials) and, when
// asked, a revisit round whose unchanged pages become WARC revisit records.
#ifndef TOPICRAWL_SUPPORT_EXPORT_TEST_UTIL_H_
#define TOPICRAWL_SUPPORT_EXPORT_TEST_UTIL_H_

#include <string>

#include "core/status.h"
#include "store/warc_writer.h"

namespace topicrawl::testing {

// Pages 1..n into `dir` (created); with `revisits`, round 1 revisits pages
// 1..n/2 that are ok: odd ones answer 304, even ones an identical body.
// `warc` sets the WARC files' compression and size (zstd crawls).
Status MakeExportCrawl(const std::string& dir, int n, bool revisits,
                       const WarcOptions& warc = {});

// zstd WARC files with a dictionary trained on the first 30 records, so
// the crawl has files without and with the dictionary frame.
WarcOptions ZstdTestWarcOptions();

}  // namespace topicrawl::testing

#endif  // TOPICRAWL_SUPPORT_EXPORT_TEST_UTIL_H_
