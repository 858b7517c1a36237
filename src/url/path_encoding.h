// Percent-encoding of URL paths by the benchmark corpus rule
// (../shared/corpus/README.md §1 and §3): how served files get their URLs
// (web/) and how crawled URLs are canonicalised for label lookup (eval/).
// Not the crawler's WHATWG canonical form (url/url.h).
#ifndef TOPICRAWL_URL_PATH_ENCODING_H_
#define TOPICRAWL_URL_PATH_ENCODING_H_

#include <string>
#include <string_view>

namespace topicrawl {

// Percent-encodes a decoded path (RFC 3986): unreserved characters
// (ALPHA DIGIT - . _ ~), '/' and !$&'()*+,;=:@ stay; every other byte
// becomes %XX with upper-case hex. Python:
// quote(path, safe="/!$&'()*+,;=:@~").
std::string PercentEncodePath(std::string_view decoded_path);

// Decodes %XX escapes byte-wise; malformed escapes stay literal (Python's
// unquote; their '%' is re-encoded as %25 by PercentEncodePath).
std::string PercentDecode(std::string_view encoded);

}  // namespace topicrawl

#endif  // TOPICRAWL_URL_PATH_ENCODING_H_
