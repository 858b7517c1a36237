// SURT keys ("Sort-friendly URI Reordering Transform") as the CDX/CDXJ
// indexes of pywb, OpenWayback and ReplayWeb.page sort by them.
//
// Follows the `surt` Python library (internetarchive/surt, used by pywb's
// cdxj-indexer) with its default options: the URL is canonicalized the way
// IAURLCanonicalizer does it (scheme dropped, host and everything else
// lower-cased, "www."/"wwwN." prefix dropped, default port dropped, fragment
// dropped, query arguments sorted, an empty query and a trailing '/' of a
// non-root path dropped), then the host labels are reversed and joined by
// ',' and followed by ')' and the path:
//   http://www.Example.com/Goo/?b=2&a=1#x  ->  com,example)/goo?a=1&b=2
//   https://example.com:8443/              ->  com,example:8443)/
// Not done (the library's optional session-id stripping): URLs differ only
// by such ids are kept apart.
#ifndef TOPICRAWL_EXPORT_SURT_H_
#define TOPICRAWL_EXPORT_SURT_H_

#include <string>
#include <string_view>

namespace topicrawl {

// The SURT key of an absolute http(s) URL. Anything else (urn:, dns:, a
// malformed URL) is returned lower-cased, as the library does.
std::string SurtKey(std::string_view url);

}  // namespace topicrawl

#endif  // TOPICRAWL_EXPORT_SURT_H_
