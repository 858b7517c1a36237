// URL parsing, canonicalisation and link resolution for the crawler.
//
// Parsing follows the WHATWG URL Standard (https://url.spec.whatwg.org/),
// "basic URL parser", restricted to the two special schemes a web crawler
// follows: http and https. The parser is the standard's state machine for
// special URLs written out directly (see url.cc for why), with libidn2 for
// UTS #46 "domain to ASCII" (non-transitional) on non-ASCII and xn-- hosts.
//
// Measured against the Web Platform Tests URL data (urltestdata.json), cases
// with an http(s) base or absolute http(s) input; see url_wpt_test.cc for the
// pass rate and the known differences.
//
// All functions are pure and thread-safe (a per-thread cache remembers the
// last parsed base, so resolving many links against one page base is cheap).
#ifndef TOPICRAWL_URL_URL_H_
#define TOPICRAWL_URL_URL_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace topicrawl {

// Longest canonical URL ResolveLink() accepts (bytes).
constexpr size_t kMaxUrlLength = 2048;

struct UrlParseResult {
  bool ok = false;
  std::string href;   // WHATWG serialisation when ok
  std::string error;  // reason when !ok, e.g. "unsupported scheme: ftp"
};

// WHATWG URL parsing for http/https (other schemes: ok=false, error names the
// scheme). `base` may be empty; a relative `input` then fails. A non-empty
// base that does not parse as an http(s) URL makes every relative input fail
// ("invalid base URL"); an absolute http(s) input ignores it. Output href is
// the WHATWG serialisation (fragment kept, default port dropped, host
// lower-case / punycode / IPv4 dotted / IPv6 compressed).
UrlParseResult ParseUrl(std::string_view input, std::string_view base = {});

// Canonical form for de-duplication of a parsed absolute http(s) href:
// lowercase scheme/host, IDNA (punycode), default port dropped, dot segments
// removed, percent-encoding normalised (upper-case hex, unreserved decoded,
// a '%' not starting an escape written "%25"), fragment dropped, empty
// path -> "/". The input is re-parsed, so any
// absolute http(s) URL string is accepted; returns "" when it does not parse.
// Idempotent: CanonicalizeUrl(CanonicalizeUrl(u)) == CanonicalizeUrl(u).
std::string CanonicalizeUrl(std::string_view href);

// ParseUrl + CanonicalizeUrl + filters (http/https only, canonical length
// <= kMaxUrlLength). nullopt when the link is unusable for the crawler.
// This is the hot path (about 100 calls per page); see bench/url_bench.cc.
std::optional<std::string> ResolveLink(std::string_view base,
                                       std::string_view href);

// Lower-case host[:port] (port only when not default) of an absolute URL;
// "" when `href` does not parse as an http(s) URL.
std::string UrlHostPort(std::string_view href);
// Lower-case host of an absolute URL (IPv6 in brackets); "" when invalid.
std::string UrlHost(std::string_view href);

}  // namespace topicrawl

#endif  // TOPICRAWL_URL_URL_H_
