#include "core/write_behind.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/test_require.h"
#include "gtest/gtest.h"

namespace topicrawl {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

class WriteBehindTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TMPDIR");
    ASSERT_TRUE(OpenIn(tmp && *tmp ? tmp : "/tmp"));
  }
  void TearDown() override { Close(); }
  // A fresh file in `dir`; false when it cannot be created.
  bool OpenIn(const std::string& dir) {
    Close();
    path_ = dir + "/write_behind_XXXXXX";
    fd_ = ::mkstemp(path_.data());
    size_ = 0;
    return fd_ >= 0;
  }
  void Close() {
    if (fd_ < 0) return;
    ::close(fd_);
    ::unlink(path_.c_str());
    fd_ = -1;
  }
  // An open file whose pages the kernel can drop (not on a tmpfs).
  bool Droppable() const {
    struct statfs fs;
    return fd_ >= 0 && ::fstatfs(fd_, &fs) == 0 && fs.f_type != 0x01021994;  // TMPFS_MAGIC
  }
  // Appends `n` bytes and tells `wb`.
  void Append(WriteBehind* wb, uint64_t n) {
    std::string block(n, 'x');
    ASSERT_EQ(::pwrite(fd_, block.data(), n, static_cast<off_t>(size_)),
              static_cast<ssize_t>(n));
    size_ += n;
    wb->Written(fd_, size_);
  }
  // Pages of [begin, end) in the page cache (mincore).
  size_t Resident(uint64_t begin, uint64_t end) {
    void* map = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd_, 0);
    EXPECT_NE(map, MAP_FAILED);
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> vec((size_ + page - 1) / page);
    EXPECT_EQ(::mincore(map, size_, vec.data()), 0);
    size_t n = 0;
    for (uint64_t p = begin / page; p < (end + page - 1) / page; ++p) n += vec[p] & 1;
    ::munmap(map, size_);
    return n;
  }

  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

TEST_F(WriteBehindTest, StartsWholeChunksAndDropsThoseAChunkBehind) {
  WriteBehind wb(4 * kMiB);
  Append(&wb, 3 * kMiB);  // less than a chunk: nothing yet
  EXPECT_EQ(wb.started(), 0u);
  EXPECT_EQ(wb.dropped(), 0u);
  Append(&wb, 2 * kMiB);  // 5 MiB: the first chunk's writeback starts
  EXPECT_EQ(wb.started(), 4 * kMiB);
  EXPECT_EQ(wb.dropped(), 0u);  // nothing is a whole chunk behind yet
  Append(&wb, 4 * kMiB);  // 9 MiB: chunk 2 starts, chunk 1 is dropped
  EXPECT_EQ(wb.started(), 8 * kMiB);
  EXPECT_EQ(wb.dropped(), 4 * kMiB);
  Append(&wb, 11 * kMiB);  // 20 MiB in one write: three chunks at once
  EXPECT_EQ(wb.started(), 20 * kMiB);
  EXPECT_EQ(wb.dropped(), 16 * kMiB);
  wb.Written(fd_, size_);  // nothing new: no change
  EXPECT_EQ(wb.dropped(), 16 * kMiB);
}

TEST_F(WriteBehindTest, DroppedRangeLeavesThePageCacheAndReadsBackIntact) {
  // On a tmpfs memory is the file: its pages cannot be dropped. Another
  // directory then: /var/tmp, else the working directory (ctest: the build
  // tree).
  for (const char* dir : {"/var/tmp", "."}) {
    if (Droppable()) break;
    OpenIn(dir);
  }
  if (!Droppable()) TOPICRAWL_SKIP_UNLESS_REQUIRED("TMPDIR, /var/tmp and . are all tmpfs");
  WriteBehind wb(2 * kMiB);
  for (int i = 0; i < 16; ++i) Append(&wb, kMiB);  // 16 MiB in 1 MiB writes
  ASSERT_EQ(wb.dropped(), 14 * kMiB);
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  // The dropped 14 MiB are (almost) gone; the last two chunks stay cached.
  EXPECT_LE(Resident(0, wb.dropped()), 14 * kMiB / page / 100);
  EXPECT_GT(Resident(wb.dropped(), size_), 0u);
  // Dropping is advice on caching only: the bytes read back unchanged.
  std::string back(size_, '\0');
  ASSERT_EQ(::pread(fd_, back.data(), size_, 0), static_cast<ssize_t>(size_));
  EXPECT_EQ(back, std::string(size_, 'x'));
}

TEST_F(WriteBehindTest, ResetStartsOverAfterATruncate) {
  WriteBehind wb(kMiB);
  Append(&wb, 5 * kMiB);
  EXPECT_EQ(wb.dropped(), 4 * kMiB);
  ASSERT_EQ(::ftruncate(fd_, 0), 0);
  size_ = 0;
  wb.Reset();
  EXPECT_EQ(wb.started(), 0u);
  Append(&wb, kMiB / 2);
  EXPECT_EQ(wb.started(), 0u);
  Append(&wb, 2 * kMiB);
  EXPECT_EQ(wb.started(), 2 * kMiB);
  EXPECT_EQ(wb.dropped(), kMiB);
  wb.Written(-1, 100 * kMiB);  // no file: ignored
  EXPECT_EQ(wb.started(), 2 * kMiB);
  wb.Written(fd_, kMiB);  // shorter than before without Reset(): ignored
  EXPECT_EQ(wb.started(), 2 * kMiB);
  EXPECT_EQ(wb.dropped(), kMiB);
}

}  // namespace
}  // namespace topicrawl
