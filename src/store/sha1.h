// SHA-1 (FIPS 180-4) and RFC 4648 base32, for WARC digests only.
//
// WARC/1.1 section 5.8/5.9 digests are conventionally "sha1:<BASE32>" (the
// form used by Heritrix, wget and warcio). zlib, ICU and the other Debian
// packages we link expose no SHA-1, so this is the small, well-known
// algorithm, checked against the FIPS 180-4 example vectors and Python's
// hashlib. Not for security purposes.
#ifndef TOPICRAWL_STORE_SHA1_H_
#define TOPICRAWL_STORE_SHA1_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace topicrawl {

// Incremental SHA-1. Feed with Update(), read once with Final().
class Sha1 {
 public:
  Sha1();
  void Update(std::string_view data);
  // REQUIRES: called at most once; the object is spent afterwards.
  std::array<uint8_t, 20> Final();

 private:
  void ProcessBlock(const uint8_t* block);

  uint32_t h_[5];
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

// RFC 4648 section 6 base32 (upper case, '=' padded to a multiple of 8).
std::string Base32Encode(std::string_view bytes);

// "sha1:" + base32 of SHA-1(data): the WARC digest form.
std::string WarcSha1Digest(std::string_view data);
// Same for data given as consecutive pieces (digest of their concatenation).
std::string WarcSha1Digest(std::string_view a, std::string_view b);

// Lower-case hex of SHA-1(data) (tests and tools).
std::string Sha1Hex(std::string_view data);

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_SHA1_H_
