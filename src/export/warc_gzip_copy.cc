#include "export/warc_gzip_copy.h"

#include <cerrno>
#include <cstring>
#include <string_view>

namespace topicrawl {
namespace {

struct GzipCopyFileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};

bool WarcNameEndsWith(const std::string& s, std::string_view suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool IsZstdWarcName(const std::string& name) { return WarcNameEndsWith(name, ".warc.zst"); }

std::string GzipWarcName(const std::string& name) {
  if (!IsZstdWarcName(name)) return name;
  return name.substr(0, name.size() - 4) + ".gz";
}

std::string SerializeWarcRecord(const ParsedWarcRecord& record) {
  std::string out = record.version + "\r\n";
  for (const WarcField& f : record.headers) {
    out += f.name;
    out += ": ";
    out += f.value;
    out += "\r\n";
  }
  out += "\r\n";
  out += record.block;
  out += "\r\n\r\n";
  return out;
}

Status GzipRecordSink::Write(const ParsedWarcRecord& record) {
  const std::string bytes = SerializeWarcRecord(record);
  const std::string_view pieces[] = {bytes};
  buffer_.clear();
  if (Status s = gzip_.Append(pieces, &buffer_); !s.ok()) return s;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), out_) != buffer_.size()) {
    return Status::Error(std::string("write failed: ") + std::strerror(errno));
  }
  return Status::Ok();
}

Status RecompressWarcFile(const std::string& src, const std::string& dst) {
  std::unique_ptr<FILE, GzipCopyFileCloser> out(std::fopen(dst.c_str(), "wb"));
  if (!out) return Status::Error("cannot write " + dst + ": " + std::strerror(errno));
  GzipRecordSink sink(out.get());
  Status error;
  Status s = ReadWarcFile(src, [&](ParsedWarcRecord& r) {
    error = sink.Write(r);
    return error.ok();
  });
  if (!s.ok()) return Status::Error(src + ": " + s.message());
  if (!error.ok()) return error;
  if (std::fflush(out.get()) != 0) return Status::Error("write failed for " + dst);
  return Status::Ok();
}

Status RecompressWarcRange(const std::string& src, uint64_t begin, uint64_t end,
                           GzipRecordSink* sink) {
  uint64_t at = begin;
  while (at < end) {
    StatusOr<ParsedWarcRecord> r = ReadWarcRecordAt(src, at);
    if (!r.ok()) return Status::Error(src + ": " + r.status().message());
    if (r->length == 0 || r->offset + r->length <= at) {
      return Status::Error(src + ": no progress reading records at offset " +
                           std::to_string(at));
    }
    if (Status s = sink->Write(*r); !s.ok()) return s;
    at = r->offset + r->length;
  }
  return Status::Ok();
}

}  // namespace topicrawl
