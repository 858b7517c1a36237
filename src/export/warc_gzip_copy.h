// WARC files as gzip for consumers that read no zstd.
//
// ReplayWeb.page (npm replaywebpage 2.5, its wabac.js service worker) loads
// the WARC files of a WACZ's archive/ as plain or gzip WARC only: it has no
// zstd decoder, and the WACZ 1.1.1 spec names .warc and .warc.gz files. A
// crawl written with --warc-compression zstd therefore goes into a WACZ
// recompressed: each record becomes one gzip member (WARC/1.1 Annex D.2,
// ISA-L igzip as the crawl's own gzip WARCs), its bytes unchanged (same
// headers, block, digests and record ids), and the file keeps its name with
// .warc.gz for .warc.zst.
#ifndef TOPICRAWL_EXPORT_WARC_GZIP_COPY_H_
#define TOPICRAWL_EXPORT_WARC_GZIP_COPY_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "core/status.h"
#include "store/gzip_member.h"
#include "store/warc_reader.h"

namespace topicrawl {

// True for a file name ending in .warc.zst.
bool IsZstdWarcName(const std::string& name);
// "x.warc.gz" for "x.warc.zst"; other names unchanged.
std::string GzipWarcName(const std::string& name);

// The uncompressed bytes of `record` as a WARC file holds them: version
// line, header fields, empty line, block, two CRLFs.
std::string SerializeWarcRecord(const ParsedWarcRecord& record);

// Appends records as gzip members to an open file.
class GzipRecordSink {
 public:
  explicit GzipRecordSink(FILE* out) : out_(out), gzip_(1) {}
  Status Write(const ParsedWarcRecord& record);

 private:
  FILE* out_;
  GzipMemberWriter gzip_;
  ByteBuffer buffer_;
};

// Writes every record of `src` (gzip or zstd WARC) to `dst` as gzip members.
Status RecompressWarcFile(const std::string& src, const std::string& dst);

// Writes the records of `src` that start in [begin, end) (a page's record
// group by its stored offset and length) to `sink`. The first record must
// start at `begin`.
Status RecompressWarcRange(const std::string& src, uint64_t begin, uint64_t end,
                           GzipRecordSink* sink);

}  // namespace topicrawl

#endif  // TOPICRAWL_EXPORT_WARC_GZIP_COPY_H_
