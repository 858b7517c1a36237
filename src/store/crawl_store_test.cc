#include "store/crawl_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/hash.h"
#include "core/test_require.h"
#include "store/warc_reader.h"
#include "support/crawl_store_test_fixture.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using testing::CheckCrawlDir;
using testing::CrawlDirReport;
using testing::MakeTempDir;
using testing::MakeTestPage;
using testing::RemoveTree;

namespace fs = std::filesystem;
using store_test::CrawlStoreTest;
using store_test::Reader;

// docs/ARCHITECTURE.md "store/": eval reads these exact tables and columns.
TEST_F(CrawlStoreTest, CreatesTheSchemaOfTheArchitectureDocument) {
  auto store = OpenOrDie(OpenMode::kCreate);
  ASSERT_TRUE(store);
  Reader r(dir_);
  auto columns = [&](const std::string& table) {
    std::string out;
    for (const std::string& row :
         r.Rows("SELECT name, type, pk FROM pragma_table_info('" + table + "')")) {
      out += row + ",";
    }
    return out;
  };
  EXPECT_EQ(columns("pages"),
            "id|INTEGER|1,url|TEXT|0,final_url|TEXT|0,status|TEXT|0,"
            "http_code|INTEGER|0,content_type|TEXT|0,charset|TEXT|0,"
            "fetched_at|INTEGER|0,depth|INTEGER|0,parent_id|INTEGER|0,"
            "anchor|TEXT|0,content_hash|TEXT|0,size|INTEGER|0,relevance|REAL|0,"
            "link_score|REAL|0,title|TEXT|0,error|TEXT|0,explanation|TEXT|0,"
            "warc_file|TEXT|0,warc_offset|INTEGER|0,warc_length|INTEGER|0,"
            "round|INTEGER|0,near_dup_of|INTEGER|0,");
  // Schema 3: one fetches row per (URL, round); schema 7: a rowid table in
  // fetch order whose key (url_id, round) is the unique index fetches_key.
  EXPECT_EQ(r.One("SELECT group_concat(name) FROM pragma_index_info('fetches_key')"),
            "url_id,round");
  EXPECT_EQ(r.One("SELECT \"unique\" FROM pragma_index_list('fetches') "
                  "WHERE name = 'fetches_key'"),
            "1");
  EXPECT_EQ(columns("fetches"),
            "url_id|INTEGER|0,round|INTEGER|0,at|INTEGER|0,state|INTEGER|0,"
            "http_code|INTEGER|0,bytes|INTEGER|0,page_id|INTEGER|0,digest|INTEGER|0,"
            "simhash|INTEGER|0,etag|TEXT|0,last_modified|TEXT|0,new_links|INTEGER|0,"
            "out_links|INTEGER|0,revisit|INTEGER|0,");
  EXPECT_EQ(columns("revisits"), "url_id|INTEGER|1,priority|REAL|0,");
  // Schema 2: links is a view over page_links (one JSON text a page).
  EXPECT_EQ(columns("page_links"), "from_id|INTEGER|1,links|TEXT|0,");
  EXPECT_EQ(r.One("SELECT type FROM sqlite_master WHERE name = 'links'"), "view");
  EXPECT_EQ(r.Rows("SELECT name FROM pragma_table_info('links')"),
            (std::vector<std::string>{"from_id", "ord", "to_url", "anchor", "context", "score",
                                      "explanation"}));
  // Schema 4: frontier is a view over the append-only frontier_log.
  EXPECT_EQ(r.One("SELECT type FROM sqlite_master WHERE name = 'frontier'"), "view");
  EXPECT_EQ(r.Rows("SELECT name FROM pragma_table_info('frontier')"),
            (std::vector<std::string>{"url_id", "url", "depth", "parent_id", "anchor", "score",
                                      "explanation", "state"}));
  EXPECT_EQ(columns("frontier_log"),
            "url_id|INTEGER|0,url|TEXT|0,depth|INTEGER|0,parent_id|INTEGER|0,"
            "anchor|TEXT|0,score|REAL|0,explanation|TEXT|0,state|INTEGER|0,");
  EXPECT_EQ(columns("events"), "id|INTEGER|1,at|INTEGER|0,kind|TEXT|0,detail|TEXT|0,");
  EXPECT_EQ(columns("meta"), "key|TEXT|1,value|TEXT|0,");
  EXPECT_EQ(r.One("PRAGMA journal_mode"), "wal");
  // Schema 5: state changes in their own table; schema 6: a refusal's
  // reason on its state row, reasons interned, the refusals view.
  EXPECT_EQ(columns("frontier_state"),
            "url_id|INTEGER|0,state|INTEGER|0,page_id|INTEGER|0,reason|INTEGER|0,"
            "at|INTEGER|0,round|INTEGER|0,");
  EXPECT_EQ(columns("refusal_reasons"), "id|INTEGER|1,status|TEXT|0,error|TEXT|0,");
  EXPECT_EQ(r.One("SELECT type FROM sqlite_master WHERE name = 'refusals'"), "view");
  EXPECT_EQ(r.Rows("SELECT name FROM pragma_table_info('refusals')"),
            (std::vector<std::string>{"url_id", "url", "status", "error", "at", "round",
                                      "depth", "parent_id", "anchor", "score"}));
  EXPECT_EQ(r.One("SELECT value FROM meta WHERE key='schema_version'"), "7");
  EXPECT_EQ(r.One("PRAGMA page_size"), "65536");
  EXPECT_EQ(r.One("SELECT kind FROM events"), "created");
  EXPECT_EQ(r.Rows("SELECT name FROM sqlite_master WHERE type='index' AND "
                   "name NOT LIKE 'sqlite_autoindex%' ORDER BY name"),
            (std::vector<std::string>{"fetches_key", "pages_url"}));
  EXPECT_TRUE(fs::is_directory(dir_ + "/warc"));
}

