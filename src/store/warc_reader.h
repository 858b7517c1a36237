// Strict reader for WARC files written record-at-a-time (one gzip member per
// record, WARC/1.1 Annex D.2), such as those WarcWriter produces.
//
// Strict on purpose: it is the checker for our own output. Each member must
// inflate to exactly one record: "WARC/1.x" version line, header fields
// ending in an empty line, a block of exactly Content-Length bytes and the
// two CRLFs of section 4, nothing else. Any deviation, a truncated member or
// trailing garbage is reported as an error naming the file offset.
#ifndef TOPICRAWL_STORE_WARC_READER_H_
#define TOPICRAWL_STORE_WARC_READER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "store/warc_writer.h"

namespace topicrawl {

struct ParsedWarcRecord {
  uint64_t offset = 0;  // of the gzip member in the file
  uint64_t length = 0;  // compressed bytes of the member
  std::string version;  // "WARC/1.1"
  std::vector<WarcField> headers;  // in file order, names as written
  std::string block;

  // Value of the first header named `name` (ASCII case-insensitive), or "".
  std::string_view Header(std::string_view name) const;
};

// Parses one uncompressed record (exactly one, nothing after it).
Status ParseWarcRecord(std::string_view data, ParsedWarcRecord* out);

// Calls `visit` for every record of the file at `path` in order; stops early
// when `visit` returns false. An empty file has no records (OK).
Status ReadWarcFile(const std::string& path,
                    const std::function<bool(ParsedWarcRecord&)>& visit);

// Reads the single record whose gzip member starts at `offset`.
StatusOr<ParsedWarcRecord> ReadWarcRecordAt(const std::string& path,
                                            uint64_t offset);

// Splits an HTTP message head + body block (application/http) at the first
// empty line. Returns false when there is no complete head.
bool SplitHttpBlock(std::string_view block, std::string_view* head,
                    std::string_view* body);

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_WARC_READER_H_
