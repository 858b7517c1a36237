// LD_PRELOAD shim for disk_full_test: a fault-injecting writer under the
// real binary. Once TOPICRAWL_FAIL_WRITES_AFTER bytes have been written to
// regular files (descriptors above 2: the log on stdout/stderr is spared),
// every further write(), pwrite(), pwrite64() and writev() to a regular file
// fails with errno TOPICRAWL_FAIL_WRITES_ERRNO (a number, e.g. 28 ENOSPC or
// 5 EIO). SQLite (its unix VFS calls pwrite64 through a pointer bound at
// load time) and the WARC writer (write()) both go through these symbols.
// Without the variables set the shim only forwards.
#include <dlfcn.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>

namespace {

std::atomic<long long> g_written{0};

long long Limit() {
  static long long limit = [] {
    const char* v = std::getenv("TOPICRAWL_FAIL_WRITES_AFTER");
    return v != nullptr ? std::atoll(v) : -1LL;
  }();
  return limit;
}

int FailErrno() {
  static int e = [] {
    const char* v = std::getenv("TOPICRAWL_FAIL_WRITES_ERRNO");
    return v != nullptr ? std::atoi(v) : ENOSPC;
  }();
  return e;
}

// True when this write must fail (and errno is set); otherwise counts it.
bool Fail(int fd, size_t n) {
  if (Limit() < 0 || fd <= 2) return false;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return false;
  if (g_written.load() + static_cast<long long>(n) > Limit()) {
    errno = FailErrno();
    return true;
  }
  g_written += static_cast<long long>(n);
  return false;
}

template <typename Fn>
Fn Next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" {

ssize_t write(int fd, const void* buf, size_t n) {
  static auto real = Next<ssize_t (*)(int, const void*, size_t)>("write");
  if (Fail(fd, n)) return -1;
  return real(fd, buf, n);
}

ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
  static auto real = Next<ssize_t (*)(int, const void*, size_t, off_t)>("pwrite");
  if (Fail(fd, n)) return -1;
  return real(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t off) {
  static auto real = Next<ssize_t (*)(int, const void*, size_t, off64_t)>("pwrite64");
  if (Fail(fd, n)) return -1;
  return real(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec* iov, int count) {
  static auto real = Next<ssize_t (*)(int, const struct iovec*, int)>("writev");
  size_t n = 0;
  for (int i = 0; i < count; ++i) n += iov[i].iov_len;
  if (Fail(fd, n)) return -1;
  return real(fd, iov, count);
}

}  // extern "C"
