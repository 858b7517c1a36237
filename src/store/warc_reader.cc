#include "store/warc_reader.h"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <strings.h>

namespace topicrawl {
namespace {

struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

std::string At(uint64_t offset) { return " at offset " + std::to_string(offset); }

// Inflates gzip members one by one from a FILE, reporting each member's
// compressed offset and length.
class MemberReader {
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
            Status* status) {
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

  // Positions the reader at `offset` (for a single-record read).
  bool Seek(uint64_t offset) {
    if (fseeko(file_, static_cast<off_t>(offset), SEEK_SET) != 0) return false;
    position_ = offset;
    z_.avail_in = 0;
    return true;
  }

  const Status& read_error() const { return read_error_; }

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
  MemberReader reader(f.get());
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
  MemberReader reader(f.get());
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
