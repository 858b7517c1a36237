#include "store/gzip_member.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/test_require.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using testing::MakeTempDir;
using testing::RemoveTree;
using testing::RunCommand;

// Inflates the gzip member at data[offset] with zlib (RFC 1952, checks the
// CRC-32 and ISIZE trailer); *used receives its compressed size, 0 on error.
std::string Inflate(std::string_view data, size_t offset, size_t* used) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + offset));
  z.avail_in = static_cast<uInt>(data.size() - offset);
  std::string out;
  char chunk[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof(chunk);
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(chunk, sizeof(chunk) - z.avail_out);
  }
  *used = rc == Z_STREAM_END ? z.total_in : 0;
  inflateEnd(&z);
  return out;
}

std::string_view View(const ByteBuffer& b) { return {b.data(), b.size()}; }

std::string Html(size_t bytes) {
  std::string out;
  for (int i = 0; out.size() < bytes; ++i) {
    out += "<p class=\"c" + std::to_string(i % 13) + "\">focused crawling " +
           std::to_string(i * 7919 % 1000) + "</p>\n";
  }
  out.resize(bytes);
  return out;
}

std::string RandomBytes(size_t bytes) {
  std::mt19937_64 rng(7);
  std::string out(bytes, '\0');
  for (char& c : out) c = static_cast<char>(rng());
  return out;
}

TEST(ByteBufferTest, GrowingKeepsCommittedBytesAndClearKeepsCapacity) {
  ByteBuffer b;
  b.Append("abc");
  char* p = b.Reserve(1 << 20);
  EXPECT_GE(b.spare(), size_t{1} << 20);
  p[0] = 'd';
  b.Commit(1);
  EXPECT_EQ(View(b), "abcd");
  b.Truncate(2);
  EXPECT_EQ(View(b), "ab");
  const size_t capacity = b.capacity();
  b.clear();
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.capacity(), capacity);
  b.Release();
  EXPECT_EQ(b.capacity(), 0u);
  b.Append("x");
  EXPECT_EQ(View(b), "x");
}

TEST(GzipMemberWriterTest, MapsZlibLevelsOntoIgzipLevels) {
  const int expected[] = {0, 1, 1, 2, 2, 2, 3, 3, 3, 3};
  for (int level = 0; level <= 9; ++level) {
    EXPECT_EQ(GzipMemberWriter::IgzipLevel(level), expected[level]) << level;
  }
  EXPECT_EQ(GzipMemberWriter::IgzipLevel(-1), 0);
  EXPECT_EQ(GzipMemberWriter::IgzipLevel(12), 3);
  EXPECT_EQ(GzipMemberWriter(1).igzip_level(), 1);
}

// Every level, every piece shape: one member that zlib inflates back to the
// concatenation, appended after what the buffer already held.
TEST(GzipMemberWriterTest, EachAppendIsOneMemberZlibInflatesAtEveryLevel) {
  const std::string html_text = Html(100000);
  const std::string_view html = html_text;
  const std::vector<std::vector<std::string_view>> cases = {
      {},
      {""},
      {"", "", ""},
      {"WARC/1.1\r\n\r\n", "", html, "\r\n\r\n"},
      {html.substr(0, 10), html.substr(10, 50000), html.substr(50010)},
  };
  for (int level = 0; level <= 9; ++level) {
    GzipMemberWriter gzip(level);
    ByteBuffer out;
    out.Append("prefix");
    std::vector<size_t> starts;
    for (const auto& pieces : cases) {
      starts.push_back(out.size());
      ASSERT_TRUE(gzip.Append(pieces, &out).ok()) << level;
    }
    ASSERT_EQ(std::string_view(out.data(), 6), "prefix");
    for (size_t i = 0; i < cases.size(); ++i) {
      std::string expected;
      for (std::string_view p : cases[i]) expected.append(p);
      size_t used = 0;
      // (EXPECT_TRUE: a mismatch would print 100 KB)
      EXPECT_TRUE(Inflate(View(out), starts[i], &used) == expected)
          << "level " << level << " case " << i;
      const size_t end = i + 1 < cases.size() ? starts[i + 1] : out.size();
      EXPECT_EQ(used, end - starts[i]) << "level " << level << " case " << i;
    }
  }
}

// Incompressible input is larger compressed than the room first reserved
// (half the input): the writer must grow the output and carry on.
TEST(GzipMemberWriterTest, GrowsTheOutputWhenInputDoesNotCompress) {
  const std::string noise = RandomBytes(3 << 20);
  for (int level : {0, 1, 3, 6}) {
    GzipMemberWriter gzip(level);
    ByteBuffer out;
    const std::string_view pieces[] = {"head\r\n", noise, "\r\n\r\n"};
    ASSERT_TRUE(gzip.Append(pieces, &out).ok());
    EXPECT_GT(out.size(), noise.size());
    size_t used = 0;
    EXPECT_TRUE(Inflate(View(out), 0, &used) == "head\r\n" + noise + "\r\n\r\n");
    EXPECT_EQ(used, out.size());
  }
}

TEST(GzipMemberWriterTest, CompressesHtml) {
  const std::string html = Html(48000);
  GzipMemberWriter gzip(1);
  ByteBuffer out;
  const std::string_view pieces[] = {html};
  ASSERT_TRUE(gzip.Append(pieces, &out).ok());
  EXPECT_LT(out.size(), html.size() / 3);
}

// gzip(1) checks a concatenation of members (CRC-32 and length of each).
TEST(GzipMemberWriterTest, GzipToolAcceptsAConcatenationOfMembers) {
  if (RunCommand("command -v gzip >/dev/null") != 0) {
    TOPICRAWL_SKIP_UNLESS_REQUIRED("gzip not installed");
  }
  const std::string dir = MakeTempDir();
  GzipMemberWriter gzip(1);
  ByteBuffer out;
  std::string expected;
  for (int i = 0; i < 20; ++i) {
    const std::string html = Html(1000 * i);
    const std::string_view pieces[] = {"record\n", html};
    ASSERT_TRUE(gzip.Append(pieces, &out).ok());
    expected += "record\n" + html;
  }
  {
    std::ofstream f(dir + "/members.gz", std::ios::binary);
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
  }
  EXPECT_EQ(RunCommand("gzip -t " + dir + "/members.gz"), 0);
  EXPECT_EQ(RunCommand("gzip -dc " + dir + "/members.gz > " + dir + "/plain"), 0);
  std::ifstream in(dir + "/plain", std::ios::binary);
  std::string plain((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  EXPECT_TRUE(plain == expected);
  RemoveTree(dir);
}

}  // namespace
}  // namespace topicrawl
