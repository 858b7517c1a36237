// CDXJ indexes of WARC files, in the format pywb (cdxj-indexer) writes and
// pywb, ReplayWeb.page and WACZ read: one line per capture,
//   <SURT key> <14-digit timestamp> {"url": ..., "mime": ..., "status": ...,
//   "digest": ..., "length": ..., "offset": ..., "filename": ...}
// sorted by byte value (`LC_ALL=C sort`), so a reader can binary-search it.
// `offset`/`length` are the record's compressed member in `filename`.
//
// Indexed records: response and resource (the page), and revisit (mime
// "warc/revisit", with the status of its HTTP head, as pywb does): the
// records a replay looks up. warcinfo, request and metadata records are not
// captures and get no line.
//
// Memory: lines are sorted in runs of at most `max_run_bytes`; larger
// indexes spill sorted runs to temporary files beside the output and merge
// them, so a 10^6-page crawl is indexed in bounded memory.
#ifndef TOPICRAWL_EXPORT_CDXJ_H_
#define TOPICRAWL_EXPORT_CDXJ_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "store/warc_reader.h"

namespace topicrawl {

// "20240501120000" from a WARC-Date ("2024-05-01T12:00:00.123Z"); empty
// when the date has fewer than 14 digits.
std::string CdxjTimestamp(std::string_view warc_date);

// The CDXJ line (no newline) of `record`, stored in file `filename`, or
// nullopt when the record is not a capture (see above) or has no target URI.
std::optional<std::string> CdxjLine(const ParsedWarcRecord& record, std::string_view filename);

struct CdxjStats {
  int64_t files = 0;
  int64_t records = 0;  // WARC records read
  int64_t lines = 0;    // CDXJ lines written
  int64_t runs = 0;     // sorted runs spilled to disk (0: sorted in memory)
};

// Indexes `warc_paths` (each line's filename is the path's last component)
// into `out_path`: written as `out_path`.tmp and renamed when complete; on
// any error (an unreadable or truncated WARC names its file and offset)
// nothing is left at `out_path` and no temporary file remains.
StatusOr<CdxjStats> WriteCdxjIndex(const std::vector<std::string>& warc_paths,
                                   const std::string& out_path,
                                   size_t max_run_bytes = size_t{128} << 20);

// The WARC files (.warc.gz, .warc.zst) of crawl directory `dir` (DIR/warc/),
// sorted by name. Error when there is none.
StatusOr<std::vector<std::string>> CrawlWarcFiles(const std::string& dir);

}  // namespace topicrawl

#endif  // TOPICRAWL_EXPORT_CDXJ_H_
