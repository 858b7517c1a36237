// Schema 3: fetches rows, versions, revisit records, round plans.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/hash.h"
#include "store/crawl_store.h"
#include "store/warc_reader.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using testing::MakeTempDir;
using testing::MakeTestPage;
using testing::RemoveTree;

class RoundsStoreTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = MakeTempDir(); }
  void TearDown() override { RemoveTree(dir_); }
  std::unique_ptr<CrawlStore> Open(OpenMode mode) {
    auto s = CrawlStore::Open(dir_, mode);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? std::move(s).value() : nullptr;
  }
  // Every record of every WARC file, in file order.
  std::vector<ParsedWarcRecord> AllRecords() {
    std::vector<ParsedWarcRecord> out;
    for (const auto& e : std::filesystem::directory_iterator(dir_ + "/warc")) {
      Status s = ReadWarcFile(e.path().string(), [&](ParsedWarcRecord& r) {
        out.push_back(r);
        return true;
      });
      EXPECT_TRUE(s.ok()) << s.message();
    }
    return out;
  }
  std::string dir_;
};

PageRecord Revisit(const PageRecord& first, int round, UrlState state, PageId version) {
  PageRecord p = first;
  p.round = round;
  p.revisit = true;
  p.fetch_state = state;
  p.fetched_at = first.fetched_at + 86'400'000LL * round;
  p.links.clear();
  p.admitted.clear();
  p.store_version = state == UrlState::kChanged || state == UrlState::kTriviallyChanged;
  p.version_id = version;
  p.digest = 0;
  return p;
}

