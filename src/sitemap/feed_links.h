// Feed discovery on an HTML page: <link rel="alternate"
// type="application/rss+xml|application/atom+xml" href="..."> (the RSS
// Autodiscovery convention, https://www.rssboard.org/rss-autodiscovery, and
// HTML's "alternate" link type with a feed media type, HTML Living Standard
// 4.6.7.1). A small tag scanner rather than a DOM: only <link> start tags
// are read, attributes tokenised as HTML's "before attribute name" ...
// "attribute value (unquoted)" states do, comments skipped; it stops at
// <body> or after max_bytes. Returns the feed URLs resolved against
// `page_url` (a <base href> is not honoured), in page order, without
// duplicates.
#ifndef TOPICRAWL_SITEMAP_FEED_LINKS_H_
#define TOPICRAWL_SITEMAP_FEED_LINKS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace topicrawl {

std::vector<std::string> FindFeedLinks(std::string_view html, std::string_view page_url,
                                       size_t max_bytes = 256 * 1024);

}  // namespace topicrawl

#endif  // TOPICRAWL_SITEMAP_FEED_LINKS_H_
