#include "core/write_behind.h"

#include <fcntl.h>

namespace topicrawl {

void WriteBehind::Written(int fd, uint64_t end) {
  // A shorter file than last time (truncated without Reset()) must not wrap
  // `end - started_` into an endless loop of chunks; nothing is new then.
  if (fd < 0 || end < started_) return;
  // Start the writeback of every whole chunk written since the last call.
  // A chunk, not each write: a few large requests per file instead of one
  // per 64 KiB buffer, and the kernel's own flusher would write these bytes
  // anyway (this moves that work forward, it does not add it).
  while (end - started_ >= chunk_) {
#ifdef SYNC_FILE_RANGE_WRITE
    (void)::sync_file_range(fd, static_cast<off_t>(started_),
                            static_cast<off_t>(chunk_), SYNC_FILE_RANGE_WRITE);
#endif
    started_ += chunk_;
  }
  // Drop what was started at least one chunk ago. WAIT_BEFORE: pages still
  // under writeback cannot be dropped, so wait for that (normally finished:
  // a chunk's worth of writing has happened since); WRITE + WAIT_AFTER: any
  // page dirtied again meanwhile is written too, so DONTNEED finds them all
  // clean.
  if (started_ >= chunk_ && started_ - chunk_ > dropped_) {
    const uint64_t upto = started_ - chunk_;
#ifdef SYNC_FILE_RANGE_WRITE
    (void)::sync_file_range(fd, static_cast<off_t>(dropped_),
                            static_cast<off_t>(upto - dropped_),
                            SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
                                SYNC_FILE_RANGE_WAIT_AFTER);
    (void)::posix_fadvise(fd, static_cast<off_t>(dropped_),
                          static_cast<off_t>(upto - dropped_), POSIX_FADV_DONTNEED);
#endif
    dropped_ = upto;
  }
}

}  // namespace topicrawl
