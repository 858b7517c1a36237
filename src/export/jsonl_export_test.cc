#include "export/jsonl_export.h"

#include <gtest/gtest.h>

#include <sstream>

#include "nlohmann/json.hpp"
#include "store/crawl_store.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using testing::MakeTempDir;
using testing::MakeTestPage;
using testing::RemoveTree;
using testing::TestPageUrl;

// Pages 1..8 of MakeTestPage: page 7 is robots-denied, relevance (k % 10) / 10,
// page k's parent is page k / 2.
class JsonlExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    auto store = CrawlStore::Open(dir_ + "/crawl", OpenMode::kCreate);
    ASSERT_TRUE(store.ok());
    for (int k = 1; k <= 8; ++k) ASSERT_TRUE((*store)->AddPage(MakeTestPage(k)).ok());
    ASSERT_TRUE((*store)->Close().ok());
  }
  void TearDown() override { RemoveTree(dir_); }

  std::vector<nlohmann::json> Export(const JsonlExportOptions& o) {
    auto db = CrawlDbReader::Open(dir_ + "/crawl");
    EXPECT_TRUE(db.ok());
    std::ostringstream out;
    auto stats = WriteJsonlExport(**db, dir_ + "/crawl", "", out, o);
    EXPECT_TRUE(stats.ok()) << stats.status().message();
    std::vector<nlohmann::json> lines;
    std::istringstream in(out.str());
    for (std::string l; std::getline(in, l);) lines.push_back(nlohmann::json::parse(l));
    EXPECT_EQ(stats->written, static_cast<int64_t>(lines.size()));
    return lines;
  }

  std::string dir_;
};

TEST_F(JsonlExportTest, OkPagesWithEveryFieldInIdOrder) {
  JsonlExportOptions o;
  o.fields = *ParseJsonlFields("");
  auto lines = Export(o);
  ASSERT_EQ(lines.size(), 7u);  // page 7 was denied by robots.txt
  for (const auto& j : lines) EXPECT_EQ(j.size(), JsonlExportFields().size());
  EXPECT_EQ(lines[0]["url"], TestPageUrl(1));
  EXPECT_EQ(lines[0]["final_url"], TestPageUrl(1));
  EXPECT_TRUE(lines[0]["parent_url"].is_null());
  EXPECT_EQ(lines[1]["parent_url"], TestPageUrl(1));
  EXPECT_NE(lines[0]["text"].get<std::string>().find("focused crawling text 1"), std::string::npos);
  EXPECT_EQ(lines[0]["status"], "ok");
  EXPECT_EQ(lines[6]["url"], TestPageUrl(8));
}

TEST_F(JsonlExportTest, RelevantOnlyAndAllStatusesChooseTheRows) {
  JsonlExportOptions o;
  o.fields = *ParseJsonlFields("url,relevance,text");
  o.relevant_only = true;
  o.beta = 0.5;
  auto relevant = Export(o);
  ASSERT_EQ(relevant.size(), 3u);  // pages 5, 6 and 8
  EXPECT_EQ(relevant[0]["url"], TestPageUrl(5));
  EXPECT_DOUBLE_EQ(relevant[2]["relevance"].get<double>(), 0.8);
  EXPECT_EQ(relevant[0].size(), 3u);

  o.relevant_only = false;
  o.all_statuses = true;
  o.fields = *ParseJsonlFields("url,status,text");
  auto all = Export(o);
  ASSERT_EQ(all.size(), 8u);
  EXPECT_NE(all[6]["status"], "ok");
  EXPECT_EQ(all[6]["text"], "");
}

TEST_F(JsonlExportTest, UnknownFieldsAndUnwritableFilesAreErrors) {
  auto bad = ParseJsonlFields("url,bogus");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'bogus'"), std::string::npos);
  EXPECT_NE(bad.status().message().find("fields: id, url, final_url"), std::string::npos);
  EXPECT_EQ(ParseJsonlFields("url,title")->size(), 2u);

  auto db = CrawlDbReader::Open(dir_ + "/crawl");
  ASSERT_TRUE(db.ok());
  std::ostringstream unused;
  JsonlExportOptions o;
  o.fields = {"url"};
  auto stats = WriteJsonlExport(**db, dir_ + "/crawl", dir_ + "/no/such/dir/x.jsonl", unused, o);
  ASSERT_FALSE(stats.ok());
  EXPECT_NE(stats.status().message().find("cannot write"), std::string::npos);
  EXPECT_EQ(JsonlExportSummary({5, 2}), "exported 5 pages (2 without readable text)");
  EXPECT_EQ(JsonlExportSummary({5, 0}), "exported 5 pages");
}

}  // namespace
}  // namespace topicrawl
