#include "eval/round_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

namespace topicrawl::eval {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// A schema-3 crawl of a.test over rounds 0..2 and the truth of those rounds.
class RoundMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = (fs::temp_directory_path() / ("round_metrics_test_" + std::to_string(::getpid())))
                .string();
    fs::remove_all(base_);
    crawl_ = base_ + "/crawl";
    truth_ = base_ + "/evo";
    fs::create_directories(crawl_);
    fs::create_directories(truth_ + "/truth");
    Write(truth_ + "/evolve.tsv", "format\ttopicrawl-evolved-web-1\nrounds\t2\n");
    // Round 0: 1..4 exist. Round 1: 5 new (relevant), 2 changed, 3 changed,
    // 4 gone. Round 2: 6 new, 1 changed (never revisited by the crawl).
    Write(truth_ + "/truth/round-0.tsv",
          "url\tstate\n" + Row(1, "new") + Row(2, "new") + Row(3, "new") + Row(4, "new"));
    Write(truth_ + "/truth/round-1.tsv", "url\tstate\n" + Row(1, "unchanged") +
                                             Row(2, "changed") + Row(3, "changed") +
                                             Row(4, "gone") + Row(5, "new"));
    Write(truth_ + "/truth/round-2.tsv", "url\tstate\n" + Row(1, "changed") +
                                             Row(2, "unchanged") + Row(3, "unchanged") +
                                             Row(5, "unchanged") + Row(6, "new"));
    for (int k = 0; k <= 2; ++k) Write(truth_ + "/truth/hubs-" + std::to_string(k) + ".tsv", "url\tnew_links\n");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((crawl_ + "/crawl.db").c_str(), &db), SQLITE_OK);
    std::string sql =
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
        "INSERT INTO meta VALUES('schema_version','3'),('round','2');"
        "CREATE TABLE frontier(url_id INTEGER PRIMARY KEY, url TEXT, depth INTEGER,"
        " parent_id INTEGER, anchor TEXT, score REAL, explanation TEXT, state INTEGER);"
        "CREATE TABLE pages(id INTEGER PRIMARY KEY, url TEXT, near_dup_of INTEGER);"
        "CREATE TABLE fetches(url_id INTEGER, round INTEGER, at INTEGER, state INTEGER,"
        " http_code INTEGER, bytes INTEGER, page_id INTEGER, digest INTEGER, simhash INTEGER,"
        " etag TEXT, last_modified TEXT, new_links INTEGER, revisit INTEGER,"
        " PRIMARY KEY(url_id, round)) WITHOUT ROWID;";
    for (int i = 1; i <= 6; ++i) {
      sql += "INSERT INTO frontier VALUES(" + std::to_string(i) + ",'" + Url(i) +
             "',0,0,'',0,'',1);";
    }
    // Pages (versions): 1..4 in round 0, 2' (changed) and 5 in round 1; 5
    // nearly duplicates 1.
    sql += "INSERT INTO pages VALUES(1,'',NULL),(2,'',NULL),(3,'',NULL),(4,'',NULL),"
           "(5,'',NULL),(6,'',1),(7,'',NULL);";
    // url_id, round, state, http, bytes, page_id
    auto f = [](int u, int r, int state, int http, int bytes, int page) {
      return "INSERT INTO fetches VALUES(" + std::to_string(u) + "," + std::to_string(r) +
             ",0," + std::to_string(state) + "," + std::to_string(http) + "," +
             std::to_string(bytes) + "," + std::to_string(page) + ",0,0,NULL,NULL,0,0);";
    };
    sql += f(1, 0, 1, 200, 100, 1) + f(2, 0, 1, 200, 100, 2) + f(3, 0, 1, 200, 100, 3) +
           f(4, 0, 1, 200, 100, 4);
    // Round 1: 1 304, 2 changed, 3 trivially changed, 4 gone, 5 new (near-dup).
    sql += f(1, 1, 4, 304, 0, 1) + f(2, 1, 2, 200, 120, 5) + f(3, 1, 3, 200, 110, 7) +
           f(4, 1, 5, 404, 10, 0) + f(5, 1, 1, 200, 90, 6);
    // Round 2: only 2 (unchanged, equal digest) fetched; 6 not found.
    sql += f(2, 2, 4, 200, 120, 5);
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  void TearDown() override { fs::remove_all(base_); }
  static std::string Url(int i) { return "http://a.test/" + std::to_string(i) + ".html"; }
  static std::string Row(int i, const std::string& state) { return Url(i) + "\t" + state + "\n"; }
  static void Write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  }
  std::string base_, crawl_, truth_;
};

