#include "store/warc_reader.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <strings.h>

#include "store/zstd_frame.h"

namespace topicrawl {
namespace {

struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

std::string At(uint64_t offset) { return " at offset " + std::to_string(offset); }

// Reads a WARC file one compressed record (gzip member or zstd frame) at a
// time, reporting each one's offset and compressed length.
class RecordReader {
 public:
  virtual ~RecordReader() = default;
  // Next record into *out. Returns false at a clean end of file (*status
  // OK) or on an error (*status says why).
  virtual bool Next(std::string* out, uint64_t* offset, uint64_t* length, Status* status) = 0;
  // Positions the reader at `offset` (for a single-record read).
  virtual bool Seek(uint64_t offset) = 0;
  virtual Status read_error() const = 0;
};

// Inflates gzip members one by one from a FILE, reporting each member's
// compressed offset and length.
class MemberReader : public RecordReader {
 public:
  explicit MemberReader(FILE* f) : file_(f) {
    std::memset(&z_, 0, sizeof(z_));
    ok_ = inflateInit2(&z_, 15 + 16) == Z_OK;
  }
  ~MemberReader() {
    if (ok_) inflateEnd(&z_);
  }

  // Next member into *out. Returns false at a clean end of file (*status OK)
  // or on an error (*status says why).
  bool Next(std::string* out, uint64_t* offset, uint64_t* length,
            Status* status) override {
    *status = Status::Ok();
    out->clear();
    if (!ok_) {
      *status = Status::Error("zlib inflateInit2 failed");
      return false;
    }
    if (!Fill()) return false;  // clean EOF, or read error in status_
    *offset = position_;
    inflateReset(&z_);
    uint64_t consumed = 0;
    char chunk[1 << 16];
    while (true) {
      if (z_.avail_in == 0 && !Fill()) {
        *status = read_error_.ok()
                      ? Status::Error("truncated gzip member" + At(*offset))
                      : read_error_;
        return false;
      }
      z_.next_out = reinterpret_cast<Bytef*>(chunk);
      z_.avail_out = sizeof(chunk);
      const uInt before = z_.avail_in;
      int rc = inflate(&z_, Z_NO_FLUSH);
      consumed += before - z_.avail_in;
      out->append(chunk, sizeof(chunk) - z_.avail_out);
      if (rc == Z_STREAM_END) break;
      if (rc != Z_OK && rc != Z_BUF_ERROR) {
        *status = Status::Error(std::string("corrupt gzip member (") +
                                (z_.msg ? z_.msg : "zlib error") + ")" +
                                At(*offset));
        return false;
      }
    }
    *length = consumed;
    position_ += consumed;
    return true;
  }

  bool Seek(uint64_t offset) override {
    if (fseeko(file_, static_cast<off_t>(offset), SEEK_SET) != 0) return false;
    position_ = offset;
    z_.avail_in = 0;
    return true;
  }

  Status read_error() const override { return read_error_; }

 private:
  // Ensures input is available; false at EOF or on a read error.
  bool Fill() {
    if (z_.avail_in > 0) return true;
    size_t n = std::fread(in_, 1, sizeof(in_), file_);
    if (n == 0) {
      if (std::ferror(file_)) {
        read_error_ = Status::Error(std::string("read error: ") +
                                    std::strerror(errno));
      }
      return false;
    }
    z_.next_in = in_;
    z_.avail_in = static_cast<uInt>(n);
    return true;
  }