TEST_F(CrawlStoreTest, RoundTripsEveryColumn) {
  auto store = OpenOrDie(OpenMode::kCreate);
  PageRecord p;
  p.url_id = 0xFEDCBA9876543210ull;  // high bit set: stored as negative int64
  p.url = "http://a.test/x?q=1";
  p.final_url = "http://a.test/y";
  p.status = FetchStatus::kOk;
  p.http_code = 200;
  p.content_type = "text/html; charset=gbk";
  p.charset = "GB18030";
  p.fetched_at = 1'700'000'123'456;
  p.depth = 3;
  p.parent_id = 0;  // -> NULL
  p.anchor = "锚 text";
  p.content_hash = "abcd";
  p.size = 77;
  p.relevance = 0.125;
  p.link_score = 0.625;
  p.title = "标题";
  p.error = "";
  p.explanation = "bm25=1.5";
  p.request_head = "GET /y HTTP/1.1\r\nHost: a.test\r\n\r\n";
  p.response_head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
  p.body = "<html>body</html>";
  p.remote_ip = "127.0.0.1";
  p.links.push_back({"http://b.test/", "b anchor", "ctx words", 0.5, "why"});
  p.links.push_back({"http://c.test/", "", "", -1.5, ""});
  p.admitted.push_back({0x8000000000000001ull, "http://b.test/", 4, 1, "b anchor",
                        0.5, "admitted: 0.5 > 0.3", 1 /*ignored*/});
  StatusOr<PageId> id = store->AddPage(std::move(p));
  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(*id, 1);

  std::map<UrlId, FrontierRecord> rows;
  ASSERT_TRUE(store->LoadFrontier([&](const FrontierRecord& f) {
                rows[f.url_id] = f;
                return true;
              }).ok());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0xFEDCBA9876543210ull].state, 1);
  const FrontierRecord& b = rows[0x8000000000000001ull];
  EXPECT_EQ(b.url, "http://b.test/");
  EXPECT_EQ(b.depth, 4u);
  EXPECT_EQ(b.parent_id, 1);
  EXPECT_EQ(b.anchor, "b anchor");
  EXPECT_EQ(b.score, 0.5);
  EXPECT_EQ(b.explanation, "admitted: 0.5 > 0.3");
  EXPECT_EQ(b.state, 0);
  ASSERT_TRUE(store->Flush().ok());

  Reader r(dir_);
  EXPECT_EQ(r.One("SELECT id,url,final_url,status,http_code,content_type,charset,"
                  "fetched_at,depth,parent_id,anchor,content_hash,size,relevance,"
                  "link_score,title,error,explanation,warc_file FROM pages"),
            "1|http://a.test/x?q=1|http://a.test/y|ok|200|text/html; charset=gbk|"
            "GB18030|1700000123456|3|NULL|锚 text|abcd|77|0.125|0.625|标题||"
            "bm25=1.5|warc/" +
                fs::directory_iterator(dir_ + "/warc")->path().filename().string());
  EXPECT_EQ(r.Rows("SELECT from_id,ord,to_url,anchor,context,score,explanation "
                   "FROM links"),
            (std::vector<std::string>{"1|0|http://b.test/|b anchor|ctx words|0.5|why",
                                      "1|1|http://c.test/|||-1.5|"}));
  EXPECT_EQ(r.Rows("SELECT url_id,url,depth,parent_id,anchor,score,explanation,"
                   "state FROM frontier ORDER BY url"),
            (std::vector<std::string>{
                std::to_string(int64_t(0xFEDCBA9876543210ull)) +
                    "|http://a.test/x?q=1|3|NULL|锚 text|0.625||1",
                std::to_string(int64_t(0x8000000000000001ull)) +
                    "|http://b.test/|4|1|b anchor|0.5|admitted: 0.5 > 0.3|0"}));

  std::vector<PageSummary> pages;
  ASSERT_TRUE(store->LoadPages([&](const PageSummary& s) {
                pages.push_back(s);
                return true;
              }).ok());
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(pages[0].final_url, "http://a.test/y");
  EXPECT_EQ(pages[0].relevance, 0.125);
  EXPECT_EQ(pages[0].parent_id, 0);
  ASSERT_TRUE(store->Close().ok());
  ExpectConsistent();
}

