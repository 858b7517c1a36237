// The outlinks of one page as one JSON text (RFC 8259), the form the store
// keeps them in: page_links(from_id, links) holds one such text per page and
// the `links` view expands it back into rows with SQLite's json_each().
//
//   [["to_url","anchor","context",score,"explanation"], ...]
//
// Strings are escaped per RFC 8259 §7 (quote, backslash, control characters);
// other bytes pass through, so valid UTF-8 stays valid UTF-8. Bytes that are
// not valid UTF-8 become U+FFFD: SQLite's JSON functions need valid text.
// score is the shortest decimal that reads back as the same double, always
// with a '.' or an exponent (so SQLite reads a REAL); a non-finite score is
// written as null.
#ifndef TOPICRAWL_STORE_LINKS_JSON_H_
#define TOPICRAWL_STORE_LINKS_JSON_H_

#include <string>
#include <string_view>
#include <vector>

#include "store/crawl_store.h"

namespace topicrawl {

// Appends the JSON array of `links` to *out.
void AppendLinksJson(const std::vector<LinkRecord>& links, std::string* out);

// Schema 4's compact form (issue 12), ~45 % of the bytes of the one above:
//
//   [["to_url","anchor",score,"context","explanation"], ...]
//
// score comes third, with 6 significant digits (AppendCompactJsonNumbers'
// rule); trailing empty context/explanation are left out; a to_url in the
// directory of `page_url` (up to its last '/') is written as "." + the rest
// (".b.html" for "http://h/a/b.html" on "http://h/a/c.html"), else one with
// the same origin (scheme://authority, http or https) as its path
// ("/x/b.html"). The `links` view joins them back with pages.url cut the
// same way: the origin up to the first '/' from the 9th byte on, the
// directory with rtrim(url, replace(url, '/', '')).
void AppendCompactLinksJson(const std::vector<LinkRecord>& links, std::string_view page_url,
                            std::string* out);

// The length of page_url's origin as AppendCompactLinksJson cuts it (the
// offset of the '/' that starts its path), or 0 when it has none.
size_t LinkOriginLength(std::string_view page_url);

// One URL in the same compact form, without JSON quoting: "." + the rest
// when `url` is in the directory of `page_url`, its path when it has the
// same origin, else `url` itself (which starts with its scheme, never with
// '.' or '/'). Schema 5 keeps a frontier_log admission row's URL this way,
// cut from its parent page's URL (issue 12).
std::string CompactUrl(std::string_view url, std::string_view page_url);
// The same into *out (replaced; its capacity is reused: one call an
// admitted URL on the store thread).
void CompactUrlInto(std::string_view url, std::string_view page_url, std::string* out);
// The inverse: `stored` rebuilt against `page_url` (what the views' SQL
// does); `stored` itself unless it starts with '.' or '/'.
std::string ExpandCompactUrl(std::string_view stored, std::string_view page_url);
// The same into *out (replaced; its capacity is reused: one call a row on a
// resume of 10^7 admitted URLs).
void ExpandCompactUrlInto(std::string_view stored, std::string_view page_url, std::string* out);
// True when `stored` is a cut URL that needs its page's URL.
inline bool IsCompactUrl(std::string_view stored) {
  return !stored.empty() && (stored[0] == '.' || stored[0] == '/');
}

// Appends `s` as a JSON string literal (with the quotes) to *out.
void AppendJsonString(std::string_view s, std::string* out);

// Appends `json` to *out with every number that has a fraction or an
// exponent and more than 6 significant digits rewritten as its closest
// 6-digit form ("0.6666666666666666" -> "0.666667"); integers, strings and
// the structure pass through byte for byte. Text that is not JSON (no
// leading '{' or '[') is appended unchanged. Why (issue 12): strategies
// explain a score with ~9 full-precision doubles, ~60 of an explanation's
// ~125 bytes, and the store keeps one per admitted URL (frontier rows) and
// per page; 6 digits are what a reader of an explanation can use.
void AppendCompactJsonNumbers(std::string_view json, std::string* out);

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_LINKS_JSON_H_