  FILE* file_;
  z_stream z_;
  bool ok_ = false;
  Bytef in_[1 << 16];
  uint64_t position_ = 0;
  Status read_error_;
};

uint32_t ZstLe32(const unsigned char* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// Decompresses the zstd frames of a .warc.zst file (store/zstd_frame.h):
// the dictionary of a leading dict-frame is loaded first, other skippable
// (extension) frames are skipped.
class ZstdReader : public RecordReader {
 public:
  explicit ZstdReader(FILE* f) : file_(f), dctx_(ZSTD_createDCtx()) {}
  ~ZstdReader() override { ZSTD_freeDCtx(dctx_); }

  // Reads the dictionary frame at the start of the file, if there is one.
  Status LoadDictionary() {
    if (!Reposition(0)) return Status::Error("cannot seek");
    if (!Ensure(8) || ZstLe32(in_ + pos_) != kWarcZstdDictMagic) return Status::Ok();
    const uint32_t size = ZstLe32(in_ + pos_ + 4);
    if (size > (16u << 20)) {  // ZDICT makes ~110 KiB; a bigger one is damage
      return Status::Error("zstd dictionary frame of " + std::to_string(size) +
                           " bytes at offset 0 (more than 16 MiB)");
    }
    pos_ += 8;
    position_ += 8;
    std::string dict;
    if (!Take(size, &dict)) return Status::Error("truncated zstd dictionary frame at offset 0");
    if (dict.size() >= 4 && ZstLe32(reinterpret_cast<const unsigned char*>(dict.data())) ==
                                0xFD2FB528u) {  // a compressed dictionary
      const unsigned long long n = ZSTD_getFrameContentSize(dict.data(), dict.size());
      if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n > (16u << 20)) {
        return Status::Error("unreadable compressed zstd dictionary");
      }
      std::string raw(n, '\0');
      const size_t rc = ZSTD_decompress(raw.data(), raw.size(), dict.data(), dict.size());
      if (ZSTD_isError(rc)) return Status::Error("unreadable compressed zstd dictionary");
      dict = std::move(raw);
    }
    const size_t rc = ZSTD_DCtx_loadDictionary(dctx_, dict.data(), dict.size());
    if (ZSTD_isError(rc)) return Status::Error(std::string("zstd dictionary: ") + ZSTD_getErrorName(rc));
    return Status::Ok();
  }

  bool Next(std::string* out, uint64_t* offset, uint64_t* length, Status* status) override {
    *status = Status::Ok();
    out->clear();
    while (Ensure(4) && (ZstLe32(in_ + pos_) & 0xFFFFFFF0u) == 0x184D2A50u) {  // skippable
      if (!Ensure(8)) break;
      const uint64_t skip = 8 + uint64_t(ZstLe32(in_ + pos_ + 4));
      if (!Take(skip, nullptr)) {
        *status = Status::Error("truncated skippable frame" + At(position_));
        return false;
      }
    }
    if (pos_ == len_) {
      if (!read_error_.ok()) *status = read_error_;
      return false;  // clean end
    }
    *offset = position_;
    ZSTD_DCtx_reset(dctx_, ZSTD_reset_session_only);
    char chunk[1 << 16];
    while (true) {
      if (pos_ == len_ && !Ensure(1)) {
        *status = read_error_.ok() ? Status::Error("truncated zstd frame" + At(*offset)) : read_error_;
        return false;
      }
      ZSTD_inBuffer in{in_ + pos_, len_ - pos_, 0};
      ZSTD_outBuffer o{chunk, sizeof(chunk), 0};
      const size_t rc = ZSTD_decompressStream(dctx_, &o, &in);
      pos_ += in.pos;
      position_ += in.pos;
      out->append(chunk, o.pos);
      if (ZSTD_isError(rc)) {
        *status = Status::Error(std::string("corrupt zstd frame (") + ZSTD_getErrorName(rc) + ")" +
                                At(*offset));
        return false;
      }
      if (rc == 0) break;
    }
    *length = position_ - *offset;
    return true;
  }

  bool Seek(uint64_t offset) override { return Reposition(offset); }
  Status read_error() const override { return read_error_; }

 private:
  bool Reposition(uint64_t offset) {
    if (fseeko(file_, static_cast<off_t>(offset), SEEK_SET) != 0) return false;
    position_ = offset;
    pos_ = len_ = 0;
    return true;
  }

  // At least n (<= buffer) unread bytes buffered; false at end of file.
  bool Ensure(size_t n) {
    if (len_ - pos_ >= n) return true;
    std::memmove(in_, in_ + pos_, len_ - pos_);
    len_ -= pos_;
    pos_ = 0;
    while (len_ < n) {
      const size_t got = std::fread(in_ + len_, 1, sizeof(in_) - len_, file_);
      if (got == 0) {
        if (std::ferror(file_)) read_error_ = Status::Error(std::string("read error: ") + std::strerror(errno));
        return false;
      }
      len_ += got;
    }
    return true;
  }

  // Consumes n bytes (into *out when not null); false when the file ends.
  bool Take(uint64_t n, std::string* out) {
    while (n > 0) {
      if (pos_ == len_ && !Ensure(1)) return false;
      const size_t k = static_cast<size_t>(std::min<uint64_t>(n, len_ - pos_));
      if (out != nullptr) out->append(reinterpret_cast<const char*>(in_ + pos_), k);
      pos_ += k;
      position_ += k;
      n -= k;
    }
    return true;
  }

  FILE* file_;
  ZSTD_DCtx* dctx_;
  unsigned char in_[1 << 16];
  size_t pos_ = 0, len_ = 0;
  uint64_t position_ = 0;  // file offset of in_[pos_]
  Status read_error_;
};

// The reader for the file's compression (zstd by its first four bytes).
StatusOr<std::unique_ptr<RecordReader>> OpenReader(FILE* f) {
  unsigned char magic[4] = {0, 0, 0, 0};
  const size_t n = std::fread(magic, 1, 4, f);
  std::rewind(f);
  if (n == 4 && (ZstLe32(magic) == 0xFD2FB528u || ZstLe32(magic) == kWarcZstdDictMagic)) {
    auto z = std::make_unique<ZstdReader>(f);
    if (Status s = z->LoadDictionary(); !s.ok()) return s;
    if (!z->Seek(0)) return Status::Error("cannot seek");
    return std::unique_ptr<RecordReader>(std::move(z));
  }
  return std::unique_ptr<RecordReader>(std::make_unique<MemberReader>(f));
}

}  // namespace

std::string_view ParsedWarcRecord::Header(std::string_view name) const {
  for (const WarcField& f : headers) {
    if (f.name.size() == name.size() &&
        strncasecmp(f.name.data(), name.data(), name.size()) == 0) {
      return f.value;
    }
  }
  return {};
}

Status ParseWarcRecord(std::string_view data, ParsedWarcRecord* out) {
  out->headers.clear();
  out->block.clear();
  size_t eol = data.find("\r\n");
  if (eol == std::string_view::npos || data.substr(0, 7) != "WARC/1.") {
    return Status::Error("missing WARC version line");
  }
  out->version = std::string(data.substr(0, eol));
  size_t pos = eol + 2;
  int64_t content_length = -1;
  while (true) {
    eol = data.find("\r\n", pos);
    if (eol == std::string_view::npos) {
      return Status::Error("unterminated WARC header");
    }
    if (eol == pos) break;  // empty line ends the header
    std::string_view line = data.substr(pos, eol - pos);
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return Status::Error("malformed WARC header line: " + std::string(line));
    }
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
      value.remove_prefix(1);
    }
    out->headers.push_back({std::string(line.substr(0, colon)),
                            std::string(value)});
    // Length first: `line` is a view into the input, not NUL-terminated, so
    // strncasecmp may only see the 14 bytes the name has (found by
    // fuzz_warc: the check in the other order read past a short last line).
    if (colon == 14 && strncasecmp(line.data(), "Content-Length", 14) == 0) {
      content_length = 0;
      if (value.empty()) return Status::Error("empty Content-Length");
      for (char c : value) {
        if (c < '0' || c > '9') return Status::Error("bad Content-Length");
        content_length = content_length * 10 + (c - '0');
        if (content_length > (int64_t{1} << 40)) {
          return Status::Error("Content-Length too large");
        }
      }
    }
    pos = eol + 2;
  }
  if (content_length < 0) return Status::Error("missing Content-Length");
  pos += 2;
  const uint64_t rest = data.size() - pos;
  if (rest < uint64_t(content_length) + 4) {
    return Status::Error("block shorter than Content-Length");
  }
  if (rest > uint64_t(content_length) + 4) {
    return Status::Error("bytes after the record end");
  }
  if (data.substr(pos + content_length) != "\r\n\r\n") {
    return Status::Error("record not terminated by CRLF CRLF");
  }
  out->block = std::string(data.substr(pos, content_length));
  if (out->Header("WARC-Type").empty() ||
      out->Header("WARC-Record-ID").empty() ||
      out->Header("WARC-Date").empty()) {
    return Status::Error("missing a mandatory WARC field");
  }
  return Status::Ok();
}

