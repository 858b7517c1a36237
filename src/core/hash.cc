#include "core/hash.h"

#include <xxhash.h>

#include <cstdio>

namespace topicrawl {

uint64_t Hash64(std::string_view data) {
  return XXH3_64bits(data.data(), data.size());
}

std::string Hash64Hex(std::string_view data) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx",
                static_cast<unsigned long long>(Hash64(data)));
  return buf;
}

}  // namespace topicrawl
