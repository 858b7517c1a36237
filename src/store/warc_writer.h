// WARC/1.1 writer: one gzip member per record, files rotated at a size limit.
//
// Follows "The WARC Format 1.1" (IIPC, ISO 28500:2017). Every record is
// written as its own gzip member (Annex D.2, "record-at-time compression"),
// so a reader can seek to a record's offset and inflate just that member.
// Records that belong together (one page's response, request and metadata)
// are appended as one group that never straddles two files.
//
// Files are named `topicrawl-<YYYYmmddHHMMSS>-<seq>.warc.gz` (UTC time of
// creation, 5-digit sequence number) and start with a warcinfo record
// (section 6.2). A file is created lazily on the first Append(), so a session
// that writes nothing leaves no file behind.
//
// Compression: ISA-L igzip (gzip_member.h), straight into one reusable
// output buffer that is written in large blocks; any gzip reader reads the
// files. With WarcCompression::kZstd, files are `.warc.zst` per the IIPC
// Zstandard proposal (zstd_frame.h): one zstd frame per record. The first
// file has no dictionary; once it holds `zstd_dict_records` records a
// dictionary is trained on them (ZDICT), the writer rotates, and every
// later file starts with that dictionary in its dict-frame and compresses
// each record with it. A writer resuming in a directory that already holds
// a dictionary reuses the newest one.
//
// Durability: Append() only buffers; bytes reach the OS on Flush(), on
// rotation, when the buffer exceeds WarcOptions::buffer_bytes, and in the
// destructor. A caller that records offsets elsewhere (the CrawlStore) must
// Flush() before it commits those offsets.
//
// Thread-safety: none; one thread owns a writer.
#ifndef TOPICRAWL_STORE_WARC_WRITER_H_
#define TOPICRAWL_STORE_WARC_WRITER_H_

#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/status.h"
#include "core/write_behind.h"
#include "store/gzip_member.h"
#include "store/zstd_frame.h"

namespace topicrawl {

enum class WarcCompression { kGzip, kZstd };

struct WarcOptions {
  WarcCompression compression = WarcCompression::kGzip;
  int zstd_level = 3;
  // Records of the first file the zstd dictionary is trained on, and its
  // size limit (zstd's default dictionary size, 110 KiB).
  size_t zstd_dict_records = 1000;
  size_t zstd_dict_bytes = 112640;
  // Compression level per record on zlib's 0-9 scale, mapped onto ISA-L
  // igzip levels 0-3 (GzipMemberWriter::IgzipLevel(): 0 -> 0, 1-2 -> 1,
  // 3-5 -> 2, 6-9 -> 3). 1 (igzip 1, ~1 GB/s, about zlib 1's ratio) is the
  // default; 0 is igzip's fastest level (static Huffman, still compressed:
  // there is no stored mode).
  int compression_level = 1;
  // A new file is started before a group that would begin at or beyond this
  // many bytes (so files end up slightly above it).
  uint64_t max_file_bytes = uint64_t{1} << 30;
  // WARC-Payload-Digest (sha1, base32; section 5.9) on records with a
  // payload (responses): one SHA-1 pass over the body, ~4 ms per MB on this
  // machine under load (bench BM_Sha1).
  bool payload_digest = true;
  // WARC-Block-Digest (section 5.8) on every record: a second pass over each
  // body, so off by default.
  bool block_digest = false;
  // Bytes buffered in memory before they are written to the file.
  size_t buffer_bytes = size_t{4} << 20;
  // warcinfo fields (section 6.2; field names from Annex C of the spec).
  std::string software = "topicrawl/0.1.0";
  std::string is_part_of;   // "isPartOf": crawl name; omitted when empty
  std::string description;  // "description"; omitted when empty
};

// One named header or warc-fields line.
struct WarcField {
  std::string name;
  std::string value;
};

// A record to write. The writer fills WARC/1.1, WARC-Record-ID (unless set),
// WARC-Date, Content-Length and the digests; CR/LF in values become spaces.
struct WarcRecord {
  std::string type;          // "response", "request", "metadata", ...
  std::string record_id;     // "<urn:uuid:...>"; generated when empty
  int64_t date_unix_ms = 0;  // WARC-Date
  std::string target_uri;    // WARC-Target-URI; omitted when empty
  std::string content_type;  // Content-Type; omitted when empty
  std::vector<WarcField> headers;  // extra WARC headers, in order
  // The record block is `block` followed by `block_suffix`. The suffix is not
  // owned (avoids copying large bodies) and must stay valid during Append().
  std::string block;
  std::string_view block_suffix;
  // When true and digests are on, WARC-Payload-Digest is the digest of
  // block_suffix (the HTTP entity of a response record).
  bool suffix_is_payload = false;
};

// Where a group of records landed: file name (no directory), the offset of
// its first gzip member and the total bytes of its members.
struct WarcSpan {
  std::string file;
  uint64_t offset = 0;
  uint64_t length = 0;
};

// "<urn:uuid:xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx>" from a random generator.
std::string NewWarcRecordId(std::mt19937_64& rng);
// W3C-DTF UTC timestamp with milliseconds, e.g. "2024-05-01T12:00:00.123Z"
// (section 5.4 allows a precision finer than seconds).
std::string WarcDate(int64_t unix_ms);
// "topicrawl-<YYYYmmddHHMMSS>-<seq, 5 digits>.warc.gz" (".warc.zst" with
// zstd).
std::string WarcFileName(int64_t unix_ms, uint32_t seq, bool zstd = false);
// True for names WarcFileName() produces (either suffix); *seq receives the
// sequence number.
bool ParseWarcFileName(std::string_view name, uint32_t* seq);

class WarcWriter {
 public:
  // A writer for files in `dir` (which must exist), numbering files from
  // `first_seq`. Files are created with O_EXCL|O_NOFOLLOW: an existing file
  // or symlink of the same name is an error, never overwritten or followed.
  // `clock` must outlive the writer.
  static std::unique_ptr<WarcWriter> New(std::string dir, uint32_t first_seq,
                                         const WarcOptions& options,
                                         Clock* clock);
  ~WarcWriter();  // flushes; errors at this point are lost (call Flush()).

