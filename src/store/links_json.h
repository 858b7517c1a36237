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

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_LINKS_JSON_H_
