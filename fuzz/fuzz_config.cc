// Crawl configuration: TOML file (through a memfd) and seeds files, then
// validation and the snapshot round trip.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "crawl/crawl_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static int fd = memfd_create("fuzz_config", 0);
  if (fd < 0) return 0;
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  topicrawl::CrawlConfig config;
  if (topicrawl::LoadCrawlConfigToml(path, &config).ok()) {
    topicrawl::ValidateCrawlConfig(config);
    // The snapshot of a loaded config must load again.
    std::string toml = topicrawl::CrawlConfigToToml(config);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, toml.data(), toml.size(), 0) < 0) return 0;
    topicrawl::CrawlConfig again;
    if (!topicrawl::LoadCrawlConfigToml(path, &again).ok()) __builtin_trap();
  }
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
  topicrawl::ReadSeedsFile(path);
  return 0;
}
