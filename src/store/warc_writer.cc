#include "store/warc_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "store/sha1.h"

namespace topicrawl {
namespace {

constexpr char kConformsTo[] =
    "http://iipc.github.io/warc-specifications/specifications/warc-format/"
    "warc-1.1/";

// Header values must stay on one line (section 4: CRLF ends a field).
void AppendField(std::string* out, std::string_view name,
                 std::string_view value) {
  out->append(name);
  out->append(": ");
  for (size_t cut; (cut = value.find_first_of("\r\n")) != value.npos;) {
    out->append(value.substr(0, cut));
    out->push_back(' ');
    value.remove_prefix(cut + 1);
  }
  out->append(value);
  out->append("\r\n");
}

std::string ErrnoText(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace

std::string NewWarcRecordId(std::mt19937_64& rng) {
  uint64_t hi = rng(), lo = rng();
  hi = (hi & ~uint64_t{0xF000}) | 0x4000;                     // version 4
  lo = (lo & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);  // variant 10
  char buf[64];
  std::snprintf(buf, sizeof(buf),
                "<urn:uuid:%08x-%04x-%04x-%04x-%012llx>",
                unsigned(hi >> 32), unsigned((hi >> 16) & 0xFFFF),
                unsigned(hi & 0xFFFF), unsigned(lo >> 48),
                static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFull));
  return buf;
}

std::string WarcDate(int64_t unix_ms) {
  int64_t secs = unix_ms / 1000, ms = unix_ms % 1000;
  if (ms < 0) {
    ms += 1000;
    --secs;
  }
  time_t t = static_cast<time_t>(secs);
  struct tm tm;
  gmtime_r(&t, &tm);
  char buf[96];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                tm.tm_min, tm.tm_sec, int(ms));
  return buf;
}

std::string WarcFileName(int64_t unix_ms, uint32_t seq, bool zstd) {
  time_t t = static_cast<time_t>(unix_ms / 1000);
  struct tm tm;
  gmtime_r(&t, &tm);
  char buf[128];
  std::snprintf(buf, sizeof(buf),
                "topicrawl-%04d%02d%02d%02d%02d%02d-%05u.warc.%s",
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                tm.tm_min, tm.tm_sec, seq, zstd ? "zst" : "gz");
  return buf;
}

bool ParseWarcFileName(std::string_view name, uint32_t* seq) {
  constexpr std::string_view kPrefix = "topicrawl-";
  const std::string_view kSuffix =
      name.size() > 9 && name.substr(name.size() - 9) == ".warc.zst" ? ".warc.zst" : ".warc.gz";
  if (name.size() < kPrefix.size() + 14 + 1 + 5 + kSuffix.size() ||
      name.substr(0, kPrefix.size()) != kPrefix ||
      name.substr(name.size() - kSuffix.size()) != kSuffix) {
    return false;
  }
  std::string_view mid = name.substr(
      kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
  if (mid.size() < 20 || mid[14] != '-') return false;
  uint64_t value = 0;
  for (size_t i = 0; i < mid.size(); ++i) {
    if (i == 14) continue;
    if (mid[i] < '0' || mid[i] > '9') return false;
    if (i > 14) value = value * 10 + (mid[i] - '0');
    if (value > 0xFFFFFFFFull) return false;
  }
  if (seq != nullptr) *seq = static_cast<uint32_t>(value);
  return true;
}

std::unique_ptr<WarcWriter> WarcWriter::New(std::string dir,
                                            uint32_t first_seq,
                                            const WarcOptions& options,
                                            Clock* clock) {
  return std::unique_ptr<WarcWriter>(
      new WarcWriter(std::move(dir), first_seq, options, clock));
}

WarcWriter::WarcWriter(std::string dir, uint32_t first_seq,
                       const WarcOptions& options, Clock* clock)
    : dir_(std::move(dir)),
      options_(options),
      clock_(clock),
      next_seq_(first_seq),
      rng_(std::random_device{}() ^
           (uint64_t(::getpid()) << 32) ^
           static_cast<uint64_t>(clock->UnixMillis())),
      gzip_(options.compression_level),
      zstd_(options.zstd_level) {}

WarcWriter::~WarcWriter() { (void)CloseFile(); }

Status WarcWriter::OpenNextFile() {
  if (Status s = CloseFile(); !s.ok()) return s;
  const int64_t now = clock_->UnixMillis();
  const bool zstd = options_.compression == WarcCompression::kZstd;
  if (zstd && !dictionary_done_ && dictionary_.empty()) LoadExistingDictionary();
  std::string name = WarcFileName(now, next_seq_, zstd);
  std::string path = dir_ + "/" + name;
  // O_EXCL: never reuse or clobber a file; O_NOFOLLOW: never write through a
  // symlink planted in the directory.
  int fd = ::open(path.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error(ErrnoText("cannot create WARC file", path));
  ++next_seq_;
  fd_ = fd;
  file_name_ = std::move(name);
  file_size_ = 0;
  behind_.Reset();

  WarcRecord info;
  info.type = "warcinfo";
  info.date_unix_ms = now;
  info.content_type = "application/warc-fields";
  info.headers.push_back({"WARC-Filename", file_name_});
  AppendField(&info.block, "software", options_.software);
  AppendField(&info.block, "format", "WARC File Format 1.1");
  AppendField(&info.block, "conformsTo", kConformsTo);
  if (!options_.is_part_of.empty()) {
    AppendField(&info.block, "isPartOf", options_.is_part_of);
  }
  if (!options_.description.empty()) {
    AppendField(&info.block, "description", options_.description);
  }
  warcinfo_id_.clear();  // the warcinfo record does not refer to itself
  info.record_id = NewWarcRecordId(rng_);
  const size_t before = buffer_.size();
  if (zstd) {
    if (!dictionary_.empty()) buffer_.Append(WarcZstdDictFrame(dictionary_));
    if (Status s = zstd_.SetDictionary(dictionary_); !s.ok()) return s;
  }
  if (Status s = Compress(info); !s.ok()) return s;
  warcinfo_id_ = info.record_id;
  file_size_ += buffer_.size() - before;
  return Status::Ok();
}

Status WarcWriter::CloseFile() {
  if (fd_ < 0) return Status::Ok();
  Status s = Flush();
  if (::close(fd_) != 0 && s.ok()) {
    s = Status::Error(ErrnoText("close failed for", dir_ + "/" + file_name_));
  }
  fd_ = -1;
  return s;
}

StatusOr<WarcSpan> WarcWriter::Append(const std::vector<WarcRecord>& records) {
  if (!error_.ok()) return error_;
  if (fd_ < 0 || file_size_ >= options_.max_file_bytes || rotate_) {
    rotate_ = false;
    if (Status s = OpenNextFile(); !s.ok()) {
      error_ = s;
      return s;
    }
  }
  WarcSpan span{file_name_, file_size_, 0};
  const size_t buffer_start = buffer_.size();
  for (const WarcRecord& record : records) {
    if (Status s = Compress(record); !s.ok()) {
      buffer_.Truncate(buffer_start);
      error_ = s;
      return s;
    }
  }
  span.length = buffer_.size() - buffer_start;
  file_size_ += span.length;
  if (Status s = MaybeTrainDictionary(); !s.ok()) return s;
  if (buffer_.size() >= options_.buffer_bytes) {
    if (Status s = Flush(); !s.ok()) return s;
  }
  return span;
}

Status WarcWriter::Compress(const WarcRecord& record) {
  std::string& head = head_;
  head.assign("WARC/1.1\r\n");
  AppendField(&head, "WARC-Type", record.type);
  AppendField(&head, "WARC-Record-ID", record.record_id.empty()
                                           ? NewWarcRecordId(rng_)
                                           : record.record_id);
  AppendField(&head, "WARC-Date", WarcDate(record.date_unix_ms));
  if (!record.target_uri.empty()) {
    AppendField(&head, "WARC-Target-URI", record.target_uri);
  }
  if (!warcinfo_id_.empty()) AppendField(&head, "WARC-Warcinfo-ID", warcinfo_id_);
  for (const WarcField& f : record.headers) AppendField(&head, f.name, f.value);
  const size_t block_length = record.block.size() + record.block_suffix.size();
  if (options_.block_digest) {
    AppendField(&head, "WARC-Block-Digest",
                WarcSha1Digest(record.block, record.block_suffix));
  }
  if (options_.payload_digest && record.suffix_is_payload) {
    AppendField(&head, "WARC-Payload-Digest",
                WarcSha1Digest(record.block_suffix));
  }
  if (!record.content_type.empty()) {
    AppendField(&head, "Content-Type", record.content_type);
  }
  AppendField(&head, "Content-Length", std::to_string(block_length));
  head.append("\r\n");

  // Section 4: the block is followed by two CRLFs. The pieces are deflated
  // where they lie, straight into buffer_ (no concatenation, no zero fill).
  const std::string_view pieces[] = {head, record.block, record.block_suffix,
                                     "\r\n\r\n"};
  if (options_.compression == WarcCompression::kZstd) {
    if (!dictionary_done_) Sample(pieces);
    return zstd_.Append(pieces, &buffer_);
  }
  return gzip_.Append(pieces, &buffer_);
}

void WarcWriter::Sample(std::span<const std::string_view> pieces) {
  // A sample is a record's first 64 KiB: headers and the start of the
  // page, where pages of one site repeat themselves.
  constexpr size_t kSampleBytes = 64 * 1024;
  std::string sample;
  for (std::string_view p : pieces) {
    sample.append(p.substr(0, kSampleBytes - sample.size()));
    if (sample.size() == kSampleBytes) break;
  }
  samples_.push_back(std::move(sample));
}

Status WarcWriter::MaybeTrainDictionary() {
  if (options_.compression != WarcCompression::kZstd || dictionary_done_ ||
      samples_.size() < options_.zstd_dict_records) {
    return Status::Ok();
  }
  dictionary_done_ = true;
  StatusOr<std::string> dict = TrainWarcDictionary(samples_, options_.zstd_dict_bytes);
  std::vector<std::string>().swap(samples_);
  // Without a dictionary (zstd could not train one) files go on without.
  if (dict.ok()) {
    dictionary_ = std::move(*dict);
    rotate_ = true;
  }
  return Status::Ok();
}

void WarcWriter::LoadExistingDictionary() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir_, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() > 9 && name.substr(name.size() - 9) == ".warc.zst" &&
        ParseWarcFileName(name, nullptr)) {
      names.push_back(name);
    }
  }
  std::sort(names.rbegin(), names.rend());
  for (const std::string& name : names) {
    std::string dict = ReadWarcZstdDictionary(dir_ + "/" + name);
    if (!dict.empty()) {
      dictionary_ = std::move(dict);
      dictionary_done_ = true;
      return;
    }
  }
}

Status WarcWriter::WriteAll(const char* data, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd_, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::Error(ErrnoText("write failed for", dir_ + "/" + file_name_));
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return Status::Ok();
}

Status WarcWriter::Flush(bool sync) {
  if (!error_.ok()) return error_;
  if (fd_ < 0) return Status::Ok();
  if (!buffer_.empty()) {
    Status s = WriteAll(buffer_.data(), buffer_.size());
    buffer_.clear();
    // One giant record may have grown the buffer far beyond its usual size.
    if (buffer_.capacity() > 4 * options_.buffer_bytes) buffer_.Release();
    if (!s.ok()) {
      error_ = s;
      return s;
    }
    // Why: a WARC file is written once and not read during the crawl (2.6
    // KB a page, 2.5 GB per 10^6 pages of the synthetic web), so its pages
    // leave the cache a chunk behind (core/write_behind.h) instead of
    // growing it and crowding out crawl.db's.
    behind_.Written(fd_, file_size_);
  }
  if (sync && ::fdatasync(fd_) != 0) {
    error_ = Status::Error(ErrnoText("fdatasync failed for", file_name_));
    return error_;
  }
  return Status::Ok();
}

}  // namespace topicrawl
