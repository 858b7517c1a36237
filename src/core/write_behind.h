// WriteBehind: keeps a file that is written once, front to back, from
// filling the page cache.
//
// A crawl writes gigabytes it does not read again soon (WARC files: ~2.6 KB
// a page; the frontier's spill: ~0.7 KB a page late in a 10^6-page crawl).
// Left to the kernel, every written byte stays cached until memory runs
// short: the cache grows by several GB per 10^6 pages, evicting what the
// crawl does read (crawl.db's pages), and each new cache page is a page the
// machine must supply fresh. On the benchmark VM that is measurable: a
// fresh page costs ~7 us of CPU against ~1 us for a recycled one (1 GB
// written in 0.26 s of CPU into recycled pages, 6 GB in 10.9 s into fresh
// ones), and the crawl thread's copy into new cache pages was 0.10-0.14 of
// a parse-pool unit at 8 x 10^5 pages (docs/guides/performance.md, twelfth
// session).
//
// The pattern (the one Linux's sync_file_range(2) was made for): after each
// `chunk` of new bytes, start the writeback of that chunk
// (SYNC_FILE_RANGE_WRITE, asynchronous); once the next chunk is complete,
// wait for the previous one's writeback (long done by then) and drop its
// pages (POSIX_FADV_DONTNEED). The cache then holds at most ~2 chunks of the
// file, and the freed pages are the next ones reused.
//
// Advice only: the calls change no data, and their errors are ignored here
// (a failed write-back surfaces again at fdatasync/close, where the owners
// check it). On systems without sync_file_range it does nothing. Reading a
// dropped range later is correct, it just reads from the disk.
// Not thread-safe; one object per open file.
#ifndef TOPICRAWL_CORE_WRITE_BEHIND_H_
#define TOPICRAWL_CORE_WRITE_BEHIND_H_

#include <cstdint>

namespace topicrawl {

class WriteBehind {
 public:
  static constexpr uint64_t kDefaultChunk = uint64_t{8} << 20;
  explicit WriteBehind(uint64_t chunk_bytes = kDefaultChunk)
      : chunk_(chunk_bytes == 0 ? kDefaultChunk : chunk_bytes) {}

  // The file behind `fd` now holds bytes [0, end), written in order (`end`
  // never decreases until Reset()).
  void Written(int fd, uint64_t end);
  // The file was truncated to 0 or replaced: start over at offset 0.
  void Reset() { started_ = dropped_ = 0; }

  // Offsets below which writeback was started / pages were dropped.
  uint64_t started() const { return started_; }
  uint64_t dropped() const { return dropped_; }

 private:
  uint64_t chunk_;
  uint64_t started_ = 0;
  uint64_t dropped_ = 0;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CORE_WRITE_BEHIND_H_
