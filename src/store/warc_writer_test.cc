#include "store/warc_writer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/test_require.h"
#include "store/sha1.h"
#include "store/warc_reader.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using testing::MakeTempDir;
using testing::RemoveTree;
using testing::RunCommand;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Inflates exactly one gzip member starting at data[offset]; *used receives
// its compressed size. Independent of WarcReader.
std::string InflateMember(const std::string& data, size_t offset, size_t* used) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + offset));
  z.avail_in = static_cast<uInt>(data.size() - offset);
  std::string out(1 << 20, '\0');
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = inflate(&z, Z_FINISH);
  EXPECT_EQ(rc, Z_STREAM_END);
  out.resize(z.total_out);
  *used = z.total_in;
  inflateEnd(&z);
  return out;
}

class WarcWriterTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = MakeTempDir(); }
  void TearDown() override { RemoveTree(dir_); }

  WarcRecord Record(const std::string& type, const std::string& block) {
    WarcRecord r;
    r.type = type;
    r.date_unix_ms = clock_.UnixMillis();
    r.target_uri = "http://example.test/" + type;
    r.content_type = "application/octet-stream";
    r.block = block;
    return r;
  }

  std::string dir_;
  FakeClock clock_;
};

TEST(WarcNamingTest, FileNameCarriesUtcTimeAndSequence) {
  // 2023-11-14T22:13:20Z
  EXPECT_EQ(WarcFileName(1'700'000'000'000, 7),
            "topicrawl-20231114221320-00007.warc.gz");
  uint32_t seq = 0;
  EXPECT_TRUE(ParseWarcFileName("topicrawl-20231114221320-00007.warc.gz", &seq));
  EXPECT_EQ(seq, 7u);
  EXPECT_FALSE(ParseWarcFileName("../topicrawl-20231114221320-00007.warc.gz", &seq));
  EXPECT_FALSE(ParseWarcFileName("topicrawl-2023111422132-00007.warc.gz", &seq));
  EXPECT_FALSE(ParseWarcFileName("topicrawl-20231114221320-0/007.warc.gz", &seq));
  EXPECT_FALSE(ParseWarcFileName("x.warc.gz", &seq));
}

// WARC/1.1 section 5.4: W3C-DTF, UTC ("Z"), fractional seconds allowed.
TEST(WarcNamingTest, DateIsW3cdtfUtcWithMilliseconds) {
  EXPECT_EQ(WarcDate(1'700'000'000'123), "2023-11-14T22:13:20.123Z");
  EXPECT_EQ(WarcDate(0), "1970-01-01T00:00:00.000Z");
}

// WARC/1.1 section 5.2: WARC-Record-ID is a URI in angle brackets.
TEST(WarcNamingTest, RecordIdsAreDistinctUuidV4Urns) {
  std::mt19937_64 rng(42);
  std::string a = NewWarcRecordId(rng), b = NewWarcRecordId(rng);
  EXPECT_NE(a, b);
  ASSERT_EQ(a.size(), std::string("<urn:uuid:>").size() + 36);
  EXPECT_EQ(a.substr(0, 10), "<urn:uuid:");
  EXPECT_EQ(a.back(), '>');
  EXPECT_EQ(a[10 + 14], '4');  // version nibble
  EXPECT_NE(std::string("89ab").find(a[10 + 19]), std::string::npos);
}

