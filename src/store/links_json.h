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