// Schema 4 stores same-origin link URLs as paths: the links view and
// LoadPageLinkUrls give back every URL as it was given.
TEST_F(CrawlStoreTest, LinksViewRebuildsSameOriginUrls) {
  auto store = OpenOrDie(OpenMode::kCreate);
  const std::vector<std::string> urls{"http://a.test/y?q=1#f", "https://a.test/x", "http://a.test/",
                                      "http://a.test.evil/z", "http://b.test/",
                                      "http://a.test/d/e/f.html", "http://a.test/d/g/"};
  for (const std::string& page_url :
       {std::string("http://a.test/x"), std::string("http://a.test"),
        std::string("http://a.test/d/e/x.html?u=/"), std::string("http://a.test/d/e.html")}) {
    PageRecord p = MakeTestPage(1, 0, 0);
    p.url = page_url;
    for (const std::string& u : urls) p.links.push_back({u, "a", "", 0.25, ""});
    StatusOr<PageId> id = store->AddPage(std::move(p));
    ASSERT_TRUE(id.ok());
    std::vector<std::string> got;
    ASSERT_TRUE(store->LoadPageLinkUrls(*id, &got).ok());
    EXPECT_EQ(got, urls) << page_url;
  }
  ASSERT_TRUE(store->Close().ok());
  Reader r(dir_);
  EXPECT_EQ(r.Rows("SELECT to_url FROM links WHERE from_id = 1 ORDER BY ord"), urls);
  EXPECT_EQ(r.One("SELECT links FROM page_links WHERE from_id = 1"),
            R"([[".y?q=1#f","a",0.25],["https://a.test/x","a",0.25],[".","a",0.25],)"
            R"(["http://a.test.evil/z","a",0.25],["http://b.test/","a",0.25],)"
            R"([".d/e/f.html","a",0.25],[".d/g/","a",0.25]])");
  EXPECT_EQ(r.One("SELECT count(*) FROM links WHERE context = '' AND explanation = '' "
                  "AND score = 0.25"),
            "28");
  for (int id = 1; id <= 4; ++id) {
    EXPECT_EQ(r.Rows("SELECT to_url FROM links WHERE from_id = " + std::to_string(id) +
                     " ORDER BY ord"),
              urls)
        << id;
  }
}

TEST_F(CrawlStoreTest, FailuresArePagesWithoutWarcRecordsUnlessTheyHaveABody) {
  auto store = OpenOrDie(OpenMode::kCreate);
  PageRecord denied;
  denied.url = "http://a.test/private";
  denied.url_id = Hash64(denied.url);
  denied.status = FetchStatus::kRobotsDenied;
  denied.error = "robots.txt";
  ASSERT_TRUE(store->AddPage(std::move(denied)).ok());
  PageRecord missing = MakeTestPage(11);  // a 404 with a body
  ASSERT_EQ(missing.status, FetchStatus::kHttpError);
  ASSERT_TRUE(store->AddPage(std::move(missing)).ok());
  ASSERT_TRUE(store->Close().ok());
  Reader r(dir_);
  EXPECT_EQ(r.Rows("SELECT status, http_code, relevance, warc_file IS NULL, "
                   "content_hash = '' FROM pages ORDER BY id"),
            (std::vector<std::string>{"robots_denied|0|NULL|1|1",
                                      "http_error|404|NULL|0|0"}));
  ExpectConsistent();
}

TEST_F(CrawlStoreTest, BatchesUntilTheIntervalPassesOrFlush) {
  options_.commit_interval = std::chrono::milliseconds(200);
  auto store = OpenOrDie(OpenMode::kCreate);
  Reader r(dir_);
  ASSERT_TRUE(store->AddPage(MakeTestPage(1)).ok());
  ASSERT_TRUE(store->AddPage(MakeTestPage(2)).ok());
  EXPECT_EQ(r.One("SELECT count(*) FROM pages"), "0");
  EXPECT_EQ(store->pending_pages(), 2u);
  clock_.Advance(std::chrono::milliseconds(150));
  ASSERT_TRUE(store->CommitIfDue().ok());
  EXPECT_EQ(r.One("SELECT count(*) FROM pages"), "0");
  clock_.Advance(std::chrono::milliseconds(60));
  ASSERT_TRUE(store->AddPage(MakeTestPage(3)).ok());  // batch now 210 ms old
  EXPECT_EQ(r.One("SELECT count(*) FROM pages"), "3");
  EXPECT_EQ(store->pending_pages(), 0u);
  ASSERT_TRUE(store->AddPage(MakeTestPage(4)).ok());
  EXPECT_EQ(r.One("SELECT count(*) FROM pages"), "3");
  ASSERT_TRUE(store->Flush().ok());
  EXPECT_EQ(r.One("SELECT count(*) FROM pages"), "4");
  ASSERT_TRUE(store->AddPage(MakeTestPage(5)).ok());
  clock_.Advance(std::chrono::milliseconds(300));
  ASSERT_TRUE(store->CommitIfDue().ok());
  EXPECT_EQ(r.One("SELECT count(*) FROM pages"), "5");
}