TEST_F(RoundMetricsTest, CountsEveryRoundAgainstTheTruth) {
  auto labels = LabelSet::Parse("http://a.test/5.html\t1\tx\nhttp://a.test/6.html\t1\tx\n"
                                "http://a.test/1.html\t0\tx\n");
  ASSERT_TRUE(labels.ok());
  auto rounds = ComputeRoundMetrics(crawl_, truth_, &*labels);
  ASSERT_TRUE(rounds.ok()) << rounds.status().message();
  ASSERT_EQ(rounds->size(), 3u);
  const RoundMetrics& r0 = (*rounds)[0];
  EXPECT_EQ(r0.fetches, 4);
  EXPECT_EQ(r0.new_found, 4);
  EXPECT_EQ(r0.new_total, 4);
  EXPECT_DOUBLE_EQ(r0.freshness, 1.0);
  const RoundMetrics& r1 = (*rounds)[1];
  EXPECT_EQ(r1.fetches, 5);
  EXPECT_EQ(r1.bytes, 330);
  EXPECT_EQ(r1.not_modified, 1);
  EXPECT_EQ(r1.new_found, 1);
  EXPECT_EQ(r1.new_total, 1);
  EXPECT_EQ(r1.new_relevant_total, 1);
  EXPECT_EQ(r1.new_relevant_found, 0);  // 5 is a near-duplicate
  EXPECT_EQ(r1.near_duplicates, 1);
  EXPECT_EQ(r1.changed_total, 2);
  EXPECT_EQ(r1.changed_found, 2);
  EXPECT_EQ(r1.changed_as_changed, 1);
  EXPECT_EQ(r1.changed_as_trivial, 1);
  EXPECT_EQ(r1.gone_found, 1);
  EXPECT_EQ(r1.gone_total, 1);
  EXPECT_DOUBLE_EQ(r1.fetches_per_new, 5.0);
  EXPECT_DOUBLE_EQ(r1.freshness, 1.0);  // 1..5 all match the served state
  const RoundMetrics& r2 = (*rounds)[2];
  EXPECT_EQ(r2.fetches, 1);
  EXPECT_EQ(r2.new_total, 1);
  EXPECT_EQ(r2.new_found, 0);
  EXPECT_EQ(r2.new_relevant_total, 1);
  EXPECT_EQ(r2.changed_total, 1);
  EXPECT_EQ(r2.changed_found, 0);
  // Stored: 1 (stale: changed in 2, last fetched 1), 2, 3, 4 (gone), 5.
  EXPECT_EQ(r2.stored, 5);
  EXPECT_DOUBLE_EQ(r2.freshness, 4.0 / 5.0);
  EXPECT_EQ(r2.unaccounted, 1);  // 6
  EXPECT_EQ(r2.fetches_per_new, 0);

  auto json = nlohmann::json::parse(RoundMetricsToJson(*rounds));
  ASSERT_EQ(json["rounds"].size(), 3u);
  for (const char* key : {"round", "fetches", "bytes", "not_modified", "new_found", "new_total",
                          "changed_found", "changed_total", "gone_found", "gone_total",
                          "new_relevant_found", "new_relevant_total", "freshness"}) {
    EXPECT_TRUE(json["rounds"][1].contains(key)) << key;
  }
  EXPECT_EQ(json["rounds"][1]["changed_found"], 2);
  EXPECT_THAT(RoundMetricsToTable(*rounds), HasSubstr("2/2 100%"));
  EXPECT_THAT(RenderRoundChart(*rounds, "t"), HasSubstr("<svg"));
}

TEST_F(RoundMetricsTest, ClearErrorsForBadInput) {
  EXPECT_THAT(ComputeRoundMetrics(base_ + "/nope", truth_, nullptr).status().message(),
              HasSubstr("not a crawl directory"));
  // Truth for other hosts.
  Write(truth_ + "/truth/round-0.tsv", "url\tstate\nhttp://b.test/1.html\tnew\n");
  EXPECT_THAT(ComputeRoundMetrics(crawl_, truth_, nullptr).status().message(),
              HasSubstr("other hosts"));
  // An interrupted evolution.
  Write(truth_ + "/EVOLVING", "x\n");
  EXPECT_THAT(ComputeRoundMetrics(crawl_, truth_, nullptr).status().message(),
              HasSubstr("interrupted"));
  fs::remove(truth_ + "/EVOLVING");
  // An older schema.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((crawl_ + "/crawl.db").c_str(), &db), SQLITE_OK);
  sqlite3_exec(db, "UPDATE meta SET value='2' WHERE key='schema_version'", nullptr, nullptr,
               nullptr);
  sqlite3_close(db);
  EXPECT_THAT(ComputeRoundMetrics(crawl_, truth_, nullptr).status().message(),
              HasSubstr("no round history"));
}

}  // namespace
}  // namespace topicrawl::eval
