#include "export/cdxj.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "support/export_test_util.h"
#include "export/surt.h"
#include "nlohmann/json.hpp"
#include "support/store_test_util.h"
#include "store/warc_reader.h"

namespace topicrawl {
namespace {

using testing::MakeTempDir;
using testing::RemoveTree;

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// The same crawl with gzip WARC files (false) and with zstd WARC files
// (true, --warc-compression zstd): a file before the dictionary and files
// with it.
class CdxjTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    ASSERT_TRUE(testing::MakeExportCrawl(dir_ + "/crawl", 40, true,
                                         GetParam() ? testing::ZstdTestWarcOptions()
                                                    : WarcOptions())
                    .ok());
  }
  void TearDown() override { RemoveTree(dir_); }
  std::string dir_;
};

TEST(CdxjLineTest, TimestampAndFields) {
  EXPECT_EQ(CdxjTimestamp("2024-05-01T12:03:04.123Z"), "20240501120304");
  EXPECT_EQ(CdxjTimestamp("2024-05"), "");
  ParsedWarcRecord r;
  ASSERT_TRUE(ParseWarcRecord(
                  "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:x>\r\n"
                  "WARC-Date: 2024-05-01T12:03:04Z\r\nWARC-Target-URI: http://www.a.org/B?z=1&y=2\r\n"
                  "WARC-Payload-Digest: sha1:ABC\r\nContent-Length: 47\r\n\r\n"
                  "HTTP/1.1 200 OK\r\nContent-Type: Text/HTML; x\r\n\r\n\r\n\r\n",
                  &r)
                  .ok());
  r.offset = 10;
  r.length = 99;
  EXPECT_EQ(*CdxjLine(r, "f.warc.gz"),
            "org,a)/b?y=2&z=1 20240501120304 {\"url\":\"http://www.a.org/B?z=1&y=2\","
            "\"mime\":\"text/html\",\"status\":\"200\",\"digest\":\"sha1:ABC\","
            "\"length\":\"99\",\"offset\":\"10\",\"filename\":\"f.warc.gz\"}");
}

// Every line sorts, and every response and revisit record of the crawl is
// one line whose offset/length read back as that record.
TEST_P(CdxjTest, SortedAndEveryCaptureResolves) {
  auto files = CrawlWarcFiles(dir_ + "/crawl");
  ASSERT_TRUE(files.ok()) << files.status().message();
  const std::string out = dir_ + "/index.cdxj";
  auto stats = WriteCdxjIndex(*files, out);
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  EXPECT_EQ(stats->runs, 0);
  std::vector<std::string> lines = ReadLines(out);
  ASSERT_EQ(static_cast<int64_t>(lines.size()), stats->lines);
  EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end()));

  std::map<std::pair<std::string, uint64_t>, std::string> captures;  // (file, offset) -> type
  for (const std::string& f : *files) {
    ASSERT_TRUE(ReadWarcFile(f, [&](ParsedWarcRecord& r) {
                  std::string type(r.Header("WARC-Type"));
                  if (type == "response" || type == "revisit") {
                    captures[{std::filesystem::path(f).filename().string(), r.offset}] = type;
                  }
                  return true;
                }).ok());
  }
  int revisits = 0;
  for (const std::string& line : lines) {
    const size_t sp1 = line.find(' '), sp2 = line.find(' ', sp1 + 1);
    nlohmann::json j = nlohmann::json::parse(line.substr(sp2 + 1));
    const std::string file = j["filename"];
    const uint64_t offset = std::stoull(j["offset"].get<std::string>());
    auto rec = ReadWarcRecordAt(dir_ + "/crawl/warc/" + file, offset);
    ASSERT_TRUE(rec.ok()) << rec.status().message();
    EXPECT_EQ(rec->length, std::stoull(j["length"].get<std::string>()));
    EXPECT_EQ(rec->Header("WARC-Target-URI"), j["url"].get<std::string>());
    EXPECT_EQ(line.substr(0, sp1), SurtKey(j["url"].get<std::string>()));
    EXPECT_EQ(line.substr(sp1 + 1, sp2 - sp1 - 1), CdxjTimestamp(rec->Header("WARC-Date")));
    auto it = captures.find({file, offset});
    ASSERT_NE(it, captures.end()) << line;
    if (it->second == "revisit") {
      ++revisits;
      EXPECT_EQ(j["mime"], "warc/revisit");
    }
    captures.erase(it);
  }
  EXPECT_TRUE(captures.empty()) << captures.size() << " captures have no line";
  // 40 pages: 5 robots denials (no record), 3 404s and 32 ok responses;
  // the ok pages among 1..20 are revisited.
  EXPECT_EQ(lines.size(), 35u + 17u);
  EXPECT_EQ(revisits, 17);
  // The zstd crawl's lines point into .warc.zst files, some of them with
  // the dictionary frame (magic 0x184D2A5D, little-endian) first.
  int with_dictionary = 0;
  for (const std::string& f : *files) {
    EXPECT_EQ(f.ends_with(".warc.zst"), GetParam()) << f;
    std::ifstream in(f, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    with_dictionary += std::string(magic, 4) == std::string("\x5D\x2A\x4D\x18", 4);
  }
  if (GetParam()) EXPECT_GE(with_dictionary, 1);
}

// A tiny run size spills sorted runs to disk; the merge gives the same file
// and leaves no run behind.
TEST_P(CdxjTest, SpilledRunsMergeToTheSameIndex) {
  auto files = CrawlWarcFiles(dir_ + "/crawl");
  ASSERT_TRUE(files.ok());
  ASSERT_TRUE(WriteCdxjIndex(*files, dir_ + "/a.cdxj").ok());
  auto spilled = WriteCdxjIndex(*files, dir_ + "/b.cdxj", 2000);
  ASSERT_TRUE(spilled.ok()) << spilled.status().message();
  EXPECT_GT(spilled->runs, 3);
  EXPECT_EQ(ReadLines(dir_ + "/a.cdxj"), ReadLines(dir_ + "/b.cdxj"));
  int entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir_)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 3);  // crawl/, a.cdxj, b.cdxj
}

// A WARC cut inside a record: a clear error naming the file and offset,
// and no index (nor temporary file) is left.
TEST_P(CdxjTest, TruncatedWarcIsAnErrorAndLeavesNoIndex) {
  auto files = CrawlWarcFiles(dir_ + "/crawl");
  ASSERT_TRUE(files.ok());
  const std::string f = files->front();
  std::filesystem::resize_file(f, std::filesystem::file_size(f) - 100);
  auto stats = WriteCdxjIndex(*files, dir_ + "/index.cdxj");
  ASSERT_FALSE(stats.ok());
  EXPECT_NE(stats.status().message().find(GetParam() ? "truncated zstd frame at offset"
                                                      : "truncated gzip member at offset"),
            std::string::npos)
      << stats.status().message();
  EXPECT_NE(stats.status().message().find(f), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/index.cdxj"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/index.cdxj.tmp"));
}

INSTANTIATE_TEST_SUITE_P(GzipAndZstd, CdxjTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return i.param ? "zstd" : "gzip";
                         });

TEST(CdxjFilesTest, NoWarcFilesIsAnError) {
  const std::string dir = MakeTempDir();
  auto files = CrawlWarcFiles(dir);
  EXPECT_FALSE(files.ok());
  RemoveTree(dir);
}

}  // namespace
}  // namespace topicrawl
