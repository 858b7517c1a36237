// Full-text search over a crawl's stored pages with Xapian (BM25).
//
// The index lives in DIR/search/ (a Xapian glass database). It is built
// incrementally: IndexNewPages() adds every ok page whose id is above the
// last one indexed (kept in the index metadata "last_page_id"), so the same
// call serves `topicrawl index DIR` on an old crawl and the background
// indexer of a running one (server/live_indexer.h), which tails crawl.db
// through a WAL reader and never touches the crawl thread.
//
// Chinese: Xapian 1.4's CJK n-gram mode (TermGenerator::FLAG_CJK_NGRAM and
// QueryParser::FLAG_CJK_NGRAM) indexes CJK text as unigrams and bigrams, so
// 1-2 character queries such as 防火 or 墙 match; English is stemmed
// (Porter 2, STEM_ALL_Z: only the stemmed terms "Z...").
//
// Documents: Xapian document id = page id; data = JSON {id, url, title,
// host, relevance, text (first kStoredTextBytes bytes, for snippets; the
// docdata table is zlib-compressed by Xapian)}; boolean terms H<host>, XREL
// (relevance >= beta), XRND<round>; value 0 = relevance (sortable). Terms:
// stemmed English words (Z prefix) and CJK unigrams + bigrams, without
// positions unless IndexOptions::positions. (Indexes written before these
// choices, with Q<id> terms, exact forms and positions, still answer.)
#ifndef TOPICRAWL_SEARCH_SEARCH_INDEX_H_
#define TOPICRAWL_SEARCH_SEARCH_INDEX_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace Xapian {
class Database;
}

namespace topicrawl {

constexpr size_t kStoredTextBytes = 32 * 1024;

std::string SearchIndexPath(const std::string& crawl_dir);

struct IndexProgress {
  int64_t indexed = 0;     // documents added by this call
  int64_t unreadable = 0;  // ok pages whose WARC record could not be read
  int64_t last_page_id = 0;
};

struct IndexOptions {
  int64_t batch = 1000;  // commit every this many documents
  // Stop after this many documents (0 = all); the background indexer takes
  // small bites so that it can stop quickly.
  int64_t max_docs = 0;
  // Called after every commit.
  std::function<void(const IndexProgress&)> on_commit;
  // Polled before every document: true ends the call early (what was
  // indexed is committed).
  std::function<bool()> stop;
  // Word positions, for phrase ("...") and NEAR queries. Off by default:
  // they were half of the index (CJK n-grams give every character one) and
  // the acceptance queries (words, CJK runs: Xapian 1.4 ANDs a run's
  // n-grams) do not use them; a phrase query on an index without positions
  // degrades to AND. Fixed when the index is created (metadata "positions";
  // an index without it has them).
  bool positions = false;
};

// Adds the crawl's not yet indexed ok pages to DIR/search/ (creating it).
// Safe while the crawl runs (read-only WAL reader on crawl.db).
StatusOr<IndexProgress> IndexNewPages(const std::string& crawl_dir,
                                      const IndexOptions& options = {});

struct SearchQuery {
  std::string q;
  bool relevant_only = false;
  std::string host;                // exact host[:port], "" = any
  std::optional<int64_t> round;    // incremental round, nullopt = any
  size_t offset = 0;
  size_t limit = 10;
};

struct SearchHit {
  int64_t id = 0;
  std::string url;
  std::string title;
  std::string host;
  double relevance = 0;
  double score = 0;      // BM25 weight
  int percent = 0;
  // Plain text (no markup); the matched terms are between \x01 and \x02.
  std::string snippet;
};

struct SearchResult {
  std::vector<SearchHit> hits;
  uint64_t estimated_matches = 0;
  int64_t indexed_docs = 0;
  double seconds = 0;
};

// A reader of DIR/search/. Thread-safe (one query at a time; Xapian
// databases are not thread-safe); Search() reopens the database to see
// what the indexer committed since.
class SearchIndex {
 public:
  // Fails when the crawl has no index yet.
  static StatusOr<std::unique_ptr<SearchIndex>> Open(const std::string& crawl_dir);
  ~SearchIndex();
  StatusOr<SearchResult> Search(const SearchQuery& query);
  int64_t doc_count();

 private:
  SearchIndex(std::string path, std::unique_ptr<Xapian::Database> db);
  void Refresh();  // under mu_
  // One attempt of Search (under mu_); throws Xapian errors.
  SearchResult SearchOnce(const SearchQuery& query);
  std::mutex mu_;
  std::string path_;
  uint64_t inode_ = 0;
  std::unique_ptr<Xapian::Database> db_;
};

// Rewrites DIR/search/ compactly (Xapian compact: full B-tree blocks; an
// incrementally built index is about half free space) and swaps it in by
// renaming. Needs no writer open on it; open SearchIndex readers switch to
// the new one at their next query.
Status CompactSearchIndex(const std::string& crawl_dir);

// Total bytes of the files in DIR/search/.
int64_t SearchIndexBytes(const std::string& crawl_dir);

}  // namespace topicrawl

#endif  // TOPICRAWL_SEARCH_SEARCH_INDEX_H_
