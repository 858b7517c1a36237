// .warc.zst (store/zstd_frame.h): one frame a record, the trained
// dictionary in the leading skippable frame, read back by our reader and by
// the `zstd` command line tool.
#include <gtest/gtest.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/test_require.h"
#include "support/store_test_util.h"
#include "store/warc_reader.h"
#include "store/warc_writer.h"
#include "store/zstd_frame.h"

namespace topicrawl {
namespace {

using testing::MakeTempDir;
using testing::RemoveTree;
using testing::RunCommand;

std::string ReadZstFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint32_t ZstFileLe32(const std::string& s, size_t at) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data() + at);
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

// A page of a small site: shared template, varying text.
std::string ZstPageBlock(int k) {
  std::string body = "<html><head><title>Page " + std::to_string(k) +
                     "</title><link rel=stylesheet href=/site.css></head><body>"
                     "<nav><a href=/>Home</a> <a href=/about>About</a> <a href=/blog>Blog</a></nav>";
  for (int i = 0; i < 20; ++i) {
    body += "<p>Paragraph " + std::to_string(i * k % 97) +
            " about firewalls, packets and the rules that decide their fate.</p>";
  }
  body += "<footer>Copyright example.test</footer></body></html>";
  return "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

class WarcZstdTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = MakeTempDir(); }
  void TearDown() override { RemoveTree(dir_); }

  WarcOptions Options() {
    WarcOptions o;
    o.compression = WarcCompression::kZstd;
    o.zstd_dict_records = 30;  // the first file trains on its first 30 records
    return o;
  }

  // Appends pages [from, to), one response record each; returns the spans.
  std::vector<WarcSpan> Write(WarcWriter* w, int from, int to) {
    std::vector<WarcSpan> spans;
    for (int k = from; k < to; ++k) {
      WarcRecord r;
      r.type = "response";
      r.date_unix_ms = clock_.UnixMillis();
      r.target_uri = "http://example.test/p" + std::to_string(k);
      r.content_type = "application/http; msgtype=response";
      r.block = ZstPageBlock(k);
      StatusOr<WarcSpan> s = w->Append({r});
      EXPECT_TRUE(s.ok()) << s.status().message();
      if (s.ok()) spans.push_back(*s);
    }
    EXPECT_TRUE(w->Flush().ok());
    return spans;
  }

  std::string dir_;
  FakeClock clock_;
};

TEST_F(WarcZstdTest, DictionaryFrameThenOneFramePerRecordReadBack) {
  std::vector<WarcSpan> spans;
  {
    auto w = WarcWriter::New(dir_, 1, Options(), &clock_);
    spans = Write(w.get(), 0, 80);
  }
  ASSERT_EQ(spans.size(), 80u);
  // 30 samples (warcinfo + 29 pages) train the dictionary; the writer then
  // starts a second file, which carries it.
  const std::string first = spans.front().file, second = spans.back().file;
  ASSERT_NE(first, second);
  EXPECT_EQ(first.substr(first.size() - 9), ".warc.zst");
  const std::string a = ReadZstFile(dir_ + "/" + first), b = ReadZstFile(dir_ + "/" + second);
  EXPECT_EQ(ZstFileLe32(a, 0), ZSTD_MAGICNUMBER);     // no dictionary yet
  EXPECT_EQ(ZstFileLe32(b, 0), kWarcZstdDictMagic);  // IIPC: the dictionary frame first
  const uint32_t dict_size = ZstFileLe32(b, 4);
  EXPECT_GT(dict_size, 1000u);
  EXPECT_EQ(ZstFileLe32(b, 8), ZSTD_MAGIC_DICTIONARY);  // a raw zstd dictionary
  EXPECT_EQ(ReadWarcZstdDictionary(dir_ + "/" + second), b.substr(8, dict_size));
  EXPECT_EQ(ReadWarcZstdDictionary(dir_ + "/" + first), "");

  // Every record frame at its span, read by the reader in file order and
  // one by one from its offset.
  int k = 0;
  for (const std::string& name : {first, second}) {
    int records = 0;
    Status s = ReadWarcFile(dir_ + "/" + name, [&](ParsedWarcRecord& r) {
      ++records;
      if (r.Header("WARC-Type") != "response") return true;
      EXPECT_EQ(r.block, ZstPageBlock(k));
      EXPECT_EQ(r.offset, spans[k].offset) << k;
      EXPECT_EQ(r.length, spans[k].length) << k;
      ++k;
      return true;
    });
    EXPECT_TRUE(s.ok()) << s.message();
    EXPECT_GE(records, 2);
  }
  EXPECT_EQ(k, 80);
  for (int i : {0, 29, 30, 55, 79}) {
    auto r = ReadWarcRecordAt(dir_ + "/" + spans[i].file, spans[i].offset);
    ASSERT_TRUE(r.ok()) << i << ": " << r.status().message();
    EXPECT_EQ(r->block, ZstPageBlock(i));
  }
  // The dictionary pays: the same records compress smaller with it.
  ZstdFrameWriter plain(3);
  ByteBuffer without;
  for (int i = 60; i < 80; ++i) {
    const std::string block = ZstPageBlock(i);
    const std::string_view pieces[] = {block};
    ASSERT_TRUE(plain.Append(pieces, &without).ok());
  }
  uint64_t with = 0;
  for (int i = 60; i < 80; ++i) with += spans[i].length;
  EXPECT_LT(with, without.size());
}