  WarcWriter(const WarcWriter&) = delete;
  WarcWriter& operator=(const WarcWriter&) = delete;

  // Appends `records` as consecutive gzip members of one file, rotating to a
  // new file first when the current one is full. On error nothing is
  // appended and the writer is unusable (later calls fail).
  StatusOr<WarcSpan> Append(const std::vector<WarcRecord>& records);

  // Writes buffered bytes to the OS (write(2); no fsync unless `sync`).
  Status Flush(bool sync = false);

  // Current file name ("" before the first Append) and its size in bytes,
  // including buffered bytes.
  const std::string& current_file() const { return file_name_; }
  uint64_t current_size() const { return file_size_; }
  uint32_t next_seq() const { return next_seq_; }
  // Random generator for record ids (callers creating ids for
  // WARC-Concurrent-To share it).
  std::mt19937_64& rng() { return rng_; }

 private:
  WarcWriter(std::string dir, uint32_t first_seq, const WarcOptions& options,
             Clock* clock);
  Status OpenNextFile();
  Status CloseFile();
  // Appends `record` as one gzip member (zstd frame) to buffer_.
  Status Compress(const WarcRecord& record);
  // zstd: keeps the first records as dictionary samples; trains the
  // dictionary when there are enough.
  void Sample(std::span<const std::string_view> pieces);
  Status MaybeTrainDictionary();
  // zstd: the newest dictionary of a .warc.zst file already in dir_.
  void LoadExistingDictionary();
  Status WriteAll(const char* data, size_t n);

  const std::string dir_;
  const WarcOptions options_;
  Clock* const clock_;
  uint32_t next_seq_;
  std::mt19937_64 rng_;
  int fd_ = -1;
  std::string file_name_;
  std::string warcinfo_id_;
  uint64_t file_size_ = 0;  // bytes in the file plus buffer_
  ByteBuffer buffer_;        // compressed bytes not yet written
  std::string head_;         // WARC header being built, reused
  GzipMemberWriter gzip_;
  ZstdFrameWriter zstd_;
  std::string dictionary_;             // zstd: trained or loaded; "" before
  std::vector<std::string> samples_;   // zstd: first records, until trained
  bool dictionary_done_ = false;       // trained, loaded, or given up
  bool rotate_ = false;                // start a new file before the next group
  WriteBehind behind_;       // written bytes leave the page cache (see .cc)
  Status error_;             // sticky
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_WARC_WRITER_H_
