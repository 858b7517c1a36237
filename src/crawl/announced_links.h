// Announced URLs as links (issue 34): URLs a site's sitemaps and feeds name
// that the crawl does not know are scored by the crawl's own strategy, like
// the outlinks of a page, so that a focused crawl stays focused (an
// off-topic announced URL is not fetched ahead of on-topic ones, and one
// the strategy would not admit as a link is not queued).
//
// The parent of an announced URL is the sitemap or feed that named it: one
// synthetic page per document, base URL = the document's, no title and no
// text (its R(P) is what the strategy gives an empty page: the same for
// every document, so the parent neither lifts nor sinks one announced URL
// against another). The anchor text is the feed entry's title where there
// is one, else the words of the URL (UrlWords).
#ifndef TOPICRAWL_CRAWL_ANNOUNCED_LINKS_H_
#define TOPICRAWL_CRAWL_ANNOUNCED_LINKS_H_

#include <string>
#include <string_view>
#include <vector>

#include "crawl/crawl_strategy.h"
#include "crawl/rounds/round_policy.h"

namespace topicrawl {

// The words of a URL's path and query, for an anchor text: split at every
// byte that is not an ASCII letter or digit (bytes >= 0x80 are kept, so
// UTF-8 words stay whole), percent escapes decoded first, file extensions
// of pages (html, htm, php, asp, aspx, jsp, shtml, xml) dropped.
// "http://h/net/tcp-tuning.html?p=2" -> "net tcp tuning p 2".
std::string UrlWords(std::string_view url);

// The strategy's verdict on each of `links` (index-aligned), judged as the
// outlinks of their documents (grouped by AnnouncedLink::document, in
// order of first appearance). `ignore_scheme`: the crawl's dedup rule, for
// the documents' UrlIds.
std::vector<PageAssessment::Link> ScoreAnnouncedLinks(PageJudge& judge,
                                                      const std::vector<AnnouncedLink>& links,
                                                      bool ignore_scheme);

// The frontier priority of an announced link of strategy score `score`
// (RoundPlan::announced_floor): `score` itself when floor < 0, else
// floor + a number in (0, 1) that grows strictly with score.
double AnnouncedPriority(double floor, double score);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_ANNOUNCED_LINKS_H_
