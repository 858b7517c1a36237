// Streaming parser for what sites announce about their pages: sitemaps
// (protocol 0.9, https://www.sitemaps.org/protocol.html: <urlset> and
// <sitemapindex>, plain or gzip), RSS 2.0 (https://www.rssboard.org/rss-
// specification: channel/item/link, guid, pubDate) and Atom 1.0 (RFC 4287:
// feed/entry/link, updated, published). The document type is read from the
// root element, so one parser takes whatever a robots.txt `Sitemap:` line or
// a `<link rel="alternate">` points to.
//
// Streaming: bytes go in as they arrive (Feed), entries come out through a
// callback one at a time; memory is bounded by the longest field
// (limits.max_field_bytes) whatever the document's size. A gzip body (magic
// 1f 8b) is inflated on the way in, and the inflated bytes count against
// limits.max_bytes, so a gzip bomb stops at 50 MiB of XML.
//
// XML: expat, with namespaces (element names "uri local"). A document that
// declares an entity in its DTD is refused ("dtd_entity") before the
// declaration is used: sitemaps and feeds need none, and this shuts out the
// billion-laughs and external-entity attacks whatever expat's own
// protections are. External entities are never loaded (no handler is
// installed and parameter-entity parsing is NEVER); expat 2.5's
// billion-laughs protection stays on as a second wall (amplification cap
// 50, from 1 MiB on).
//
// Bad input is data, never an exception: every problem is counted by reason
// in Summary::problems (the first detail kept), and parsing continues where
// it can (a bad <lastmod> drops the date, not the URL; malformed XML stops
// the document but keeps the entries before it).
//
// The protocol's rule on which URLs a sitemap may list (sitemaps.org,
// "Sitemap file location"): a sitemap at http://h/dir/sitemap.xml may list
// URLs under http://h/dir/ only (same scheme, host and port); a sitemap
// named in the robots.txt of host H may also list URLs of H ("Sitemaps &
// Cross Submits"): those robots hosts are passed as Scope::extra_roots. A
// sitemap index may list sitemaps of its own site only. Feeds have no
// such rule (their items link anywhere; the crawl's own scope applies).
#ifndef TOPICRAWL_SITEMAP_ANNOUNCE_PARSER_H_
#define TOPICRAWL_SITEMAP_ANNOUNCE_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace topicrawl {

enum class AnnounceKind : uint8_t {
  kUnknown = 0,   // not (yet) recognised
  kUrlset = 1,    // sitemap <urlset>
  kSitemapIndex = 2,
  kRss = 3,
  kAtom = 4,
};
const char* AnnounceKindName(AnnounceKind kind);
inline bool IsFeed(AnnounceKind k) { return k == AnnounceKind::kRss || k == AnnounceKind::kAtom; }

// <changefreq> values of the protocol (kNone: absent or invalid).
enum class ChangeFreq : uint8_t {
  kNone = 0, kAlways, kHourly, kDaily, kWeekly, kMonthly, kYearly, kNever
};
const char* ChangeFreqName(ChangeFreq f);

// One <url>, <sitemap> (kind kSitemapIndex: loc names a sitemap), RSS
// <item> or Atom <entry>.
struct AnnouncedEntry {
  std::string loc;           // canonical absolute URL (url/url.h ResolveLink)
  int64_t lastmod_ms = 0;    // <lastmod> / Atom <updated>; 0 = none or rejected
  int64_t published_ms = 0;  // news:publication_date / RSS pubDate / Atom <published>
  ChangeFreq changefreq = ChangeFreq::kNone;
  float priority = -1;       // 0.0-1.0; -1 = none
  // RSS item / Atom entry <title>, news:title of a news sitemap: plain
  // text (markup dropped, white space folded, <= 512 bytes); "" = none.
  std::string title;
};

struct AnnounceLimits {
  size_t max_entries = 50000;        // protocol: at most 50,000 URLs a file
  size_t max_bytes = 50u << 20;      // protocol: at most 50 MiB uncompressed
  size_t max_field_bytes = 8192;     // longer fields are cut and rejected
  int64_t now_ms = 0;                // dates after now + future_slack_ms are rejected
  int64_t future_slack_ms = 86400000;  // one day of clock skew and zones
};

struct AnnounceScope {
  // Roots ("scheme://host[:port]/") of hosts whose robots.txt named this
  // sitemap: their URLs are in scope too (cross-submission).
  std::vector<std::string> extra_roots;
  // No location rule at all (feeds; tests of other rules).
  bool unrestricted = false;
};

struct AnnounceProblem {
  std::string reason;  // e.g. "malformed_xml", "outside_scope", "bad_date"
  int64_t count = 0;
  std::string first;   // detail of the first occurrence
};

struct AnnounceSummary {
  AnnounceKind kind = AnnounceKind::kUnknown;
  int64_t entries = 0;     // entries passed to the callback
  int64_t rejected = 0;    // entries dropped (bad or out-of-scope loc, over the limit)
  int64_t bytes = 0;       // XML bytes parsed (after gunzip)
  bool gzip = false;
  bool complete = false;   // the document ended well-formed within the limits
  std::vector<AnnounceProblem> problems;
  int64_t ProblemCount(std::string_view reason) const;
};

class AnnounceParser {
 public:
  using EntryFn = std::function<void(const AnnouncedEntry&)>;
  // `document_url`: where the document was fetched from (final URL after
  // redirects): relative Atom links resolve against it and the location
  // rule is taken from it.
  AnnounceParser(std::string document_url, AnnounceLimits limits, AnnounceScope scope,
                 EntryFn on_entry);
  ~AnnounceParser();
  AnnounceParser(const AnnounceParser&) = delete;
  AnnounceParser& operator=(const AnnounceParser&) = delete;

  // The next bytes of the body. False once parsing has stopped (an error or
  // a limit; the reason is in the summary); later calls do nothing.
  bool Feed(std::string_view bytes);
  // End of the body: checks the document is complete and returns the
  // summary (also after a stop).
  const AnnounceSummary& Finish();
  // The document's kind, known from its root element on (entry callbacks
  // may ask).
  AnnounceKind kind() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// One whole body at once (tests, small documents).
AnnounceSummary ParseAnnouncement(const std::string& document_url, std::string_view body,
                                  const AnnounceLimits& limits, const AnnounceScope& scope,
                                  const AnnounceParser::EntryFn& on_entry);

// The location rule above, on canonical URLs: true when a sitemap at
// `sitemap_url` may list `url`.
bool SitemapMayList(std::string_view sitemap_url, std::string_view url,
                    const AnnounceScope& scope);

}  // namespace topicrawl

#endif  // TOPICRAWL_SITEMAP_ANNOUNCE_PARSER_H_