TEST_F(RoundsStoreTest, FetchRowsVersionsAndRevisitRecords) {
  PageRecord a = MakeTestPage(1);  // ok page
  a.etag = "\"v1\"";
  a.simhash = 0x1234;
  const UrlId a_id = a.url_id;
  PageRecord b = MakeTestPage(2);
  const UrlId b_id = b.url_id;
  {
    auto store = Open(OpenMode::kCreate);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->schema_version(), 7);
    EXPECT_EQ(*store->CurrentRound(), 0);
    ASSERT_EQ(*store->AddPage(PageRecord(a)), 1);
    ASSERT_EQ(*store->AddPage(PageRecord(b)), 2);
    ASSERT_TRUE(store->StartRound(1, {{a_id, 1.0}, {b_id, 0.5}}, {}).ok());
    EXPECT_EQ(*store->CurrentRound(), 1);
    std::vector<RevisitRecord> pending;
    ASSERT_TRUE(store->LoadPendingRevisits(1, [&](const RevisitRecord& r) {
                       pending.push_back(r);
                       return true;
                     }).ok());
    ASSERT_EQ(pending.size(), 2u);
    for (const RevisitRecord& r : pending) {
      if (r.url_id == a_id) {
        EXPECT_EQ(r.etag, "\"v1\"");
        EXPECT_EQ(r.version_id, 1);
        EXPECT_EQ(r.digest, Hash64(a.body));
        EXPECT_EQ(r.simhash, 0x1234u);
        EXPECT_EQ(r.url, a.url);
        EXPECT_EQ(r.priority, 1.0);
      }
    }
    // Round 1: a answers 304 (revisit record), b changed (a new version).
    PageRecord a1 = Revisit(a, 1, UrlState::kUnchanged, 1);
    a1.body.clear();
    a1.http_code = 304;
    a1.status = FetchStatus::kNotModified;
    a1.response_head = "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n";
    a1.revisit_profile = PageRecord::RevisitProfile::kServerNotModified;
    a1.digest = Hash64(a.body);  // carried forward
    EXPECT_EQ(*store->AddPage(std::move(a1)), 1);  // no page id consumed
    PageRecord b1 = Revisit(b, 1, UrlState::kChanged, 2);
    b1.body += "<p>more</p>";
    ASSERT_EQ(*store->AddPage(std::move(b1)), 3);
    // Only b is left after a kill -9 here... both are done now.
    pending.clear();
    ASSERT_TRUE(store->LoadPendingRevisits(1, [&](const RevisitRecord& r) {
                       pending.push_back(r);
                       return true;
                     }).ok());
    EXPECT_TRUE(pending.empty());
    // Round 2: a returns an equal body (identical digest), b is gone.
    ASSERT_TRUE(store->StartRound(2, {{a_id, 1.0}, {b_id, 1.0}}, {}).ok());
    PageRecord a2 = Revisit(a, 2, UrlState::kUnchanged, 1);
    a2.revisit_profile = PageRecord::RevisitProfile::kIdenticalPayloadDigest;
    ASSERT_EQ(*store->AddPage(std::move(a2)), 1);
    PageRecord b2 = Revisit(b, 2, UrlState::kGone, 3);
    b2.status = FetchStatus::kHttpError;
    b2.http_code = 404;
    b2.response_head = "HTTP/1.1 404 Not Found\r\n\r\n";
    b2.body = "gone";
    ASSERT_EQ(*store->AddPage(std::move(b2)), 3);
    // Version queries: a is page 1 in every round; b is 2, then 3, then gone.
    EXPECT_EQ((*store->VersionAt(a_id, 2))->page_id, 1);
    EXPECT_EQ((*store->VersionAt(a_id, 2))->state, UrlState::kUnchanged);
    EXPECT_EQ((*store->VersionAt(b_id, 0))->page_id, 2);
    EXPECT_EQ((*store->VersionAt(b_id, 1))->page_id, 3);
    EXPECT_EQ((*store->VersionAt(b_id, 1))->state, UrlState::kChanged);
    EXPECT_EQ((*store->VersionAt(b_id, 2))->page_id, 0);
    EXPECT_EQ((*store->VersionAt(b_id, 2))->state, UrlState::kGone);
    EXPECT_FALSE(store->VersionAt(12345, 2)->has_value());
    // The text of b in round 1 is the body of the response record of page 3.
    auto v = *store->VersionAt(b_id, 1);
    auto rec = ReadWarcRecordAt(dir_ + "/" + v->warc_file, static_cast<uint64_t>(v->warc_offset));
    ASSERT_TRUE(rec.ok());
    EXPECT_NE(rec->block.find("<p>more</p>"), std::string::npos);
    ASSERT_TRUE(store->Close().ok());
  }
  // fetches: one row per URL and round, never twice.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ + "/crawl.db").c_str(), &db), SQLITE_OK);
  auto one = [&](const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
    std::string out = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)
                          ? reinterpret_cast<const char*>(sqlite3_column_text(st, 0))
                          : "<none>";
    sqlite3_finalize(st);
    return out;
  };
  EXPECT_EQ(one("SELECT count(*) FROM fetches"), "6");
  EXPECT_EQ(one("SELECT count(*) FROM pages"), "3");
  EXPECT_EQ(one("SELECT group_concat(round) FROM pages"), "0,0,1");
  EXPECT_EQ(one("SELECT group_concat(state || ':' || http_code, ' ') FROM "
                "(SELECT * FROM fetches ORDER BY round, state)"),
            "1:200 1:200 2:200 4:304 4:200 5:404");
  sqlite3_close(db);

  // Revisit records: one per unchanged fetch, each pointing at page 1's
  // response record.
  std::string original_id, original_digest;
  std::vector<ParsedWarcRecord> revisits;
  for (ParsedWarcRecord& r : AllRecords()) {
    if (r.Header("WARC-Type") == "response" && r.Header("WARC-Target-URI") == a.url) {
      original_id = std::string(r.Header("WARC-Record-ID"));
      original_digest = std::string(r.Header("WARC-Payload-Digest"));
    }
    if (r.Header("WARC-Type") == "revisit") revisits.push_back(r);
  }
  ASSERT_EQ(revisits.size(), 2u);
  ASSERT_FALSE(original_id.empty());
  for (const ParsedWarcRecord& r : revisits) {
    EXPECT_EQ(r.Header("WARC-Refers-To"), original_id);
    EXPECT_EQ(r.Header("WARC-Refers-To-Target-URI"), a.url);
    EXPECT_EQ(r.Header("WARC-Refers-To-Date"), WarcDate(a.fetched_at));
    EXPECT_EQ(r.Header("WARC-Payload-Digest"), original_digest);
    EXPECT_EQ(r.version, "WARC/1.1");
  }
  EXPECT_EQ(revisits[0].Header("WARC-Profile"),
            "http://netpreserve.org/warc/1.1/revisit/server-not-modified");
  EXPECT_NE(revisits[0].block.find("304 Not Modified"), std::string::npos);
  EXPECT_EQ(revisits[1].Header("WARC-Profile"),
            "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest");
  // Resumable afterwards, with the round kept.
  auto store = Open(OpenMode::kResume);
  ASSERT_TRUE(store);
  EXPECT_EQ(*store->CurrentRound(), 2);
  int simhashes = 0;
  ASSERT_TRUE(store->LoadSimhashes([&](PageId id, UrlId url, uint64_t h) {
                     EXPECT_EQ(id, 1);
                     EXPECT_EQ(url, a_id);
                     EXPECT_EQ(h, 0x1234u);
                     ++simhashes;
                     return true;
                   }).ok());
  EXPECT_EQ(simhashes, 1);
  auto facts = store->LoadPageFacts(1);
  ASSERT_TRUE(facts.ok() && facts->has_value());
  int out_links = -1;
  ASSERT_TRUE(store->ForEachFetch(0, [&](const FetchRow& f) {
                       if (f.url_id == a_id) out_links = static_cast<int>(f.out_links);
                       return true;
                     }).ok());
  EXPECT_EQ(out_links, 5);
  EXPECT_EQ((*facts)->url, a.url);
}