TEST_F(CrawlStoreTest, LargeStoresCommitAtTheLongInterval) {
  options_.commit_interval = std::chrono::milliseconds(200);
  options_.long_commit_interval = std::chrono::milliseconds(1000);
  options_.long_commit_after_pages = 2;
  auto store = OpenOrDie(OpenMode::kCreate);
  Reader r(dir_);
  ASSERT_TRUE(store->AddPage(MakeTestPage(1)).ok());
  clock_.Advance(std::chrono::milliseconds(250));
  ASSERT_TRUE(store->CommitIfDue().ok());  // 1 page stored: the short interval
  EXPECT_EQ(r.One("SELECT count(*) FROM pages"), "1");
  ASSERT_TRUE(store->AddPage(MakeTestPage(2)).ok());
  ASSERT_TRUE(store->AddPage(MakeTestPage(3)).ok());  // past 2 pages
  clock_.Advance(std::chrono::milliseconds(500));
  ASSERT_TRUE(store->CommitIfDue().ok());
  EXPECT_EQ(r.One("SELECT count(*) FROM pages"), "1");
  EXPECT_EQ(store->pending_pages(), 2u);
  clock_.Advance(std::chrono::milliseconds(510));
  ASSERT_TRUE(store->CommitIfDue().ok());
  EXPECT_EQ(r.One("SELECT count(*) FROM pages"), "3");
}

// Past the long interval, the interval grows with the pages rows (capped),
// and so does the row cap.
TEST_F(CrawlStoreTest, TheLongIntervalGrowsWithTheStoreUpToItsCap) {
  options_.commit_interval = std::chrono::milliseconds(200);
  options_.long_commit_interval = std::chrono::milliseconds(1000);
  options_.long_commit_after_pages = 2;
  // 500 s per 10^6 pages rows: 0.5 s a row (the next page id counts).
  options_.commit_interval_per_million_pages = std::chrono::milliseconds(500000000);
  options_.max_commit_interval = std::chrono::milliseconds(2500);
  options_.commit_max_pages = 3;
  auto store = OpenOrDie(OpenMode::kCreate);
  Reader r(dir_);
  auto stored = [&] { return r.One("SELECT count(*) FROM pages"); };
  ASSERT_TRUE(store->AddPage(MakeTestPage(1)).ok());
  clock_.Advance(std::chrono::milliseconds(250));
  ASSERT_TRUE(store->CommitIfDue().ok());  // 1 row: the short interval
  EXPECT_EQ(stored(), "1");
  ASSERT_TRUE(store->AddPage(MakeTestPage(2)).ok());  // next id 3: 1.5 s
  clock_.Advance(std::chrono::milliseconds(1400));
  ASSERT_TRUE(store->CommitIfDue().ok());
  EXPECT_EQ(stored(), "1");
  clock_.Advance(std::chrono::milliseconds(110));
  ASSERT_TRUE(store->CommitIfDue().ok());
  EXPECT_EQ(stored(), "2");
  ASSERT_TRUE(store->AddPage(MakeTestPage(3)).ok());  // next id 4: 2 s
  clock_.Advance(std::chrono::milliseconds(1900));
  ASSERT_TRUE(store->CommitIfDue().ok());
  EXPECT_EQ(stored(), "2");
  clock_.Advance(std::chrono::milliseconds(110));
  ASSERT_TRUE(store->CommitIfDue().ok());
  EXPECT_EQ(stored(), "3");
  ASSERT_TRUE(store->AddPage(MakeTestPage(4)).ok());
  ASSERT_TRUE(store->AddPage(MakeTestPage(5)).ok());  // next id 6: 3 s, capped at 2.5 s
  clock_.Advance(std::chrono::milliseconds(2400));
  ASSERT_TRUE(store->CommitIfDue().ok());
  EXPECT_EQ(stored(), "3");
  clock_.Advance(std::chrono::milliseconds(110));
  ASSERT_TRUE(store->CommitIfDue().ok());
  EXPECT_EQ(stored(), "5");
  // The row cap: 3 a whole second of the 2.5 s interval, 6 rows.
  for (int k = 6; k <= 10; ++k) ASSERT_TRUE(store->AddPage(MakeTestPage(k)).ok());
  EXPECT_EQ(stored(), "5");
  ASSERT_TRUE(store->AddPage(MakeTestPage(11)).ok());  // the batch's 6th row
  EXPECT_EQ(stored(), "11");
}

