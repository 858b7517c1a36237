// CrawlStore: the crawl output directory. One directory per crawl:
//
//   DIR/crawl.db      SQLite (WAL, synchronous=NORMAL): pages, page_links
//                     (+ the links view), frontier, events, meta (schema
//                     in docs/ARCHITECTURE.md)
//   DIR/warc/         topicrawl-<YYYYmmddHHMMSS>-<seq>.warc.gz (WARC/1.1)
//   DIR/config.toml   snapshot of the effective configuration
//   DIR/LOCK          flock()ed while a process has the store open
//
// Writes are batched: AddPage() etc. join an open transaction that is
// committed when it is older than `commit_interval` or holds
// `commit_max_pages` pages, on Flush(), and when the store is destroyed.
//
// Crash safety (kill -9 at any moment loses no committed page and never
// stores one twice): a page's WARC records are appended first, and the WARC
// bytes are written to the OS before the transaction that records their
// offsets commits. On Open(kResume) every WARC file is truncated to the
// end of the last record the database knows of (warc_files.length), which
// drops the records of pages whose transaction never committed; files the
// database has never seen are deleted. Pages committed in the database are
// exactly the pages the crawler must not fetch again (their frontier rows
// have state = 1); uncommitted pages are simply fetched again. With
// synchronous=NORMAL a power failure may lose the last transactions (never
// corrupt the store); CrawlStoreOptions::sync makes every commit durable.
//
// The frontier is append-only: new rows and state changes go to the
// frontier_log table (schema 5: state changes to frontier_state). Schemas
// 4-5 never merge it: `frontier` is a view over it (one row per url_id: the
// first row's columns, state the maximum), so Close() has nothing to
// rewrite. Schemas 1-3 (resumed old
// directories) keep a `frontier` table that the log is merged into on
// Close() and on resume (see frontier_merge_rows); their readers find the
// newest rows in the log (same columns; for one url_id, state is the
// maximum over both tables).
//
// Thread-safety: none. A CrawlStore is used by one thread at a time (during
// a crawl, the crawler's store writer thread, which receives every call in
// order through a bounded queue). Cost on this 2-core machine
// (bench/store_bench.cc, CPU time): ~210 us a page with 230 links and a
// 48 KB HTML body (igzip level 1, payload digest; 670 us with zlib and
// links as rows), 65 us with 100 links and no body; p50 latency ~0.14 ms,
// p99 ~0.2 ms (commit + WAL checkpoint). The
// crawler runs it on its own writer thread so commits never stall the fetch
// loop (bench/crawl_throughput/pages_per_second.sh). Close() is a commit and a WAL checkpoint
// (schemas 1-3 also merge the frontier log there and on resume).
//
// Paths: the store only creates or modifies files inside DIR (crawl.db and
// its -wal/-shm, LOCK, config.toml, warc/*). WARC names read from the
// database are validated before use, and symlinks inside DIR are refused.
#ifndef TOPICRAWL_STORE_CRAWL_STORE_H_
#define TOPICRAWL_STORE_CRAWL_STORE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/crawl_task.h"
#include "core/fetch_status.h"
#include "core/status.h"
#include "core/url_state.h"
#include "store/warc_writer.h"