Status ReadWarcFile(const std::string& path,
                    const std::function<bool(ParsedWarcRecord&)>& visit) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) {
    return Status::Error("cannot open " + path + ": " + std::strerror(errno));
  }
  auto opened = OpenReader(f.get());
  if (!opened.ok()) return Status::Error(path + ": " + opened.status().message());
  RecordReader& reader = **opened;
  std::string data;
  ParsedWarcRecord record;
  Status status;
  while (reader.Next(&data, &record.offset, &record.length, &status)) {
    if (Status s = ParseWarcRecord(data, &record); !s.ok()) {
      return Status::Error(path + At(record.offset) + ": " + s.message());
    }
    if (!visit(record)) return Status::Ok();
  }
  if (!status.ok()) return Status::Error(path + ": " + status.message());
  if (!reader.read_error().ok()) {
    return Status::Error(path + ": " + reader.read_error().message());
  }
  return Status::Ok();
}

StatusOr<ParsedWarcRecord> ReadWarcRecordAt(const std::string& path,
                                            uint64_t offset) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) {
    return Status::Error("cannot open " + path + ": " + std::strerror(errno));
  }
  auto opened = OpenReader(f.get());
  if (!opened.ok()) return Status::Error(path + ": " + opened.status().message());
  RecordReader& reader = **opened;
  if (!reader.Seek(offset)) return Status::Error("cannot seek in " + path);
  std::string data;
  ParsedWarcRecord record;
  Status status;
  if (!reader.Next(&data, &record.offset, &record.length, &status)) {
    return status.ok() ? Status::Error(path + ": no record" + At(offset))
                       : Status::Error(path + ": " + status.message());
  }
  if (Status s = ParseWarcRecord(data, &record); !s.ok()) {
    return Status::Error(path + At(offset) + ": " + s.message());
  }
  return record;
}

bool SplitHttpBlock(std::string_view block, std::string_view* head,
                    std::string_view* body) {
  size_t end = block.find("\r\n\r\n");
  if (end == std::string_view::npos) return false;
  *head = block.substr(0, end + 4);
  *body = block.substr(end + 4);
  return true;
}

}  // namespace topicrawl
