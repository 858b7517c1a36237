// Test helpers for store/: temporary directories, generated pages and a
// full consistency check of a crawl directory (database <-> WARC files).
#ifndef TOPICRAWL_TESTS_SUPPORT_STORE_TEST_UTIL_H_
#define TOPICRAWL_TESTS_SUPPORT_STORE_TEST_UTIL_H_

#include <cstdint>
#include <string>

#include "core/status.h"
#include "store/crawl_store.h"

namespace topicrawl::testing {

// A fresh empty directory under $TMPDIR (or /tmp); removed by the caller.
std::string MakeTempDir();
void RemoveTree(const std::string& path);

// "http://h<k % 5>.test/p<k>".
std::string TestPageUrl(int64_t k);
// A deterministic page number `k` (1-based) with `links` outlinks, `admitted`
// new frontier rows and an HTML body of about `body_bytes` bytes. Every 7th
// page is a robots denial (no response), every 11th a 404 with a body.
PageRecord MakeTestPage(int64_t k, int links = 5, int admitted = 2,
                        size_t body_bytes = 2000);

// What CheckCrawlDir found.
struct CrawlDirReport {
  int64_t pages = 0;
  int64_t pages_with_warc = 0;
  int64_t warc_files = 0;
  int64_t warc_records = 0;
};

// Verifies everything the store promises about a closed crawl directory:
// page ids are 1..N, urls unique, each page with a response has exactly one
// response+request+metadata group at (warc_file, warc_offset) spanning
// warc_length bytes whose metadata names the page id; every WARC file parses
// fully, starts with warcinfo, and holds no record not referenced by a page;
// every page's frontier row has state 1 and no other row has; frontier_log
// is empty for schemas 1-3 (merged on close); link counts match the
// metadata.
Status CheckCrawlDir(const std::string& dir, CrawlDirReport* report);

// Creates `dir` as a crawl directory of store schema 1, exactly as the store
// wrote it before schema 2 (links as a rowid table + links_from_id index,
// default 4 KiB pages): crawl.db with the schema, its meta rows and the
// "created" event, and an empty warc/. For resume tests.
Status CreateSchemaV1CrawlDir(const std::string& dir);

// Rewrites the closed crawl directory `dir` (written by this build, schema
// 5) into what schema 4 wrote: no frontier_state table, every state change
// a frontier_log row with the URL's columns, schema 4's `frontier` view and
// triggers, meta.schema_version 4. For resume and reader tests.
Status ConvertToSchema4(const std::string& dir);
// Rewrites a schema-7 crawl.db to schema 6: fetches WITHOUT ROWID keyed by
// (url_id, round), no fetches_key index.
Status ConvertToSchema6(const std::string& dir);
// Rewrites a schema-7 crawl.db to schema 5 (through 6): refusals become
// pages rows.
Status ConvertToSchema5(const std::string& dir);

// Rewrites the closed crawl directory `dir` (written by this build, schema
// 5) into what schema 3 wrote: a merged `frontier` table (url_id primary
// key) and an empty frontier_log, page_links in the full JSON form
// [[to_url, anchor, context, score, explanation], ...] under the old
// `links` view, meta.schema_version 3. For resume and reader tests.
Status ConvertToSchema3(const std::string& dir);

// Runs a shell command; returns its exit status (-1 when it did not run).
int RunCommand(const std::string& command);

}  // namespace topicrawl::testing

#endif  // TOPICRAWL_TESTS_SUPPORT_STORE_TEST_UTIL_H_
