#include "frontier/spill_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace topicrawl {
namespace {

// url_id, score, seq, parent | depth, attempt, url length, anchor length.
constexpr size_t kHeaderBytes = 4 * 8 + 4 * 4;
constexpr size_t kReadChunk = 16 * 1024;

template <typename T>
void Put(std::string* out, T value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof(value));
}

template <typename T>
T Get(const char*& p) {
  T value;
  std::memcpy(&value, p, sizeof(value));
  p += sizeof(value);
  return value;
}

void Encode(const SpillRecord& r, std::string* out) {
  Put(out, r.url_id);
  Put(out, r.score);
  Put(out, r.seq);
  Put(out, r.parent_page_id);
  Put(out, r.depth);
  Put(out, r.attempt);
  Put(out, static_cast<uint32_t>(r.url.size()));
  Put(out, static_cast<uint32_t>(r.anchor.size()));
  out->append(r.url);
  out->append(r.anchor);
}

std::string ErrnoText(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace

StatusOr<std::unique_ptr<SpillFile>> SpillFile::Create(
    const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error(ErrnoText("cannot create spill file", path));
  return std::unique_ptr<SpillFile>(new SpillFile(fd, path));
}

SpillFile::~SpillFile() { ::close(fd_); }

StatusOr<SpillSegment> SpillFile::Append(
    const std::vector<SpillRecord>& records) {
  std::string bytes;
  for (const SpillRecord& r : records) Encode(r, &bytes);
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done,
                         static_cast<off_t>(size_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::Error(ErrnoText("spill write failed", path_));
    done += static_cast<size_t>(n);
  }
  SpillSegment segment{size_, size_ + bytes.size(), records.size()};
  size_ += bytes.size();
  behind_.Written(fd_, size_);
  return segment;
}

Status SpillFile::Truncate() {
  if (::ftruncate(fd_, 0) != 0) {
    return Status::Error(ErrnoText("spill truncate failed", path_));
  }
  size_ = 0;
  behind_.Reset();
  return Status::Ok();
}

Status SpillFile::ReadAt(uint64_t offset, size_t length,
                         std::string* out) const {
  out->resize(length);
  size_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd_, out->data() + done, length - done,
                        static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::Error(ErrnoText("spill read failed", path_));
    if (n == 0) return Status::Error("spill file truncated: " + path_);
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

SpillCursor::SpillCursor(const SpillFile* file, SpillSegment* segment)
    : file_(file), segment_(segment), buffer_offset_(segment->begin) {
  ReadHead();
}

bool SpillCursor::Fill(size_t need) {
  if (buffer_.size() - buffer_pos_ >= need) return true;
  uint64_t offset = buffer_offset_ + buffer_pos_;
  uint64_t available = segment_->end - offset;
  if (available < need) {
    status_ = Status::Error("spill segment shorter than its records: " +
                            file_->path());
    return false;
  }
  size_t length = static_cast<size_t>(
      std::min<uint64_t>(available, std::max(need, kReadChunk)));
  Status s = file_->ReadAt(offset, length, &buffer_);
  if (!s.ok()) {
    status_ = s;
    return false;
  }
  buffer_offset_ = offset;
  buffer_pos_ = 0;
  return true;
}

void SpillCursor::ReadHead() {
  has_head_ = false;
  if (segment_->remaining == 0 || !status_.ok()) return;
  if (!Fill(kHeaderBytes)) return;
  const char* p = buffer_.data() + buffer_pos_;
  head_.url_id = Get<UrlId>(p);
  head_.score = Get<double>(p);
  head_.seq = Get<uint64_t>(p);
  head_.parent_page_id = Get<PageId>(p);
  head_.depth = Get<uint32_t>(p);
  head_.attempt = Get<uint32_t>(p);
  uint32_t url_length = Get<uint32_t>(p);
  uint32_t anchor_length = Get<uint32_t>(p);
  size_t total = kHeaderBytes + url_length + anchor_length;
  if (!Fill(total)) return;
  p = buffer_.data() + buffer_pos_ + kHeaderBytes;
  head_.url.assign(p, url_length);
  head_.anchor.assign(p + url_length, anchor_length);
  head_bytes_ = total;
  has_head_ = true;
}

SpillRecord SpillCursor::Consume() {
  SpillRecord out = std::move(head_);
  buffer_pos_ += head_bytes_;
  segment_->begin += head_bytes_;
  segment_->remaining -= 1;
  ReadHead();
  return out;
}

}  // namespace topicrawl