namespace topicrawl {

class SqliteStatement;

enum class OpenMode {
  kCreate,  // DIR must not hold a crawl; created (with parents) if missing
  kResume,  // DIR must hold a crawl created by kCreate
};

// One outgoing link of a stored page (a `links` row).
struct LinkRecord {
  std::string to_url;
  std::string anchor;
  std::string context;
  double score = 0.0;
  std::string explanation;
};

// One `frontier` row: a URL admitted to the crawl.
struct FrontierRecord {
  UrlId url_id = 0;  // stored as the int64 with the same bits
  std::string url;
  uint32_t depth = 0;
  PageId parent_id = 0;  // 0 for seeds
  std::string anchor;
  double score = 0.0;
  std::string explanation;
  int state = 0;  // 0 queued, 1 done (ignored by AddSeeds/AddPage admitted)
};

// Everything stored for one URL's fate: a `pages` row, its WARC records, its
// outlinks and the frontier rows it admitted.
struct PageRecord {
  // Frontier identity of the URL; its frontier row is set to state = 1
  // (created with state = 1 if absent, e.g. for a URL never queued).
  UrlId url_id = 0;
  std::string url;        // as scheduled (canonical)
  std::string final_url;  // after redirects; "" when none
  FetchStatus status = FetchStatus::kOtherError;  // pages.status = its name
  int http_code = 0;       // 0 when no response
  std::string content_type;
  std::string charset;     // detected charset of the body
  int64_t fetched_at = 0;  // unix ms
  uint32_t depth = 0;
  PageId parent_id = 0;    // 0 for seeds
  std::string anchor;
  std::string content_hash;  // "" -> Hash64Hex(body) when body is non-empty
  int64_t size = -1;         // -1 -> body.size()
  std::optional<double> relevance;  // NULL when the page was not scored
  double link_score = 0.0;          // score of the link when selected
  std::string title;
  std::string error;
  std::string explanation;

  // Raw transfer for WARC. A response record is written iff response_head is
  // non-empty (HTTP errors with a body included); a request record iff
  // request_head is non-empty; a metadata record with any response. The body
  // is the *decoded* entity (content-encoding undone): the response head is
  // rewritten to match it, see RewriteResponseHead().
  std::string request_head;
  std::string response_head;
  std::string body;
  std::string remote_ip;
  // --render: the DOM Chromium built from `body` (a WARC conversion record
  // refers to the response) and what the render did (metadata "render").
  std::string rendered_html;
  std::string render_note;

  std::vector<LinkRecord> links;
  // New frontier rows discovered by this page. A url_id already in the
  // frontier is ignored (the first admission wins).
  std::vector<FrontierRecord> admitted;