TEST_F(WarcWriterTest, EachRecordIsItsOwnGzipMemberStartingWithWarcinfo) {
  WarcOptions options;
  options.block_digest = true;
  auto w = WarcWriter::New(dir_, 1, options, &clock_);
  std::string body(5000, 'x');
  WarcRecord resp = Record("response", "HTTP/1.1 200 OK\r\n\r\n");
  resp.block_suffix = body;
  resp.suffix_is_payload = true;
  StatusOr<WarcSpan> a = w->Append({resp, Record("metadata", "k: v\r\n")});
  ASSERT_TRUE(a.ok()) << a.status().message();
  StatusOr<WarcSpan> b = w->Append({Record("resource", "")});
  ASSERT_TRUE(b.ok());
  ASSERT_TRUE(w->Flush().ok());
  EXPECT_EQ(a->file, w->current_file());
  EXPECT_EQ(w->current_size(), std::filesystem::file_size(dir_ + "/" + a->file));
  EXPECT_EQ(b->offset, a->offset + a->length);

  std::string data = ReadFile(dir_ + "/" + a->file);
  EXPECT_EQ(data.size(), b->offset + b->length);
  EXPECT_EQ(w->current_size(), data.size());
  // Member by member, without our reader.
  std::vector<std::string> records;
  std::vector<size_t> offsets;
  for (size_t off = 0; off < data.size();) {
    size_t used = 0;
    offsets.push_back(off);
    records.push_back(InflateMember(data, off, &used));
    ASSERT_GT(used, 0u);
    off += used;
  }
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(offsets[1], a->offset);
  EXPECT_EQ(offsets[3], b->offset);
  EXPECT_EQ(records[0].rfind("WARC/1.1\r\nWARC-Type: warcinfo\r\n", 0), 0u);
  EXPECT_NE(records[0].find("WARC-Filename: " + a->file), std::string::npos);
  EXPECT_NE(records[0].find("format: WARC File Format 1.1"), std::string::npos);
  const std::string& r = records[1];
  EXPECT_EQ(r.rfind("WARC/1.1\r\nWARC-Type: response\r\n", 0), 0u);
  const std::string block = "HTTP/1.1 200 OK\r\n\r\n" + body;
  EXPECT_NE(r.find("Content-Length: " + std::to_string(block.size()) + "\r\n\r\n" +
                   block + "\r\n\r\n"),
            std::string::npos);
  EXPECT_EQ(r.substr(r.size() - block.size() - 4), block + "\r\n\r\n");
  EXPECT_NE(r.find("WARC-Block-Digest: " + WarcSha1Digest(block)), std::string::npos);
  EXPECT_NE(r.find("WARC-Payload-Digest: " + WarcSha1Digest(body)), std::string::npos);
  EXPECT_NE(r.find("WARC-Target-URI: http://example.test/response\r\n"),
            std::string::npos);
  EXPECT_NE(r.find("WARC-Date: 2023-11-14T22:13:20.000Z\r\n"), std::string::npos);
  // Content-Length 0 record: header, empty line, then the two CRLFs.
  EXPECT_NE(records[3].find("Content-Length: 0\r\n\r\n\r\n\r\n"), std::string::npos);
  EXPECT_EQ(records[3].substr(records[3].size() - 8), "\r\n\r\n\r\n\r\n");
}

TEST_F(WarcWriterTest, ReaderParsesBackEveryRecordAndSeeksByOffset) {
  auto w = WarcWriter::New(dir_, 3, {}, &clock_);
  std::vector<WarcSpan> spans;
  for (int i = 0; i < 20; ++i) {
    WarcRecord r = Record("resource", "block " + std::to_string(i) + "\r\nline\n");
    r.headers.push_back({"X-Test", "value\r\nwith newline"});
    StatusOr<WarcSpan> s = w->Append({r});
    ASSERT_TRUE(s.ok());
    spans.push_back(*s);
  }
  ASSERT_TRUE(w->Flush().ok());
  const std::string path = dir_ + "/" + spans[0].file;
  int n = 0;
  Status s = ReadWarcFile(path, [&](ParsedWarcRecord& r) {
    if (n > 0) {
      EXPECT_EQ(r.offset, spans[n - 1].offset);
      EXPECT_EQ(r.length, spans[n - 1].length);
      EXPECT_EQ(r.block, "block " + std::to_string(n - 1) + "\r\nline\n");
      EXPECT_EQ(r.Header("x-test"), "value  with newline");  // CRLF folded away
      EXPECT_FALSE(r.Header("WARC-Warcinfo-ID").empty());
    }
    ++n;
    return true;
  });
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(n, 21);
  StatusOr<ParsedWarcRecord> r = ReadWarcRecordAt(path, spans[7].offset);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->block, "block 7\r\nline\n");
  EXPECT_FALSE(ReadWarcRecordAt(path, spans[7].offset + 1).ok());
}

