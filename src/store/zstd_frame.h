// Zstandard frames for `.warc.zst` files, per the IIPC proposal "WARC
// Zstandard compression" (iipc.github.io/warc-specifications, warc-zstd):
//   - every WARC record is its own zstd frame (RFC 8878), so a record can be
//     read from its offset like a gzip member;
//   - a dictionary, when used, is stored once at the very start of the file
//     in a skippable frame (RFC 8878 §3.1.2) with magic 0x184D2A5D whose
//     payload is the dictionary (raw, or itself zstd-compressed); every
//     record frame of the file is compressed with it;
//   - other skippable frames may appear and are ignored by readers.
// The `zstd` command line tool reads such a file: it skips the skippable
// frame and decompresses the records given the dictionary (`-D`).
//
// Thread-safety: none; one thread owns a writer.
#ifndef TOPICRAWL_STORE_ZSTD_FRAME_H_
#define TOPICRAWL_STORE_ZSTD_FRAME_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "store/gzip_member.h"

struct ZSTD_CCtx_s;
struct ZSTD_CDict_s;

namespace topicrawl {

// The skippable-frame magic number of the dictionary frame.
constexpr uint32_t kWarcZstdDictMagic = 0x184D2A5Du;

// The dictionary frame: magic, 32-bit little-endian payload size, `dict`.
std::string WarcZstdDictFrame(std::string_view dict);

// A dictionary trained with ZDICT (zdict.h) on `samples` (records' leading
// bytes), at most `max_bytes`; an error when zstd cannot train one (too few
// or too uniform samples).
StatusOr<std::string> TrainWarcDictionary(const std::vector<std::string>& samples,
                                          size_t max_bytes);

// The raw dictionary stored at the start of the .warc.zst file `path`
// (decompressed when stored compressed); "" when it has none or cannot be
// read.
std::string ReadWarcZstdDictionary(const std::string& path);

class ZstdFrameWriter {
 public:
  explicit ZstdFrameWriter(int level);
  ~ZstdFrameWriter();
  ZstdFrameWriter(const ZstdFrameWriter&) = delete;
  ZstdFrameWriter& operator=(const ZstdFrameWriter&) = delete;

  // Compresses every later frame with `dict` ("" = none).
  Status SetDictionary(std::string_view dict);
  // Appends one frame (content size recorded) whose content is the
  // concatenation of `pieces` to *out. On error *out keeps its size.
  Status Append(std::span<const std::string_view> pieces, ByteBuffer* out);

 private:
  int level_;
  ZSTD_CCtx_s* cctx_;
  ZSTD_CDict_s* cdict_ = nullptr;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_ZSTD_FRAME_H_