TEST_F(CrawlStoreTest, FrontierIsALogFirstAdmissionWinsAndStateOnlyGrows) {
  options_.frontier_merge_rows = 1;  // schema 4 never merges, whatever it says
  auto store = OpenOrDie(OpenMode::kCreate);
  const UrlId a = Hash64("http://a.test/"), b = Hash64("http://b.test/");
  ASSERT_TRUE(store->AddSeeds({{a, "http://a.test/", 0, 0, "", 1.0, "seed", 0}}).ok());
  PageRecord page = MakeTestPage(1, 0, 0);
  page.url_id = a;
  page.url = "http://a.test/";
  page.admitted.push_back({b, "http://b.test/", 1, 1, "first", 0.5, "x", 0});
  ASSERT_TRUE(store->AddPage(std::move(page)).ok());
  PageRecord again = MakeTestPage(2, 0, 0);
  again.admitted.push_back({b, "http://b.test/", 9, 2, "second", 0.9, "y", 0});
  again.admitted.push_back({a, "http://a.test/", 9, 2, "again", 0.9, "y", 0});
  ASSERT_TRUE(store->AddPage(std::move(again)).ok());
  EXPECT_EQ(store->pending_frontier_rows(), 0);
  std::vector<std::string> streamed;
  ASSERT_TRUE(store->LoadFrontier([&](const FrontierRecord& f) {
                streamed.push_back(f.url + "|" + std::to_string(f.depth) + "|" + f.anchor + "|" +
                                   f.explanation + "|" + std::to_string(f.state));
                return true;
              }).ok());
  // Admission order; the first admission's columns; state 1 once fetched.
  EXPECT_EQ(streamed, (std::vector<std::string>{"http://a.test/|0||seed|1",
                                                "http://b.test/|1|first|x|0",
                                                testing::TestPageUrl(2) + "|2|anchor 2||1"}));
  ASSERT_TRUE(store->Close().ok());
  Reader r(dir_);
  // Nothing is merged at close: the log is the frontier, the view reads it.
  // Admissions in the log, the two fetched pages' "done" in frontier_state
  // (url_id, state, page id: ~17 bytes instead of a whole log row).
  EXPECT_EQ(r.One("SELECT count(*) FROM frontier_log"), "4");
  EXPECT_EQ(r.Rows("SELECT state, page_id FROM frontier_state ORDER BY rowid"),
            (std::vector<std::string>{"1|1", "1|2"}));
  const std::vector<std::string> want{"http://a.test/|0|NULL||1",
                                      "http://b.test/|1|1|first|0",
                                      testing::TestPageUrl(2) + "|2|1|anchor 2|1"};
  EXPECT_EQ(r.Rows("SELECT url, depth, parent_id, anchor, state FROM frontier "
                   "ORDER BY url"),
            want);
  ExpectConsistent();
  // Writes through the view (crawl merge) append rows.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ + "/crawl.db").c_str(), &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db,
                         "UPDATE frontier SET state = 1 WHERE url = 'http://b.test/';"
                         "INSERT INTO frontier VALUES(7, 'http://c.test/', 2, 1, 'c', 0.1, '', 0)",
                         nullptr, nullptr, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(db);
  sqlite3_close(db);
  EXPECT_EQ(r.Rows("SELECT url, state FROM frontier WHERE url > 'http://b' ORDER BY url"),
            (std::vector<std::string>{"http://b.test/|1", "http://c.test/|0",
                                      testing::TestPageUrl(2) + "|1"}));
}

