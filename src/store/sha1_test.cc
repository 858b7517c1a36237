#include "store/sha1.h"

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

// FIPS 180-4 / FIPS 180-2 Appendix A example messages.
TEST(Sha1Test, MatchesFipsExampleVectors) {
  EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Sha1Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Sha1Hex(std::string(1000000, 'a')),
            "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST(Sha1Test, IncrementalUpdatesEqualOneShot) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data += char('a' + i % 26);
  for (size_t split : {0, 1, 55, 56, 63, 64, 65, 500, 1000}) {
    EXPECT_EQ(WarcSha1Digest(data.substr(0, split), data.substr(split)),
              WarcSha1Digest(data))
        << split;
  }
}

// RFC 4648 section 10 test vectors.
TEST(Sha1Test, Base32MatchesRfc4648Section10) {
  EXPECT_EQ(Base32Encode(""), "");
  EXPECT_EQ(Base32Encode("f"), "MY======");
  EXPECT_EQ(Base32Encode("fo"), "MZXQ====");
  EXPECT_EQ(Base32Encode("foo"), "MZXW6===");
  EXPECT_EQ(Base32Encode("foob"), "MZXW6YQ=");
  EXPECT_EQ(Base32Encode("fooba"), "MZXW6YTB");
  EXPECT_EQ(Base32Encode("foobar"), "MZXW6YTBOI======");
}

TEST(Sha1Test, WarcDigestIsSha1Base32) {
  // python3: base64.b32encode(hashlib.sha1(b"abc").digest())
  EXPECT_EQ(WarcSha1Digest("abc"), "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
}

// Sha1Hex/WarcSha1Digest use libcrypto; the portable class is the fallback.
TEST(Sha1Test, PortableClassMatchesLibcryptoPath) {
  std::string data;
  for (int i = 0; i < 3000; ++i) data += char(i * 131 % 251);
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t n : {0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 3000}) {
    Sha1 sha;
    sha.Update(std::string_view(data).substr(0, n / 2));
    sha.Update(std::string_view(data).substr(n / 2, n - n / 2));
    std::string hex;
    for (uint8_t b : sha.Final()) {
      hex.push_back(kHex[b >> 4]);
      hex.push_back(kHex[b & 15]);
    }
    EXPECT_EQ(hex, Sha1Hex(data.substr(0, n))) << n;
  }
}

}  // namespace
}  // namespace topicrawl
