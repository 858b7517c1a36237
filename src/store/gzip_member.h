// Gzip members (RFC 1952) for the WARC writer, compressed with ISA-L's igzip.
//
// GzipMemberWriter::Append() deflates the concatenation of a few pieces (a
// WARC header, a block, a body, a terminator) into ONE complete gzip member
// (header, deflate stream, CRC-32 + ISIZE trailer) appended to a ByteBuffer,
// with no intermediate copy. Every member is independent, so any gzip reader
// (zlib, zcat, gzip -t, our WarcReader) reads one member or a whole
// concatenation of them. Reading stays with zlib (warc_reader.cc).
//
// Thread-safety: none; one thread owns a writer (and its buffer).
#ifndef TOPICRAWL_STORE_GZIP_MEMBER_H_
#define TOPICRAWL_STORE_GZIP_MEMBER_H_

#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

#include "core/status.h"

namespace topicrawl {

// A growable byte buffer that never zero-fills: Reserve() hands out
// uninitialised room that the caller fills and then Commit()s. Capacity is
// kept across clear() so a steady writer stops allocating after warm-up.
class ByteBuffer {
 public:
  ByteBuffer() = default;
  ByteBuffer(const ByteBuffer&) = delete;
  ByteBuffer& operator=(const ByteBuffer&) = delete;

  const char* data() const { return data_.get(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  size_t spare() const { return capacity_ - size_; }

  // Ensures spare() >= n (growing geometrically, copying the committed
  // bytes once) and returns the first spare byte. The pointer is valid until
  // the next Reserve() or Release().
  char* Reserve(size_t n);
  // Marks n spare bytes as written. REQUIRES: n <= spare().
  void Commit(size_t n) { size_ += n; }
  // Drops bytes beyond `n`. REQUIRES: n <= size().
  void Truncate(size_t n) { size_ = n; }
  void clear() { size_ = 0; }
  void Append(std::string_view bytes);
  // Frees the memory (size and capacity become 0).
  void Release();

 private:
  std::unique_ptr<char[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

class GzipMemberWriter {
 public:
  // ISA-L igzip level (0-3) for a zlib-scale level (0-9): 0 -> 0, 1-2 -> 1,
  // 3-5 -> 2, 6-9 -> 3 (out-of-range values are clamped). igzip has no
  // "stored" mode: level 0 is its fastest compressor (static Huffman codes),
  // not zlib's uncompressed level 0. Ratios on dev-web HTML (gzip_member.cc):
  // igzip 0 ~ 5.6, 1 ~ 6.2 (zlib 1: 6.1), 2 ~ 6.3, 3 ~ 6.5 (zlib 3: 6.5,
  // zlib 6: 7.4).
  static int IgzipLevel(int zlib_level);

  // `zlib_level` on zlib's 0-9 scale (see IgzipLevel()).
  explicit GzipMemberWriter(int zlib_level);
  ~GzipMemberWriter();
  GzipMemberWriter(const GzipMemberWriter&) = delete;
  GzipMemberWriter& operator=(const GzipMemberWriter&) = delete;

  // Appends one gzip member whose uncompressed content is the concatenation
  // of `pieces` to *out, growing it as needed (no bound on the output is
  // assumed). On error *out is restored to its previous size.
  Status Append(std::span<const std::string_view> pieces, ByteBuffer* out);

  int igzip_level() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_GZIP_MEMBER_H_
