// Ground-truth topic labels for the benchmark webs and URL sets derived from
// them (corpus README §3).
//
// A label file has one row per served HTML page:
//     url<TAB>relevant<TAB>reason
// with `relevant` 1 or 0 and an optional header row `url relevant reason`.
// Crawled URLs are looked up after CanonicalizeLabelUrl(), which implements
// exactly the canonicalisation the corpus README §3 prescribes. It is NOT the
// crawler's de-duplication canonicalisation (url/url.h): it maps https to
// http, drops ports and queries and appends index.html, because the label
// files were written that way.
#ifndef TOPICRAWL_EVAL_LABELS_H_
#define TOPICRAWL_EVAL_LABELS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/status.h"

namespace topicrawl::eval {

// Corpus README §3, in order:
//  * lowercase the host, treat https:// as http:// (scheme lower-cased);
//  * drop userinfo, the port, the ?query and the #fragment;
//  * percent-decode the path, then re-encode it leaving unreserved
//    characters (RFC 3986 ALPHA DIGIT -._~), '/' and !$&'()*+,;=:@~ as they
//    are, hex in upper case (Python: quote(unquote(path), safe="/!$&'()*+,;=:@~"));
//  * a path ending in '/' (or an empty path) gets "index.html" appended.
// Input that has no "scheme://" is returned unchanged except for the path
// treatment (it cannot match a label, which is fine: it is simply unlabelled).
std::string CanonicalizeLabelUrl(std::string_view url);

// One problem found while reading a file, kept as data (1-based line).
struct FileIssue {
  size_t line = 0;
  std::string message;
};

// The labels of one topic on one web. Immutable after loading.
class LabelSet {
 public:
  // Parses label-file text. Malformed rows (wrong column count, `relevant`
  // not 0/1) are skipped and listed in issues(); duplicate URLs (after
  // canonicalisation) keep the first row and are listed too. Fails only if
  // no row at all could be read.
  static StatusOr<LabelSet> Parse(std::string_view text);
  // Reads and parses a file. Fails on I/O errors or when Parse fails.
  static StatusOr<LabelSet> Load(const std::string& path);

  // The label of a crawled URL (canonicalised here), or nullopt when the URL
  // is not a labelled page (404s, external hosts, directory listings...).
  std::optional<bool> Lookup(std::string_view url) const;
  // Same, for a URL that is already canonical (CanonicalizeLabelUrl).
  std::optional<bool> LookupCanonical(const std::string& canonical) const;

  size_t size() const { return labels_.size(); }
  size_t relevant_count() const { return relevant_.size(); }
  // Canonical URLs of the relevant pages (the recall denominator).
  const std::unordered_set<std::string>& relevant() const { return relevant_; }
  const std::vector<FileIssue>& issues() const { return issues_; }

 private:
  std::unordered_map<std::string, bool> labels_;
  std::unordered_set<std::string> relevant_;
  std::vector<FileIssue> issues_;
};

// A set of canonical (CanonicalizeLabelUrl) URLs, e.g. the pages reachable
// from the home pages (for recall_reachable). Produce that list from a full
// BFS crawl of the web without a page budget:
//   topicrawl crawl --strategy bfs --seeds homes.txt ... --out bfs-full
//   sqlite3 bfs-full/crawl.db "SELECT coalesce(final_url, url) FROM pages
//     WHERE status = 'ok'" > reachable.txt
// File format: one URL per line; blank lines and lines starting with '#' are
// ignored; anything after the first TAB is ignored (so
// a label file or a `url<TAB>...` export also works).
class UrlSet {
 public:
  static UrlSet Parse(std::string_view text);
  static StatusOr<UrlSet> Load(const std::string& path);
  bool Contains(std::string_view url) const;  // canonicalises `url`
  bool ContainsCanonical(const std::string& canonical) const {
    return urls_.count(canonical) > 0;
  }
  size_t size() const { return urls_.size(); }

 private:
  std::unordered_set<std::string> urls_;
};

// Reads a whole file into *out. Shared by the eval readers.
Status ReadWholeFile(const std::string& path, std::string* out);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_LABELS_H_