// Schema 5 keeps an admitted URL cut from its parent page's URL; the view,
// LoadFrontier and a resume give back the whole URL.
TEST_F(CrawlStoreTest, AdmittedUrlsAreCutFromTheirParentAndJoinedBack) {
  // Cut URLs longer than std::string's in-place buffer: the store must keep
  // the bound text alive (it is bound without a copy).
  const std::string c = "http://a.test/d/a-name-longer-than-sso-buffers.html";
  const std::string e = "http://a.test/e/f?g=/h-and-a-long-query-string";
  const std::vector<std::string> urls{c, e, "http://z.test/", "http://a.test/d/x",
                                      "http://a.test/d/y"};
  auto stream = [](CrawlStore* store) {
    std::vector<std::string> out;
    EXPECT_TRUE(store->LoadFrontier([&out](const FrontierRecord& f) {
                  if (f.state == 0) out.push_back(f.url + "|" + f.anchor);
                  return true;
                }).ok());
    return out;
  };
  const std::vector<std::string> want{c + "|c0", e + "|c1",
                                      "http://z.test/|c2", "http://a.test/d/x|c3",
                                      "http://a.test/d/y|c4"};
  {
    auto store = OpenOrDie(OpenMode::kCreate);
    PageRecord page = MakeTestPage(1, 0, 0);
    page.url = "http://a.test/d/p.html";
    for (size_t k = 0; k < urls.size(); ++k) {
      // The 4th has an explanation (kept whole for `explain`), the 5th
      // names another parent (kept whole).
      page.admitted.push_back({Hash64(urls[k]), urls[k], 1, k == 4 ? PageId(7) : PageId(1),
                               "c" + std::to_string(k), 0.5, k == 3 ? "{\"e\":1}" : "", 0});
    }
    ASSERT_TRUE(store->AddPage(std::move(page)).ok());
    EXPECT_EQ(stream(store.get()), want);
    ASSERT_TRUE(store->Close().ok());
  }
  Reader r(dir_);
  EXPECT_EQ(r.Rows("SELECT url FROM frontier_log ORDER BY rowid"),
            (std::vector<std::string>{".a-name-longer-than-sso-buffers.html",
                                      "/e/f?g=/h-and-a-long-query-string", "http://z.test/",
                                      "http://a.test/d/x", "http://a.test/d/y"}));
  EXPECT_EQ(r.Rows("SELECT url || '|' || anchor FROM frontier WHERE state = 0 ORDER BY anchor"),
            want);
  ExpectConsistent();
  auto store = OpenOrDie(OpenMode::kResume);
  ASSERT_TRUE(store);
  EXPECT_EQ(stream(store.get()), want);
}

TEST_F(CrawlStoreTest, CommitsWhenTheBatchHoldsMaxPages) {
  options_.commit_max_pages = 3;
  auto store = OpenOrDie(OpenMode::kCreate);
  Reader r(dir_);
  for (int k = 1; k <= 7; ++k) ASSERT_TRUE(store->AddPage(MakeTestPage(k)).ok());
  EXPECT_EQ(r.One("SELECT count(*) FROM pages"), "6");
  store.reset();  // the destructor commits the rest
  EXPECT_EQ(r.One("SELECT count(*) FROM pages"), "7");
  ExpectConsistent();
}

TEST_F(CrawlStoreTest, WarcBytesReachTheFileBeforeTheirRowsCommit) {
  auto store = OpenOrDie(OpenMode::kCreate);
  ASSERT_TRUE(store->AddPage(MakeTestPage(1)).ok());
  ASSERT_TRUE(store->Flush().ok());
  Reader r(dir_);
  const std::string file = r.One("SELECT warc_file FROM pages");
  const std::string end = r.One("SELECT warc_offset + warc_length FROM pages");
  EXPECT_EQ(std::to_string(fs::file_size(dir_ + "/" + file)), end);
  EXPECT_EQ(r.One("SELECT length FROM warc_files"), end);
}

TEST_F(CrawlStoreTest, EventsMetaAndConfigSnapshot) {
  auto store = OpenOrDie(OpenMode::kCreate);
  ASSERT_TRUE(store->SetMeta("strategy", "bfs").ok());
  ASSERT_TRUE(store->SetMeta("strategy", "jlse").ok());
  ASSERT_TRUE(store->AddEvent("seed_error", "bad url").ok());
  ASSERT_TRUE(store->SaveConfigSnapshot("[crawl]\nmax_pages = 10\n").ok());
  ASSERT_TRUE(store->SaveConfigSnapshot("[crawl]\nmax_pages = 20\n").ok());
  StatusOr<std::optional<std::string>> v = store->GetMeta("strategy");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->value_or(""), "jlse");
  EXPECT_FALSE(store->GetMeta("nope")->has_value());
  ASSERT_TRUE(store->Flush().ok());
  Reader r(dir_);
  EXPECT_EQ(r.Rows("SELECT kind, detail, at FROM events ORDER BY id"),
            (std::vector<std::string>{"created|" + dir_ + "|1700000000000",
                                      "seed_error|bad url|1700000000000"}));
  std::ifstream in(dir_ + "/config.toml");
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), "[crawl]\nmax_pages = 20\n");
  EXPECT_FALSE(fs::exists(dir_ + "/config.toml.tmp"));
}

