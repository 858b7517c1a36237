// MergeCrawls: the crawl directories of a clustered crawl's workers as one
// crawl directory (`topicrawl merge OUT DIR...`).
//
// One pages row per URL: among the rows of all inputs for a URL (a page
// re-fetched after a worker died has several), the latest ok fetch is kept,
// or the latest fetch when none is ok. Page ids are renumbered; parent ids
// and near-duplicate ids are kept when they point at a kept row of the same
// input, else cleared. Outlinks (page_links), fetches and frontier rows of
// kept pages follow. WARC files are referenced, not rewritten: each input's
// files are hard-linked (copied across file systems) into OUT/warc/ under a
// new sequence number (topicrawl-<time>-<seq>.warc.gz, numbered across the
// inputs, so the store can resume OUT, e.g. for recrawl), and every
// pages.warc_file/offset still points at the record.
#ifndef TOPICRAWL_CLUSTER_CRAWL_MERGE_H_
#define TOPICRAWL_CLUSTER_CRAWL_MERGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl {

struct MergeStats {
  int64_t input_rows = 0;  // pages rows over all inputs
  int64_t pages = 0;       // rows in the merged crawl (distinct URLs)
  int64_t ok = 0;
  int64_t warc_files = 0;
};

struct MergeOptions {
  // WARC files as symbolic links to the inputs' files (absolute paths)
  // instead of hard links or copies: for a temporary view (crawl_view.h)
  // that must not copy WARC data across file systems.
  bool symlink_warc = false;
};

// `out` must not hold a crawl. Inputs must not be crawled into while merging.
StatusOr<MergeStats> MergeCrawls(const std::string& out, const std::vector<std::string>& inputs,
                                 const MergeOptions& options = {});

}  // namespace topicrawl

#endif  // TOPICRAWL_CLUSTER_CRAWL_MERGE_H_
