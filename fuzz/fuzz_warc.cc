// WARC reader: one uncompressed record, and the same bytes as a WARC file
// (gzip members) read through a memfd.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "store/warc_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  topicrawl::ParsedWarcRecord record;
  if (topicrawl::ParseWarcRecord(in, &record).ok()) {
    std::string_view head, body;
    topicrawl::SplitHttpBlock(record.block, &head, &body);
    record.Header("WARC-Type");
  }
  static int fd = memfd_create("fuzz_warc", 0);
  if (fd < 0) return 0;
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  int records = 0;
  topicrawl::ReadWarcFile(path, [&](topicrawl::ParsedWarcRecord&) { return ++records < 64; });
  topicrawl::ReadWarcRecordAt(path, 0);
  return 0;
}