TEST_F(CrawlStoreTest, SeedsAreQueuedOnceAndLoadPageStatsCounts) {
  auto store = OpenOrDie(OpenMode::kCreate);
  std::vector<FrontierRecord> seeds;
  for (int k = 1; k <= 6; ++k) {
    seeds.push_back({Hash64(testing::TestPageUrl(k)), testing::TestPageUrl(k), 0,
                     0, "", 1.0, "seed", 0});
  }
  ASSERT_TRUE(store->AddSeeds(seeds).ok());
  ASSERT_TRUE(store->AddSeeds(seeds).ok());  // duplicates ignored
  for (int k = 1; k <= 3; ++k) ASSERT_TRUE(store->AddPage(MakeTestPage(k, 5, 0)).ok());
  StatusOr<PageStats> stats = store->LoadPageStats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->pages, 3);
  EXPECT_EQ(stats->ok_pages, 3);
  EXPECT_EQ(stats->max_page_id, 3);
  int64_t rows = 0, queued = 0;
  ASSERT_TRUE(store->CountFrontier(&rows, &queued).ok());
  EXPECT_EQ(rows, 6);
  EXPECT_EQ(queued, 3);
  EXPECT_DOUBLE_EQ(stats->relevance_sum, 0.1 + 0.2 + 0.3);
  EXPECT_EQ(stats->by_status["ok"], 3);
}

TEST_F(CrawlStoreTest, ResumeTruncatesUncommittedWarcBytesAndContinuesIds) {
  {
    auto store = OpenOrDie(OpenMode::kCreate);
    for (int k = 1; k <= 5; ++k) ASSERT_TRUE(store->AddPage(MakeTestPage(k)).ok());
    ASSERT_TRUE(store->Close().ok());
  }
  const std::string file = fs::directory_iterator(dir_ + "/warc")->path().string();
  const auto committed = fs::file_size(file);
  // What a crash leaves behind: bytes past the committed end (a page whose
  // transaction never committed, maybe half-written), and a file created by
  // a session that never committed anything into it.
  std::ofstream(file, std::ios::app | std::ios::binary) << "\x1f\x8b partial member";
  const auto garbage = fs::file_size(file) - committed;
  const std::string orphan = dir_ + "/warc/" + WarcFileName(1'800'000'000'000, 9);
  std::ofstream(orphan) << "orphan";
  std::ofstream(dir_ + "/warc/notes.txt") << "not ours";

  clock_.Advance(std::chrono::hours(1));
  auto store = OpenOrDie(OpenMode::kResume);
  ASSERT_TRUE(store);
  EXPECT_TRUE(store->resumed());
  EXPECT_EQ(fs::file_size(file), committed);
  EXPECT_FALSE(fs::exists(orphan));
  EXPECT_TRUE(fs::exists(dir_ + "/warc/notes.txt"));  // not ours: untouched
  StatusOr<PageId> id = store->AddPage(MakeTestPage(6));
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(*id, 6);
  ASSERT_TRUE(store->Close().ok());
  Reader r(dir_);
  EXPECT_EQ(r.One("SELECT kind, detail FROM events ORDER BY id DESC LIMIT 1"),
            "resumed|truncated 1 WARC file(s), deleted 1, dropped " +
                std::to_string(6 + garbage) + " uncommitted bytes; next page id 6");
  // A new session writes a new file, numbered after every file seen.
  EXPECT_EQ(r.Rows("SELECT DISTINCT warc_file FROM pages").size(), 2u);
  uint32_t seq = 0;
  ASSERT_TRUE(ParseWarcFileName(
      fs::path(r.One("SELECT warc_file FROM pages WHERE id = 6")).filename().string(),
      &seq));
  EXPECT_EQ(seq, 10u);
  fs::remove(dir_ + "/warc/notes.txt");
  ExpectConsistent();
}

// Links go in 64, 32, ..., 1 rows per statement: every row keeps its page
// position (ord) and columns, across pages.
TEST_F(CrawlStoreTest, StoresLinksInPageOrderAcrossStatementBatches) {
  auto store = OpenOrDie(OpenMode::kCreate);
  ASSERT_TRUE(store);
  const int counts[] = {130, 0, 63, 64, 1};
  std::vector<std::string> expected;
  for (int k = 1; k <= 5; ++k) {
    PageRecord page = MakeTestPage(k, counts[k - 1]);
    ASSERT_EQ(page.links.size(), size_t(counts[k - 1]));
    StatusOr<PageId> id = store->AddPage(PageRecord(page));
    ASSERT_TRUE(id.ok());
    for (size_t i = 0; i < page.links.size(); ++i) {
      const LinkRecord& l = page.links[i];
      expected.push_back(std::to_string(*id) + "|" + std::to_string(i) + "|" +
                         l.to_url + "|" + l.anchor + "|" + l.context + "|" +
                         std::to_string(std::llround(l.score * 1000)) + "|" +
                         l.explanation);
    }
  }
  ASSERT_TRUE(store->Close().ok());
  Reader r(dir_);
  EXPECT_EQ(r.Rows("SELECT from_id,ord,to_url,anchor,context,"
                   "CAST(round(score * 1000) AS INTEGER),explanation FROM links "
                   "ORDER BY from_id, ord"),
            expected);
  ExpectConsistent();
}