// The zstd tool reads the file as the IIPC proposal says: it skips the
// dictionary frame and decompresses the records given that dictionary;
// its output is every record, uncompressed, in order.
TEST_F(WarcZstdTest, ZstdToolDecompressesTheFile) {
  if (RunCommand("zstd --version >/dev/null 2>&1") != 0) {
    TOPICRAWL_SKIP_UNLESS_REQUIRED("zstd (the command line tool) not installed");
  }
  std::vector<WarcSpan> spans;
  {
    auto w = WarcWriter::New(dir_, 1, Options(), &clock_);
    spans = Write(w.get(), 0, 60);
  }
  const std::string name = spans.back().file, path = dir_ + "/" + name;
  const std::string file = ReadZstFile(path);
  ASSERT_EQ(ZstFileLe32(file, 0), kWarcZstdDictMagic);
  const std::string dict = file.substr(8, ZstFileLe32(file, 4));
  std::ofstream(dir_ + "/dict", std::ios::binary) << dict;
  ASSERT_EQ(RunCommand("zstd -q -d -D '" + dir_ + "/dict' -c '" + path + "' > '" + dir_ +
                       "/out'"),
            0);
  // Expected bytes, frame by frame with libzstd from the dictionary frame's
  // end (the warcinfo record) to the end of the file.
  ZSTD_DCtx* d = ZSTD_createDCtx();
  std::string want;
  size_t at = 8 + dict.size();
  int frames = 0;
  while (at < file.size()) {
    const size_t n = ZSTD_findFrameCompressedSize(file.data() + at, file.size() - at);
    ASSERT_FALSE(ZSTD_isError(n));
    const unsigned long long raw = ZSTD_getFrameContentSize(file.data() + at, n);
    ASSERT_NE(raw, ZSTD_CONTENTSIZE_UNKNOWN);
    std::string out(raw, '\0');
    const size_t got =
        ZSTD_decompress_usingDict(d, out.data(), out.size(), file.data() + at, n, dict.data(),
                                  dict.size());
    ASSERT_FALSE(ZSTD_isError(got)) << ZSTD_getErrorName(got);
    want += out;
    at += n;
    ++frames;
  }
  ZSTD_freeDCtx(d);
  const std::string got = ReadZstFile(dir_ + "/out");
  EXPECT_EQ(got.size(), want.size());
  EXPECT_TRUE(got == want);
  EXPECT_GT(frames, 20);
  EXPECT_NE(got.find("WARC-Type: warcinfo"), std::string::npos);
  EXPECT_NE(got.find(ZstPageBlock(59)), std::string::npos);
}

// A writer resuming in the directory reuses the dictionary already there;
// a truncated file is an error naming the offset, never a crash.
TEST_F(WarcZstdTest, ResumeReusesTheDictionaryAndTruncationIsAnError) {
  std::vector<WarcSpan> spans;
  {
    auto w = WarcWriter::New(dir_, 1, Options(), &clock_);
    spans = Write(w.get(), 0, 40);
  }
  const std::string dict = ReadWarcZstdDictionary(dir_ + "/" + spans.back().file);
  ASSERT_FALSE(dict.empty());
  std::vector<WarcSpan> more;
  {
    auto w = WarcWriter::New(dir_, 10, Options(), &clock_);
    more = Write(w.get(), 40, 45);
  }
  EXPECT_EQ(ReadWarcZstdDictionary(dir_ + "/" + more.front().file), dict);
  auto r = ReadWarcRecordAt(dir_ + "/" + more.back().file, more.back().offset);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->block, ZstPageBlock(44));

  const std::string path = dir_ + "/" + more.back().file;
  std::filesystem::resize_file(path, more.back().offset + more.back().length / 2);
  Status s = ReadWarcFile(path, [](ParsedWarcRecord&) { return true; });
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("truncated"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace topicrawl
