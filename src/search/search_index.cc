#include "search/search_index.h"

#include <xapian.h>

#include <sys/stat.h>

#include <chrono>
#include <filesystem>

#include "nlohmann/json.hpp"
#include "parse/html_text.h"
#include "store/crawl_db_reader.h"
#include "search/page_text.h"
#include "url/url.h"

namespace topicrawl {
namespace {

constexpr Xapian::valueno kRelevanceSlot = 0;

// Stemming: STEM_ALL_Z indexes only the stemmed form ("Zfirewal") of each
// word; STEM_SOME also indexed the exact form, doubling the English terms
// for queries that never asked for it (a capitalised or quoted word). The
// query side uses STEM_ALL_Z too (and finds old STEM_SOME indexes' Z terms).
constexpr auto kIndexStemming = Xapian::TermGenerator::STEM_ALL_Z;
constexpr auto kQueryStemming = Xapian::QueryParser::STEM_ALL_Z;

// True when `s` starts with a CJK character (the ranges Xapian 1.4's n-gram
// mode treats as CJK: CJK radicals .. Yi, Hangul, compatibility forms,
// halfwidth/fullwidth forms, the supplementary ideograph planes).
bool StartsWithCjk(std::string_view s) {
  if (s.empty()) return false;
  const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  uint32_t cp;
  if (b(0) >= 0xF0 && s.size() >= 4) {
    cp = ((b(0) & 0x07u) << 18) | ((b(1) & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6) | (b(3) & 0x3Fu);
  } else if (b(0) >= 0xE0 && s.size() >= 3) {
    cp = ((b(0) & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
  } else {
    return false;
  }
  return (cp >= 0x2E80 && cp <= 0x2FDF) || (cp >= 0x2FF0 && cp <= 0x9FFF) ||
         (cp >= 0xA000 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7AF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF00 && cp <= 0xFFEF) || (cp >= 0x20000 && cp <= 0x2FA1F);
}

// With STEM_ALL_Z the TermGenerator also "stems" CJK n-grams into Z terms,
// but QueryParser (and MSet::snippet) look CJK n-grams up unprefixed: move
// them. (STEM_SOME indexed every CJK n-gram twice, both ways.)
void UnprefixCjkTerms(Xapian::Document& doc) {
  struct Moved {
    std::string term;
    Xapian::termcount wdf;
    std::vector<Xapian::termpos> positions;
  };
  std::vector<Moved> moved;
  for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
    const std::string& term = *t;
    if (term.size() > 1 && term[0] == 'Z' && StartsWithCjk(std::string_view(term).substr(1))) {
      moved.push_back({term, t.get_wdf(), {t.positionlist_begin(), t.positionlist_end()}});
    }
  }
  for (const Moved& m : moved) {
    doc.remove_term(m.term);
    const std::string term = m.term.substr(1);
    for (Xapian::termpos p : m.positions) doc.add_posting(term, p, 0);
    doc.add_term(term, m.wdf);
  }
}

// The directory's inode: a compaction replaces DIR/search/ by renaming, and
// a reader must then open the new one (reopen() would mix files).
uint64_t DirInode(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return 0;
  return static_cast<uint64_t>(st.st_ino);
}

// Shared by indexing and querying: the two must agree on stemming and on
// the CJK mode (QueryParser's flag value matches TermGenerator's).
// One per thread: Xapian handles are not thread-safe, not even their
// reference counts, and the live indexer (crawl --index) copies this into
// its TermGenerator while API threads copy it into a QueryParser and a
// snippet. A single static one was freed under them: a crawl crashed in CI
// (general protection fault in tr-index; search_index_test's
// IndexingAndSearchingInTwoThreadsAtOnce reproduces it under ASan).
const Xapian::Stem& Stemmer() {
  thread_local const Xapian::Stem stem("english");
  return stem;
}

std::string Unescape(const std::string& s) {
  // MSet::snippet() escapes &, <, > (and ") for HTML; the API returns plain
  // text and leaves escaping to whoever renders it.
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '&') {
      static const std::pair<const char*, char> kEntities[] = {
          {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
      bool done = false;
      for (const auto& [name, c] : kEntities) {
        size_t n = std::char_traits<char>::length(name);
        if (s.compare(i, n, name) == 0) {
          out.push_back(c);
          i += n - 1;
          done = true;
          break;
        }
      }
      if (done) continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

// The crawl's relevance threshold (meta 'beta'); 0.62 when it is missing or
// unreadable (crawls made before beta was stored).
double CrawlBeta(CrawlDbReader& db) {
  double beta = 0.62;
  if (auto b = db.QueryText("SELECT value FROM meta WHERE key = 'beta'")) {
    try {
      beta = std::stod(*b);
    } catch (...) {
    }
  }
  return beta;
}

// Terms as the queries expect them: the index's stemmer and strategy, CJK
// text as n-grams.
Xapian::TermGenerator IndexTermGenerator() {
  Xapian::TermGenerator tg;
  tg.set_stemmer(Stemmer());
  tg.set_stemming_strategy(kIndexStemming);
  tg.set_flags(Xapian::TermGenerator::FLAG_CJK_NGRAM);
  return tg;
}

// One page's document: title (weight 3) and text terms, the host, relevant
// and round filters, the relevance value and the stored JSON shown in hits.
Xapian::Document SearchDocument(Xapian::TermGenerator* tg, bool positions, int64_t id,
                                const std::string& url, const PageText& text,
                                bool relevant, double relevance, const std::string& round) {
  const std::string host = UrlHostPort(url);
  Xapian::Document doc;
  tg->set_document(doc);
  if (positions) {
    tg->index_text(text.title, 3);  // title words weigh 3x
    tg->increase_termpos();
    tg->index_text(text.text);
  } else {
    tg->index_text_without_positions(text.title, 3);
    tg->index_text_without_positions(text.text);
  }
  UnprefixCjkTerms(doc);
  doc.add_boolean_term("H" + host);
  if (relevant) doc.add_boolean_term("XREL");
  if (!round.empty()) doc.add_boolean_term("XRND" + round);
  doc.add_value(kRelevanceSlot, Xapian::sortable_serialise(relevance));
  nlohmann::json data = {{"id", id},
                         {"url", url},
                         {"title", text.title},
                         {"host", host},
                         {"relevance", relevance},
                         {"text", std::string(Utf8Prefix(text.text, kStoredTextBytes))}};
  doc.set_data(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return doc;
}

}  // namespace

std::string SearchIndexPath(const std::string& crawl_dir) { return crawl_dir + "/search"; }

int64_t SearchIndexBytes(const std::string& crawl_dir) {
  std::error_code ec;
  int64_t total = 0;
  for (const auto& e : std::filesystem::directory_iterator(SearchIndexPath(crawl_dir), ec)) {
    if (e.is_regular_file(ec)) total += static_cast<int64_t>(e.file_size(ec));
  }
  return total;
}

StatusOr<IndexProgress> IndexNewPages(const std::string& crawl_dir,
                                      const IndexOptions& options) {
  auto reader = CrawlDbReader::Open(crawl_dir);
  if (!reader.ok()) return reader.status();
  CrawlDbReader& db = **reader;
  IndexProgress progress;
  try {
    Xapian::WritableDatabase xdb(SearchIndexPath(crawl_dir), Xapian::DB_CREATE_OR_OPEN);
    const std::string last = xdb.get_metadata("last_page_id");
    progress.last_page_id = last.empty() ? 0 : std::stoll(last);
    const double beta = CrawlBeta(db);
    const bool has_round = db.HasColumn("pages", "round");
    Xapian::TermGenerator tg = IndexTermGenerator();
    if (progress.last_page_id == 0 && xdb.get_doccount() == 0) {
      xdb.set_metadata("positions", options.positions ? "1" : "0");
    }
    const bool positions = xdb.get_metadata("positions") != "0";
    int64_t in_batch = 0;
    auto commit = [&] {
      xdb.set_metadata("last_page_id", std::to_string(progress.last_page_id));
      xdb.commit();
      in_batch = 0;
      if (options.on_commit) options.on_commit(progress);
    };
    const std::string sql =
        std::string("SELECT id, coalesce(nullif(final_url, ''), url), content_type, warc_file, "
                    "warc_offset, relevance, ") +
        (has_round ? "round" : "0") +
        " FROM pages WHERE id > ?1 AND status = 'ok' ORDER BY id";
    Status s = db.Query(sql, {progress.last_page_id}, [&](const DbRow& r) {
      const int64_t id = r.Int(0);
      const std::string url = r.Text(1);
      auto text = ReadStoredPageText(crawl_dir, r.Text(3), r.Int(4), r.Text(2), url);
      progress.last_page_id = id;
      if (!text.ok()) {
        ++progress.unreadable;
      } else {
        const double relevance = r.IsNull(5) ? 0 : r.Double(5);
        const std::string round = has_round ? std::to_string(r.Int(6)) : "";
        Xapian::Document doc =
            SearchDocument(&tg, positions, id, url, *text, relevance >= beta, relevance, round);
        // The Xapian document id is the page id: no unique-id term to look
        // up for every page, and a page indexed twice replaces itself.
        xdb.replace_document(static_cast<Xapian::docid>(id), doc);
        ++progress.indexed;
        ++in_batch;
      }
      if (in_batch >= options.batch) commit();
      if (options.stop && options.stop()) return false;
      return options.max_docs <= 0 || progress.indexed < options.max_docs;
    });
    commit();
    if (!s.ok()) return s;
  } catch (const Xapian::Error& e) {
    return Status::Error("search index " + SearchIndexPath(crawl_dir) + ": " +
                         e.get_description());
  }
  return progress;
}

Status CompactSearchIndex(const std::string& crawl_dir) {
  const std::string path = SearchIndexPath(crawl_dir);
  const std::string tmp = path + ".compact";
  const std::string old = path + ".old";
  std::error_code ec;
  std::filesystem::remove_all(tmp, ec);
  std::filesystem::remove_all(old, ec);
  try {
    // NO_RENUMBER: document ids are page ids.
    Xapian::Database(path).compact(tmp, Xapian::DBCOMPACT_NO_RENUMBER);
  } catch (const Xapian::Error& e) {
    std::filesystem::remove_all(tmp, ec);
    return Status::Error("compacting " + path + ": " + e.get_description());
  }
  // Two renames: a reader opening in between finds no index and says so;
  // one that has the old one open keeps reading it (open files survive the
  // removal) until SearchIndex notices the new directory.
  std::filesystem::rename(path, old, ec);
  if (ec) return Status::Error("rename " + path + ": " + ec.message());
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ec2;
    std::filesystem::rename(old, path, ec2);
    return Status::Error("rename " + tmp + ": " + ec.message());
  }
  std::filesystem::remove_all(old, ec);
  return Status::Ok();
}

SearchIndex::SearchIndex(std::string path, std::unique_ptr<Xapian::Database> db)
    : path_(std::move(path)), inode_(DirInode(path_)), db_(std::move(db)) {}
SearchIndex::~SearchIndex() = default;

StatusOr<std::unique_ptr<SearchIndex>> SearchIndex::Open(const std::string& crawl_dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(SearchIndexPath(crawl_dir), ec)) {
    return Status::Error("no search index in " + crawl_dir +
                         " (run `topicrawl index " + crawl_dir + "`, or crawl with --index)");
  }
  try {
    auto db = std::make_unique<Xapian::Database>(SearchIndexPath(crawl_dir));
    return std::unique_ptr<SearchIndex>(new SearchIndex(SearchIndexPath(crawl_dir), std::move(db)));
  } catch (const Xapian::Error& e) {
    return Status::Error("search index: " + e.get_description());
  }
}

void SearchIndex::Refresh() {
  const uint64_t inode = DirInode(path_);
  if (inode != 0 && inode != inode_) {
    // Replaced by CompactSearchIndex(): open the new one.
    db_ = std::make_unique<Xapian::Database>(path_);
    inode_ = inode;
  } else {
    db_->reopen();
  }
}

int64_t SearchIndex::doc_count() {
  std::lock_guard<std::mutex> lock(mu_);
  try {
    Refresh();
    return static_cast<int64_t>(db_->get_doccount());
  } catch (const Xapian::Error&) {
    return 0;
  }
}

// The live indexer commits while we read: a reader whose revision the writer
// has since discarded (Xapian keeps two) gets DatabaseModifiedError, and
// Xapian's answer is to reopen and run the query again. Under a busy
// indexer that is ~1 search in 10^4 (search_index_test's two-thread test).
StatusOr<SearchResult> SearchIndex::Search(const SearchQuery& query) {
  std::lock_guard<std::mutex> lock(mu_);
  constexpr int kAttempts = 5;
  for (int attempt = 1;; ++attempt) {
    try {
      return SearchOnce(query);
    } catch (const Xapian::DatabaseModifiedError& e) {
      if (attempt == kAttempts) {
        return Status::Error("search: " + e.get_description() + " (" +
                             std::to_string(kAttempts) + " attempts)");
      }
    } catch (const Xapian::QueryParserError& e) {
      return Status::Error("bad query: " + e.get_msg());
    } catch (const Xapian::Error& e) {
      return Status::Error("search: " + e.get_description());
    }
  }
}

SearchResult SearchIndex::SearchOnce(const SearchQuery& query) {
  const auto start = std::chrono::steady_clock::now();
  SearchResult out;
  Refresh();
  Xapian::QueryParser qp;
  qp.set_database(*db_);
  qp.set_stemmer(Stemmer());
  qp.set_stemming_strategy(kQueryStemming);
  qp.set_default_op(Xapian::Query::OP_AND);
  Xapian::Query q = qp.parse_query(
      query.q, Xapian::QueryParser::FLAG_DEFAULT | Xapian::QueryParser::FLAG_CJK_NGRAM);
  std::vector<Xapian::Query> filters;
  if (query.relevant_only) filters.emplace_back("XREL");
  if (!query.host.empty()) filters.emplace_back("H" + query.host);
  if (query.round) filters.emplace_back("XRND" + std::to_string(*query.round));
  for (const auto& f : filters) q = Xapian::Query(Xapian::Query::OP_FILTER, q, f);
  Xapian::Enquire enquire(*db_);
  enquire.set_query(q);
  enquire.set_weighting_scheme(Xapian::BM25Weight());
  Xapian::MSet mset = enquire.get_mset(static_cast<Xapian::doccount>(query.offset),
                                       static_cast<Xapian::doccount>(query.limit));
  out.estimated_matches = mset.get_matches_estimated();
  out.indexed_docs = static_cast<int64_t>(db_->get_doccount());
  for (auto it = mset.begin(); it != mset.end(); ++it) {
    nlohmann::json data = nlohmann::json::parse(it.get_document().get_data(), nullptr, false);
    SearchHit hit;
    if (data.is_object()) {
      hit.id = data.value("id", int64_t{0});
      hit.url = data.value("url", "");
      hit.title = data.value("title", "");
      hit.host = data.value("host", "");
      hit.relevance = data.value("relevance", 0.0);
      const std::string text = data.value("text", "");
      hit.snippet = Unescape(mset.snippet(text, 240, Stemmer(),
                                          // Not EXHAUSTIVE: the first good window
                                          // will do (halves the query CPU on
                                          // 32 KiB texts).
                                          Xapian::MSet::SNIPPET_BACKGROUND_MODEL |
                                              Xapian::MSet::SNIPPET_CJK_NGRAM,
                                          "\x01", "\x02", "..."));
      // CJK n-grams are highlighted a character at a time: join adjacent
      // marks so that 防火墙 is one highlight.
      for (size_t p; (p = hit.snippet.find("\x02\x01")) != std::string::npos;) {
        hit.snippet.erase(p, 2);
      }
    }
    hit.score = it.get_weight();
    hit.percent = it.get_percent();
    out.hits.push_back(std::move(hit));
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace topicrawl
