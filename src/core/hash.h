// Stable 64-bit hashing (xxh3) for URL ids and content hashes.
#ifndef TOPICRAWL_CORE_HASH_H_
#define TOPICRAWL_CORE_HASH_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace topicrawl {

uint64_t Hash64(std::string_view data);
// Lower-case hex of Hash64, 16 characters.
std::string Hash64Hex(std::string_view data);

}  // namespace topicrawl

#endif  // TOPICRAWL_CORE_HASH_H_