  // Rounds (schema 3; ignored by older schemas). Every AddPage() is one
  // fetch and becomes one `fetches` row (url_id, round).
  int round = 0;
  UrlState fetch_state = UrlState::kNew;
  bool revisit = false;  // a planned revisit of a known URL
  // true: the fetch produced a new version (pages row, response record).
  // false: a revisit that kept the stored version `version_id` (unchanged,
  // gone, failed): no pages row, no page id consumed; an unchanged one is
  // written as a WARC revisit record (see revisit_profile).
  bool store_version = true;
  PageId version_id = 0;
  // For !store_version && fetch_state == kUnchanged: kServerNotModified for
  // a 304, kIdenticalPayloadDigest for a 200 with an equal digest.
  enum class RevisitProfile { kNone, kServerNotModified, kIdenticalPayloadDigest };
  RevisitProfile revisit_profile = RevisitProfile::kNone;
  uint64_t digest = 0;   // Hash64(body) of the version; 0 -> computed from body
  uint64_t simhash = 0;  // SimHash64 of the version's text (0: none)
  PageId near_duplicate_of = 0;  // pages.near_dup_of (0: NULL)
  std::string etag;           // validators of the version, sent on revisits
  std::string last_modified;
  int64_t out_links = -1;     // outlinks of the version (-1: links.size())
};

struct CrawlStoreOptions {
  // Commit the open batch when it is this old (checked on every write).
  std::chrono::milliseconds commit_interval{200};
  // ... and, once the store holds `long_commit_after_pages` pages rows, when
  // it is this old (the larger of the two applies). Why: two B-trees take
  // rows in random key order (the pages_url index, fetches keyed by url_id),
  // and a commit writes every leaf it touched to the WAL (64 KiB each),
  // which a checkpoint copies again. At 10^6 pages (~1,100 leaves a tree) a
  // 200 ms batch touched ~400 leaves a tree for ~500 rows: ~100 KB of WAL
  // per page, growing with the store; a 1 s batch shares each leaf among
  // ~5x more rows (docs/guides/performance.md, the 10^6-page runs). Small stores
  // keep short batches, so readers (serve, explain) see pages sooner. A
  // kill -9 loses at most one batch (its pages are fetched again on resume).
  std::chrono::milliseconds long_commit_interval{1000};
  int64_t long_commit_after_pages = 10000;
  // ... and, as the store grows, this much per 10^6 pages rows, up to
  // max_commit_interval. Why: a random-order tree of L leaves takes a
  // batch of B rows at ~L/B leaves a row once B > L, and L grows with the
  // store, so a fixed interval makes the WAL bytes a page grow with the
  // crawl (a 1 s batch at 10^6 pages: ~28 KB a page from those trees vs
  // ~3 KB at 10^5); an interval growing with L keeps them flat. Capped so
  // a batch's dirty leaves stay within the 256 MiB page cache (all of both
  // trees at 10^6 pages: ~130 MB) and a kill -9 loses at most a few
  // seconds of pages (fetched again on resume).
  std::chrono::milliseconds commit_interval_per_million_pages{4000};
  std::chrono::milliseconds max_commit_interval{4000};
  // ... or when it holds this many pages per second of the interval in
  // force (at least this many; refusals count: ~3 a fetched page late in a
  // crawl of the synthetic web, so 5,000 cut 1 s batches short).
  size_t commit_max_pages = 20000;
  // Frontier rows are appended to frontier_log and merged into `frontier`
  // (sorted by url_id) on Close(), on resume and before LoadFrontier() /
  // LoadPageStats(); with a positive value also at the first commit after
  // the log holds this many rows. 0 (default): never during a crawl, because
  // a merge stalls the calling (crawl) thread: 200k rows into a 0.5M-row
  // frontier took ~1-3 s on this machine, while appends cost ~1 us a row.
  // Schemas 1-3 only (schema 4 never merges).
  int64_t frontier_merge_rows = 0;
  // fdatasync WARC files and use synchronous=FULL on every commit (survives
  // power loss, much slower).
  bool sync = false;
  WarcOptions warc;
  // Time source for WARC dates, events and batch age. Must outlive the store.
  Clock* clock = SystemClock();
};

// Counts for budgets and progress after a resume (pages only: the frontier
// is counted by CountFrontier(), a pass over every row).
struct PageStats {
  int64_t pages = 0;          // rows in pages + refusals (schema 6)
  int64_t refusals = 0;       // schema 6: refusals without a pages row
  int64_t ok_pages = 0;       // status = 'ok'
  PageId max_page_id = 0;
  double relevance_sum = 0;   // over ok pages
  std::map<std::string, int64_t> by_status;  // status name -> rows (+ refusals)
  std::map<std::string, int64_t> ok_by_content_type;  // Content-Type as stored -> ok rows
};

// A compact view of one stored page (for rebuilding crawler state).
struct PageSummary {
  PageId id = 0;
  std::string url;
  std::string final_url;
  std::string status;
  int http_code = 0;
  uint32_t depth = 0;
  PageId parent_id = 0;
  std::optional<double> relevance;
  double link_score = 0.0;
};

// One `fetches` row: the fate of one URL in one round (schema 3).
struct FetchRow {
  UrlId url_id = 0;
  int round = 0;
  int64_t at = 0;  // unix ms
  UrlState state = UrlState::kNotFetched;
  int http_code = 0;
  int64_t bytes = 0;     // body bytes received
  PageId page_id = 0;    // the version valid after this fetch (0: none)
  uint64_t digest = 0;
  uint64_t simhash = 0;
  std::string etag;
  std::string last_modified;
  uint32_t new_links = 0;  // URLs admitted to the crawl from this fetch
  uint32_t out_links = 0;  // outlinks of the version valid after this fetch
  bool revisit = false;
};

// What a recrawl needs to fetch a known URL again: its frontier identity
// and what it knew of the current version.
struct RevisitRecord {
  UrlId url_id = 0;
  std::string url;
  uint32_t depth = 0;
  PageId parent_id = 0;
  std::string anchor;
  double priority = 0;
  PageId version_id = 0;  // 0: never fetched successfully
  uint64_t digest = 0;
  uint64_t simhash = 0;
  std::string etag;
  std::string last_modified;
  uint32_t out_links = 0;
};

// The version of a URL valid in a round (see CrawlStore::VersionAt).
struct PageVersion {
  PageId page_id = 0;  // 0 when the URL was gone (or never stored) then
  int fetched_round = 0;  // round of the fetch that decided it
  UrlState state = UrlState::kNotFetched;  // that fetch's state
  std::string warc_file;  // "warc/<name>" of the version's records
  int64_t warc_offset = 0;
};

class CrawlStore {
 public:
  // Opens (kCreate: creates) the crawl directory `dir`. Errors: dir is a
  // file, kCreate on a directory holding a crawl (a committed crawl.db or a
  // non-empty warc/), kResume without a crawl, a foreign or newer schema,
  // crawl.db or warc/ being symlinks, another process holding the lock, I/O
  // errors. kCreate after a creation interrupted by a crash (crawl.db
  // without a committed schema) starts afresh. On kResume the WARC files are repaired
  // (see above), a "resumed" event is recorded and a new WARC file will be
  // started for this session.
  static StatusOr<std::unique_ptr<CrawlStore>> Open(
      const std::string& dir, OpenMode mode,
      const CrawlStoreOptions& options = {});