TEST_F(RoundsStoreTest, StartRoundQueuesNewSeedsAndKeepsOnlyTheCurrentPlan) {
  auto store = Open(OpenMode::kCreate);
  PageRecord a = MakeTestPage(1);
  ASSERT_TRUE(store->AddPage(PageRecord(a)).ok());
  FrontierRecord seed{Hash64("http://new.test/"), "http://new.test/", 0, 0, "", 1.0, "", 0};
  ASSERT_TRUE(store->StartRound(1, {{a.url_id, 2.0}}, {seed}).ok());
  ASSERT_TRUE(store->StartRound(2, {}, {}).ok());
  int pending = 0;
  ASSERT_TRUE(store->LoadPendingRevisits(2, [&](const RevisitRecord&) {
                       ++pending;
                       return true;
                     }).ok());
  EXPECT_EQ(pending, 0);
  bool queued = false;
  ASSERT_TRUE(store->LoadFrontier([&](const FrontierRecord& r) {
                       if (r.url == "http://new.test/") queued = r.state == 0;
                       return true;
                     }).ok());
  EXPECT_TRUE(queued);
}

// Schema 6 keyed fetches WITHOUT ROWID by (url_id, round); such a directory
// resumes in its own layout and keeps one row per URL and round.
TEST_F(RoundsStoreTest, SchemaSixResumesWithItsKeyedFetchesTable) {
  PageRecord a = MakeTestPage(1);
  const UrlId a_id = a.url_id;
  {
    auto store = Open(OpenMode::kCreate);
    ASSERT_EQ(*store->AddPage(PageRecord(a)), 1);
    ASSERT_TRUE(store->Close().ok());
  }
  ASSERT_TRUE(testing::ConvertToSchema6(dir_).ok());
  {
    auto store = Open(OpenMode::kResume);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->schema_version(), 6);
    ASSERT_TRUE(store->StartRound(1, {{a_id, 1.0}}, {}).ok());
    PageRecord a1 = Revisit(a, 1, UrlState::kUnchanged, 1);
    a1.digest = Hash64(a.body);
    ASSERT_EQ(*store->AddPage(PageRecord(a1)), 1);
    ASSERT_EQ(*store->AddPage(PageRecord(a1)), 1);  // the same fetch again
    EXPECT_EQ((*store->VersionAt(a_id, 1))->page_id, 1);
    EXPECT_EQ((*store->VersionAt(a_id, 1))->state, UrlState::kUnchanged);
    ASSERT_TRUE(store->Close().ok());
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ + "/crawl.db").c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT (SELECT count(*) FROM fetches), "
                               "(SELECT count(*) FROM sqlite_master WHERE name = 'fetches_key'), "
                               "(SELECT sql LIKE '%WITHOUT ROWID' FROM sqlite_master "
                               " WHERE name = 'fetches')",
                               -1, &st, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), 2);  // round 0 and round 1, once each
  EXPECT_EQ(sqlite3_column_int(st, 1), 0);
  EXPECT_EQ(sqlite3_column_int(st, 2), 1);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

TEST_F(RoundsStoreTest, SchemaTwoResumesButHasNoRounds) {
  {
    auto store = Open(OpenMode::kCreate);
    ASSERT_TRUE(store->AddPage(MakeTestPage(1)).ok());
    ASSERT_TRUE(store->Close().ok());
  }
  // Turn the directory into what schema 2 wrote.
  ASSERT_TRUE(testing::ConvertToSchema3(dir_).ok());
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ + "/crawl.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "ALTER TABLE pages DROP COLUMN round;"
                         "ALTER TABLE pages DROP COLUMN near_dup_of;"
                         "DROP TABLE fetches; DROP TABLE revisits;"
                         "UPDATE meta SET value='2' WHERE key='schema_version';",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto store = Open(OpenMode::kResume);
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schema_version(), 2);
  ASSERT_TRUE(store->AddPage(MakeTestPage(2)).ok());
  auto round = store->CurrentRound();
  ASSERT_FALSE(round.ok());
  EXPECT_NE(round.status().message().find("older topicrawl (schema 2)"), std::string::npos);
  ASSERT_TRUE(store->Close().ok());
}

}  // namespace
}  // namespace topicrawl