TEST_F(WarcWriterTest, RotatesBeforeAGroupThatWouldStartBeyondTheLimit) {
  WarcOptions options;
  options.max_file_bytes = 3000;
  options.compression_level = 0;  // predictable sizes
  auto w = WarcWriter::New(dir_, 1, options, &clock_);
  std::set<std::string> files;
  std::string big(1000, 'b');
  for (int i = 0; i < 10; ++i) {
    StatusOr<WarcSpan> s =
        w->Append({Record("resource", big), Record("metadata", "a: b\r\n")});
    ASSERT_TRUE(s.ok());
    files.insert(s->file);
  }
  ASSERT_TRUE(w->Flush().ok());
  EXPECT_GE(files.size(), 3u);
  uint32_t seq = 0, expected = 1;
  for (const std::string& f : files) {  // sorted: sequence numbers 1, 2, ...
    ASSERT_TRUE(ParseWarcFileName(f, &seq));
    EXPECT_EQ(seq, expected++);
    std::vector<std::string> types;
    ASSERT_TRUE(ReadWarcFile(dir_ + "/" + f, [&](ParsedWarcRecord& r) {
                  types.emplace_back(r.Header("WARC-Type"));
                  return true;
                }).ok());
    ASSERT_GE(types.size(), 3u);
    EXPECT_EQ(types[0], "warcinfo");
    EXPECT_EQ(types.size() % 2, 1u);  // groups never straddle files
    EXPECT_LT(std::filesystem::file_size(dir_ + "/" + f), 3000u + 2 * 1300u);
  }
}

TEST_F(WarcWriterTest, NeverOverwritesOrFollowsAnExistingName) {
  const std::string name = WarcFileName(clock_.UnixMillis(), 1);
  ASSERT_EQ(::symlink("/tmp/topicrawl-should-not-exist", (dir_ + "/" + name).c_str()), 0);
  auto w = WarcWriter::New(dir_, 1, {}, &clock_);
  StatusOr<WarcSpan> s = w->Append({Record("resource", "x")});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("cannot create WARC file"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists("/tmp/topicrawl-should-not-exist"));
  EXPECT_FALSE(w->Append({Record("resource", "x")}).ok());  // sticky
}

TEST_F(WarcWriterTest, MissingDirectoryIsAClearError) {
  auto w = WarcWriter::New(dir_ + "/nope", 1, {}, &clock_);
  StatusOr<WarcSpan> s = w->Append({Record("resource", "x")});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("/nope/"), std::string::npos);
}

TEST_F(WarcWriterTest, ReaderReportsTruncationAndGarbage) {
  auto w = WarcWriter::New(dir_, 1, {}, &clock_);
  StatusOr<WarcSpan> s = w->Append({Record("resource", std::string(3000, 'z'))});
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(w->Flush().ok());
  const std::string path = dir_ + "/" + s->file;
  const std::string good = ReadFile(path);
  auto count = [&]() {
    int n = 0;
    Status st = ReadWarcFile(path, [&](ParsedWarcRecord&) { return ++n, true; });
    return std::make_pair(st, n);
  };
  ASSERT_TRUE(count().first.ok());
  std::filesystem::resize_file(path, good.size() - 5);
  auto [st, n] = count();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("truncated gzip member at offset " +
                              std::to_string(s->offset)),
            std::string::npos)
      << st.message();
  std::ofstream(path, std::ios::binary | std::ios::trunc) << good << "garbage";
  EXPECT_FALSE(count().first.ok());
}

