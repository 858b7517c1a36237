// A cheap test for URLs that are canonical already (url/url.h), for inputs
// that mostly are, e.g. sitemap <loc>s: ResolveLink's parse is skipped for
// them.
#ifndef TOPICRAWL_URL_PLAIN_URL_H_
#define TOPICRAWL_URL_PLAIN_URL_H_

#include <string_view>

namespace topicrawl {

// True when `href` is an absolute http(s) URL whose canonical form is
// itself, as a character check shows: "http://" or "https://", a host of
// lower-case letters, digits, '-' and '.' (non-empty labels, none starting
// with "xn--", the last one with a letter and not "0x...": no IDNA, no IPv4
// rewriting), no port or user info, a path and optional non-empty query of
// unreserved characters and "!$&()*+,;=:@/" (and '?' in the query), no '%',
// no "." or ".." path segment, no fragment, at most kMaxUrlLength bytes.
// Then ResolveLink(base, href) == href for any base; false says nothing
// (use ResolveLink).
bool IsPlainCanonicalUrl(std::string_view href);

}  // namespace topicrawl

#endif  // TOPICRAWL_URL_PLAIN_URL_H_
