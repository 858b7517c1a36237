// SpillFile: the on-disk overflow of the frontier's queues.
//
// One append-only file per frontier (in the crawl directory). A host that has
// too many links in RAM sorts its worst half and appends it as one *segment*
// (records in serving order). Segments are read back front to back by a
// SpillCursor, so each segment is consumed as a queue; the Frontier merges
// the segments of a host by their head record (best first).
//
// Written segments leave the page cache a chunk behind the end of the file
// (core/write_behind.h): most are never read back (a 10^6-page crawl of the
// synthetic web wrote 7.4 M links and read 1.7 M back), and a reload reads
// from the disk.
//
// Records are in the machine's native byte order: the file is scratch space
// of one running frontier, not an exchange format (resume rebuilds the
// frontier from the store). Failures are returned as Status, never thrown.
// Not thread-safe.
#ifndef TOPICRAWL_FRONTIER_SPILL_FILE_H_
#define TOPICRAWL_FRONTIER_SPILL_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/crawl_task.h"
#include "core/status.h"
#include "core/write_behind.h"

namespace topicrawl {

// One queued link as stored on disk.
struct SpillRecord {
  UrlId url_id = 0;
  double score = 0;
  uint64_t seq = 0;
  uint32_t depth = 0;
  uint32_t attempt = 0;
  PageId parent_page_id = 0;
  std::string url;
  std::string anchor;
};

// A contiguous byte range [begin, end) holding `remaining` records that have
// not been read back yet.
struct SpillSegment {
  uint64_t begin = 0;
  uint64_t end = 0;
  uint64_t remaining = 0;
};

class SpillFile {
 public:
  // Creates (or truncates) the file at `path`.
  static StatusOr<std::unique_ptr<SpillFile>> Create(const std::string& path);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Appends `records` (in the given order) as one segment.
  StatusOr<SpillSegment> Append(const std::vector<SpillRecord>& records);
  // Drops every byte; call only when no segment has records left.
  Status Truncate();
  // Bytes currently in the file.
  uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // After the file was renamed by the owner.
  void set_path(std::string path) { path_ = std::move(path); }

 private:
  friend class SpillCursor;
  SpillFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  Status ReadAt(uint64_t offset, size_t length, std::string* out) const;

  int fd_;
  std::string path_;
  uint64_t size_ = 0;
  WriteBehind behind_;
};

// Sequential reader over one segment with a peekable head. Consuming a
// record advances the segment (begin, remaining) it was created from.
class SpillCursor {
 public:
  // `file` and `segment` must outlive the cursor.
  SpillCursor(const SpillFile* file, SpillSegment* segment);
  // False when the segment is exhausted or a read failed (see status()).
  bool HasHead() const { return has_head_; }
  // REQUIRES: HasHead().
  const SpillRecord& head() const { return head_; }
  // Moves the head out and reads the next one.
  SpillRecord Consume();
  const Status& status() const { return status_; }

 private:
  void ReadHead();
  bool Fill(size_t need);

  const SpillFile* file_;
  SpillSegment* segment_;
  std::string buffer_;
  size_t buffer_pos_ = 0;
  uint64_t buffer_offset_ = 0;  // file offset of buffer_[0]
  size_t head_bytes_ = 0;
  SpillRecord head_;
  bool has_head_ = false;
  Status status_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_FRONTIER_SPILL_FILE_H_