TEST(ParseWarcRecordTest, RejectsWrongContentLengthAndMissingTerminator) {
  ParsedWarcRecord r;
  const std::string head =
      "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:x>\r\n"
      "WARC-Date: 2020-01-01T00:00:00Z\r\n";
  EXPECT_TRUE(ParseWarcRecord(head + "Content-Length: 3\r\n\r\nabc\r\n\r\n", &r).ok());
  EXPECT_EQ(r.block, "abc");
  EXPECT_FALSE(ParseWarcRecord(head + "Content-Length: 4\r\n\r\nabc\r\n\r\n", &r).ok());
  EXPECT_FALSE(ParseWarcRecord(head + "Content-Length: 2\r\n\r\nabc\r\n\r\n", &r).ok());
  EXPECT_FALSE(ParseWarcRecord(head + "Content-Length: 3\r\n\r\nabc", &r).ok());
  EXPECT_FALSE(ParseWarcRecord(head + "Content-Length: x\r\n\r\nabc\r\n\r\n", &r).ok());
  EXPECT_FALSE(ParseWarcRecord(head + "\r\nabc\r\n\r\n", &r).ok());
  EXPECT_FALSE(ParseWarcRecord("HTTP/1.1 200 OK\r\n\r\n", &r).ok());
}

// An independent reader: zcat (gzip's multi-member support) and the Python
// checker (zlib member by member, hashlib digests).
TEST_F(WarcWriterTest, StandardToolsReadTheFile) {
  WarcOptions options;
  options.block_digest = true;
  auto w = WarcWriter::New(dir_, 1, options, &clock_);
  std::string body = "<html>" + std::string(10000, 'q') + "</html>";
  for (int i = 0; i < 5; ++i) {
    WarcRecord r = Record("response", "HTTP/1.1 200 OK\r\nContent-Length: " +
                                          std::to_string(body.size()) + "\r\n\r\n");
    r.content_type = "application/http; msgtype=response";
    r.block_suffix = body;
    r.suffix_is_payload = true;
    ASSERT_TRUE(w->Append({r}).ok());
  }
  ASSERT_TRUE(w->Flush().ok());
  const std::string path = dir_ + "/" + w->current_file();
  if (RunCommand("command -v zcat >/dev/null") == 0) {
    ASSERT_EQ(RunCommand("zcat " + path + " > " + dir_ + "/plain.warc"), 0);
    std::string plain = ReadFile(dir_ + "/plain.warc");
    size_t count = 0;
    for (size_t p = plain.find("WARC/1.1\r\n"); p != std::string::npos;
         p = plain.find("WARC/1.1\r\n", p + 1)) {
      ++count;
    }
    EXPECT_EQ(count, 6u);
  }
  if (RunCommand("command -v python3 >/dev/null") != 0) {
    TOPICRAWL_SKIP_UNLESS_REQUIRED("python3 not installed");
  }
  const std::string script = std::string(TOPICRAWL_SOURCE_DIR) + "/src/store/warc_verify.py";
  EXPECT_EQ(RunCommand("python3 " + script + " " + path + " > " + dir_ + "/out.txt"), 0)
      << ReadFile(dir_ + "/out.txt");
  EXPECT_NE(ReadFile(dir_ + "/out.txt").find("records=6 types=response,warcinfo"),
            std::string::npos)
      << ReadFile(dir_ + "/out.txt");
  // And it does notice a bad digest.
  std::string data = ReadFile(path);
  WarcRecord bad = Record("resource", "abc");
  bad.headers.push_back({"WARC-Block-Digest", "sha1:AAAA"});
  WarcOptions no_digest;
  no_digest.block_digest = false;
  auto w2 = WarcWriter::New(dir_, 9, no_digest, &clock_);
  ASSERT_TRUE(w2->Append({bad}).ok());
  ASSERT_TRUE(w2->Flush().ok());
  EXPECT_EQ(RunCommand("python3 " + script + " " + dir_ + "/" + w2->current_file() +
                       " > /dev/null"),
            1);
}

}  // namespace
}  // namespace topicrawl