  // Commits the open batch (errors are lost; call Close() to see them).
  ~CrawlStore();

  CrawlStore(const CrawlStore&) = delete;
  CrawlStore& operator=(const CrawlStore&) = delete;

  // Stores one URL's fate: WARC records, the pages row (ids are assigned in
  // call order: 1, 2, ...), its links, the admitted frontier rows and its
  // own frontier row's state = 1, all in the current batch transaction.
  // Returns the new page id. After an error the store is unusable (every
  // later call returns the same error); the directory stays resumable.
  StatusOr<PageId> AddPage(PageRecord&& page);
  // True when AddPage() keeps `page` as a refusal (schema 6: a URL-trap
  // refusal, nothing fetched, no links): its reason (interned in
  // refusal_reasons), time and round on the URL's frontier_state row, but
  // no pages row, no fetches row and no page id (AddPage returns 0, and the next page
  // takes the id this one would have had). Read them back through the
  // `refusals` view. Constant for a given record once the store is open.
  bool KeepsAsRefusal(const PageRecord& page) const;

  // Inserts frontier rows (state 0); url_ids already present are ignored.
  Status AddSeeds(const std::vector<FrontierRecord>& rows);
  // Appends an events row (at = clock time).
  Status AddEvent(const std::string& kind, const std::string& detail);
  // Appends a host_files row: a per-host file the crawl fetched besides its
  // pages (`name` "robots.txt" or "tdmrep.json"), kept as data so that
  // exports can read the host's opt-out signals (export/host_optout.h).
  // Table host_files(host, name, at, http_code, body), made on first use
  // (any schema version; readers treat a missing table as no files).
  Status AddHostFile(const std::string& host_key, const std::string& name, int http_code,
                     const std::string& body);
  // Sets a meta key (insert or replace).
  Status SetMeta(const std::string& key, const std::string& value);
  // Reads a meta key; nullopt when absent.
  StatusOr<std::optional<std::string>> GetMeta(const std::string& key);
  // Writes DIR/config.toml atomically (temp file + rename); replaces any
  // previous snapshot.
  Status SaveConfigSnapshot(const std::string& toml_text);