// Schema 2: what AddPage stored comes back row by row through the links
// view, in page order, and a lookup by page uses page_links' key.
TEST_F(CrawlStoreTest, LinksViewGivesBackEveryLinkInOrder) {
  auto store = OpenOrDie(OpenMode::kCreate);
  ASSERT_TRUE(store);
  PageRecord page = MakeTestPage(1, 0);
  page.links = {{"http://a.test/x", "Anchor \"quoted\"", "ctx\nline", 0.75, "{\"s\":0.75}"},
                {"http://b.test/网络", "", "", 0.0, ""},
                {"http://a.test/x", "again", "", -1.5, ""}};
  ASSERT_TRUE(store->AddPage(PageRecord(page)).ok());
  ASSERT_TRUE(store->AddPage(MakeTestPage(2, 0)).ok());  // no links: no row
  ASSERT_TRUE(store->Close().ok());
  Reader r(dir_);
  EXPECT_EQ(r.Rows("SELECT from_id, ord, to_url, anchor, replace(context, char(10), '/'), "
                   "score, explanation FROM links ORDER BY from_id, ord"),
            (std::vector<std::string>{"1|0|http://a.test/x|Anchor \"quoted\"|ctx/line|0.75|"
                                      "{\"s\":0.75}",
                                      "1|1|http://b.test/网络|||0.0|", "1|2|http://a.test/x|again||-1.5|"}));
  EXPECT_EQ(r.One("SELECT count(*) FROM page_links"), "1");
  EXPECT_EQ(r.One("SELECT typeof(score) FROM links LIMIT 1"), "real");
  std::string plan;
  for (const std::string& row :
       r.Rows("EXPLAIN QUERY PLAN SELECT to_url FROM links WHERE from_id = 1")) {
    plan += row + "\n";
  }
  EXPECT_NE(plan.find("INTEGER PRIMARY KEY"), std::string::npos) << plan;
}

TEST_F(CrawlStoreTest, AnIoErrorIsStickyAndLeavesTheCrawlResumable) {
  options_.warc.max_file_bytes = 1;  // every page starts a new WARC file
  auto store = OpenOrDie(OpenMode::kCreate);
  ASSERT_TRUE(store->AddPage(MakeTestPage(1)).ok());
  ASSERT_TRUE(store->Flush().ok());
  // The next WARC file cannot be created: warc/ is suddenly a plain file.
  fs::rename(dir_ + "/warc", dir_ + "/warc.moved");
  std::ofstream(dir_ + "/warc") << "in the way";
  StatusOr<PageId> failed = store->AddPage(MakeTestPage(2));
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("cannot create WARC file"),
            std::string::npos);
  StatusOr<PageId> again = store->AddPage(MakeTestPage(3));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(), failed.status().message());
  EXPECT_FALSE(store->Flush().ok());
  EXPECT_FALSE(store->Close().ok());
  fs::remove(dir_ + "/warc");
  fs::rename(dir_ + "/warc.moved", dir_ + "/warc");
  auto resumed = OpenOrDie(OpenMode::kResume);
  ASSERT_TRUE(resumed);
  StatusOr<PageStats> stats = resumed->LoadPageStats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->pages, 1);
  ASSERT_TRUE(resumed->Close().ok());
  ExpectConsistent();
}

TEST_F(CrawlStoreTest, RotatesWarcFilesAndPagesPointIntoTheRightFile) {
  options_.warc.max_file_bytes = 20000;
  auto store = OpenOrDie(OpenMode::kCreate);
  for (int k = 1; k <= 60; ++k) {
    ASSERT_TRUE(store->AddPage(MakeTestPage(k, 3, 2, 4000)).ok());
  }
  ASSERT_TRUE(store->Close().ok());
  CrawlDirReport report;
  Status s = CheckCrawlDir(dir_, &report);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_GT(report.warc_files, 3);
  EXPECT_EQ(report.pages, 60);
  Reader r(dir_);
  EXPECT_EQ(r.One("SELECT count(DISTINCT warc_file) FROM pages"),
            std::to_string(report.warc_files));
  EXPECT_EQ(r.One("SELECT count(*) FROM warc_files"), std::to_string(report.warc_files));
}

TEST_F(CrawlStoreTest, WrittenWarcPassesTheIndependentChecker) {
  auto store = OpenOrDie(OpenMode::kCreate);
  for (int k = 1; k <= 30; ++k) ASSERT_TRUE(store->AddPage(MakeTestPage(k)).ok());
  ASSERT_TRUE(store->Close().ok());
  if (testing::RunCommand("command -v python3 >/dev/null") != 0) {
    TOPICRAWL_SKIP_UNLESS_REQUIRED("python3 not installed");
  }
  const std::string script =
      std::string(TOPICRAWL_SOURCE_DIR) + "/src/store/warc_verify.py";
  EXPECT_EQ(testing::RunCommand("python3 " + script + " " + dir_ +
                                "/warc/*.warc.gz >/dev/null"),
            0);
}

}  // namespace
}  // namespace topicrawl
