// WACZ 1.1.1 export of a crawl (https://specs.webrecorder.net/wacz/1.1.1/):
// one zip file that ReplayWeb.page, pywb and other web-archive tools open
// directly. Entries:
//   archive/<name>.warc.gz     the crawl's WARC files, stored (not deflated)
//                              so a reader can range-request one record;
//                              .warc.zst files recompressed to .warc.gz
//                              (export/warc_gzip_copy.h says why)
//   indexes/index.cdxj         SURT-sorted CDXJ of those files (cdxj.h)
//   pages/pages.jsonl          a header line, then one line per page: id,
//                              url, ts (the record's WARC-Date), title, and
//                              ours: relevance, link_score, depth, why (the
//                              crawl's explanation of why it was fetched),
//                              optout and optout_reserved when the page has
//                              opt-out signals (export/page_optout.h)
//   datapackage.json           profile, wacz_version, created, software,
//                              mainPageUrl/Date, and every other entry's
//                              path, sha256 and size
//   datapackage-digest.json    sha256 of datapackage.json
//
// Without relevant_only the WARC files are added as they are (every record
// of the crawl, revisits included). With it, each WARC file that holds a
// relevant page is rewritten under the same name with its warcinfo record
// and only the relevant pages' record groups (response, request, metadata
// members copied byte for byte, so digests and record ids are unchanged;
// re-encoded as gzip members from a zstd file).
//
// The zip is written by libzip to a temporary file beside `out_path` and
// renamed over it at the end; the staging directory `<out_path>.parts.tmp`
// is removed in every case. A failure leaves no file at `out_path`.
#ifndef TOPICRAWL_EXPORT_WACZ_H_
#define TOPICRAWL_EXPORT_WACZ_H_

#include <cstdint>
#include <string>

#include "core/status.h"

namespace topicrawl {

struct WaczOptions {
  bool relevant_only = false;
  double beta = -1;  // relevance threshold; < 0: the crawl's beta
  std::string title;  // datapackage title; default: the directory name
  std::string software = "topicrawl 0.1.0";
  std::string robots_agent = "topicrawl";  // whose robots.txt groups apply (opt-out)
};

struct WaczStats {
  int64_t pages = 0;       // lines of pages.jsonl after the header
  int64_t warc_files = 0;
  int64_t cdxj_lines = 0;
  uint64_t warc_bytes = 0;
};

StatusOr<WaczStats> WriteWacz(const std::string& crawl_dir, const std::string& out_path,
                              const WaczOptions& options);

// "sha256:<64 hex digits>" of the file at `path`.
StatusOr<std::string> Sha256File(const std::string& path);

}  // namespace topicrawl

#endif  // TOPICRAWL_EXPORT_WACZ_H_