  // Commits the current batch (WARC bytes first). Cheap when nothing is
  // pending.
  Status Flush();
  // Commits the open batch if it is older than commit_interval. Batches are
  // otherwise only checked on writes, so the crawl loop calls this when idle.
  Status CommitIfDue();
  // Flush() + closes the database and WARC file; the store is unusable
  // afterwards. Idempotent.
  Status Close();

  // Streams every frontier row (state 0 and 1), one per url_id (its first
  // admission's columns, state the highest given), including rows of the
  // open batch. Order: url_id for schemas 1-3, admission order for schemas
  // 4-5 (schema 5: one scan of frontier_log and one of frontier_state;
  // schema 4: two scans of frontier_log; ~16 bytes of RAM a row while it
  // runs). Schema 5: a done URL that was never admitted comes last, with
  // its page's url, depth, parent, anchor and link score.
  // Stops early when `visit` returns false.
  Status LoadFrontier(const std::function<bool(const FrontierRecord&)>& visit);
  // Streams every page in id order (see PageSummary).
  Status LoadPages(const std::function<bool(const PageSummary&)>& visit);
  StatusOr<PageStats> LoadPageStats();
  // Frontier rows (every admitted URL, one per url_id) and those queued
  // (state 0): one LoadFrontier() pass.
  Status CountFrontier(int64_t* rows, int64_t* queued);
  // Rows in frontier_log not yet merged into `frontier` (Close() merges
  // them). Always 0 for schema 4, whose frontier_log is the frontier.
  int64_t pending_frontier_rows() const { return log_rows_; }
  // Pages stored ok with relevance >= `beta` (a resumed crawl's summary).
  StatusOr<int64_t> CountRelevantPages(double beta);

  // --- Rounds (schema 3; older schemas answer with an error) ---
  // Schema version of the open crawl.
  int schema_version() const;
  // The current round: 0 after `crawl`, K while/after round K ran
  // (meta.round).
  StatusOr<int> CurrentRound();
  // Starts round `round` (= CurrentRound() + 1): replaces the `revisits`
  // table with the plan, queues `seeds` (unknown URLs, frontier rows state
  // 0) and sets meta.round, all in one committed transaction.
  Status StartRound(int round, const std::vector<std::pair<UrlId, double>>& revisits,
                    const std::vector<FrontierRecord>& seeds);
  // The planned revisits of `round` that have no fetches row in it yet
  // (what is left after a kill -9), with what the store knows of each.
  Status LoadPendingRevisits(int round,
                             const std::function<bool(const RevisitRecord&)>& visit);
  // Every fetches row in storage order: fetch order (schema 7), (url_id as
  // int64, round) order (schemas 3-6); only round `round` when it is >= 0.
  Status ForEachFetch(int round, const std::function<bool(const FetchRow&)>& visit);
  // Every frontier row (url_id order) with its fetches rows (round order;
  // empty for a URL never fetched). One pass, no sort: the frontier's
  // primary key drives a seek into fetches' (url_id, round) key.
  Status ForEachUrlHistory(
      const std::function<bool(const FrontierRecord&, const std::vector<FetchRow>&)>& visit);
  // The outlink target URLs of page `id` in page order (schema >= 2).
  Status LoadPageLinkUrls(PageId id, std::vector<std::string>* urls);
  // The newest fetch of every URL with a simhash (the near-duplicate index
  // is rebuilt from these): (page_id, url_id, simhash).
  Status LoadSimhashes(const std::function<bool(PageId, UrlId, uint64_t)>& visit);
  // A page row's facts for policies: size, relevance, near_dup_of. nullopt
  // when no such page.
  struct PageFacts {
    int64_t size = -1;
    std::optional<double> relevance;
    PageId near_dup_of = 0;
    std::string url;
  };
  StatusOr<std::optional<PageFacts>> LoadPageFacts(PageId id);
  // The version of `url_id` valid in round `round`: the newest fetch in a
  // round <= `round` that left a version (a failed fetch keeps the older
  // one; a gone one has page_id 0). nullopt when the URL was not fetched
  // by then. Its body is the response record at warc_file:warc_offset.
  StatusOr<std::optional<PageVersion>> VersionAt(UrlId url_id, int round);

