// HostKeyOfUrl: the politeness key of a URL, "host[:port]" in lower case.
//
// A cheap parse, not a URL parser: the frontier only sees canonical absolute
// http(s) URLs (url/ResolveLink produced them), so splitting
// scheme://[userinfo@]host[:port][/?#...] is enough. The default port of the
// scheme is dropped so "http://a:80/" and "http://a/" share one host.
#ifndef TOPICRAWL_FRONTIER_HOST_KEY_H_
#define TOPICRAWL_FRONTIER_HOST_KEY_H_

#include <optional>
#include <string>
#include <string_view>

namespace topicrawl {

// nullopt when the URL has no "scheme://" prefix or an empty host.
std::optional<std::string> HostKeyOfUrl(std::string_view url);

}  // namespace topicrawl

#endif  // TOPICRAWL_FRONTIER_HOST_KEY_H_