  const std::string& dir() const { return dir_; }
  // True when this session resumed an existing crawl.
  bool resumed() const { return resumed_; }
  // Pages added in this session and not yet committed.
  size_t pending_pages() const { return batch_pages_; }

 private:
  class Db;
  CrawlStore(std::string dir, const CrawlStoreOptions& options);
  Status Init(OpenMode mode);
  Status AcquireLock();
  Status ClearInterruptedCreate();
  Status OpenDatabase(bool create);
  Status CreateSchema();
  Status CheckSchema();
  Status RepairWarcFiles();
  Status BeginIfNeeded();
  Status MaybeCommit();
  // The age at which the open batch is committed (CrawlStoreOptions: the
  // short interval, then the long one growing with the pages rows).
  std::chrono::milliseconds CommitInterval() const;
  Status Commit();
  Status Fail(Status s);
  // The pages row, the links row(s) and the frontier log entries of a page.
  Status WritePageRows(const PageRecord& page, PageId id, const WarcSpan* span);
  Status InsertPageRow(const PageRecord& page, PageId id, const WarcSpan* span);
  Status InsertLinkRows(const PageRecord& page, PageId id);
  Status LogPageFrontier(const PageRecord& page, PageId id);
  Status WriteFetchRow(const PageRecord& page, PageId version);
  std::vector<WarcRecord> BuildRevisitRecords(const PageRecord& page);
  Status RequireRounds() const;
  // A frontier_log row; with `parent_url` (schema 5, a URL admitted by the
  // page being stored) its URL cut from it (store/links_json.h CompactUrl).
  Status LogFrontier(const FrontierRecord& row, int state,
                     std::string_view parent_url = {});
  // Schema 5: appends (url_id, state, page_id) to frontier_state; schema 6
  // also a refusal's reason id, time and round (reason 0: NULLs, not a
  // refusal).
  Status LogState(UrlId url_id, int state, PageId page_id, int64_t reason = 0, int64_t at = 0,
                  int round = 0);
  // Schema 6: the refusal_reasons id of (status, error), inserted at first use.
  StatusOr<int64_t> ReasonId(FetchStatus status, const std::string& error);
  Status MergeFrontierLog();

  const std::string dir_;
  const CrawlStoreOptions options_;
  std::unique_ptr<Db> db_;
  std::unique_ptr<WarcWriter> warc_;
  int lock_fd_ = -1;
  bool resumed_ = false;
  bool in_batch_ = false;
  bool closed_ = false;
  size_t batch_pages_ = 0;
  int64_t log_rows_ = 0;  // rows in frontier_log
  TimePoint batch_started_{};
  PageId next_page_id_ = 1;
  // WARC file name -> end offset of the last group written this batch.
  std::map<std::string, uint64_t> pending_warc_ends_;
  std::unique_ptr<SqliteStatement> page_facts_;  // LoadPageFacts
  std::unique_ptr<SqliteStatement> page_link_urls_;  // LoadPageLinkUrls
  Status error_;  // sticky
};

// Rewrites a raw HTTP response head for a WARC response record whose body is
// stored decoded: drops Content-Encoding, Transfer-Encoding and
// Content-Length and appends "Content-Length: <body_size>", so a WARC reader
// sees a self-consistent HTTP message. Line endings become CRLF and the head
// ends with an empty line. The dropped values are appended to *dropped as
// ("original-content-encoding", value) ... for the metadata record.
std::string RewriteResponseHead(std::string_view head, size_t body_size,
                                std::vector<WarcField>* dropped);

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_CRAWL_STORE_H_
