#include "sitemap/announce_parser.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sitemap/announce_date.h"

namespace topicrawl {
namespace {

constexpr int64_t kDay = 86400000;
const int64_t kNow = DaysFromCivil(2026, 1, 10) * kDay;

std::string ReadTestdata(const std::string& name) {
  std::ifstream in(std::string(TOPICRAWL_SOURCE_DIR) + "/src/sitemap/testdata/" + name,
                   std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  EXPECT_TRUE(in.good() || in.eof()) << name;
  return s.str();
}

struct Parsed {
  AnnounceSummary summary;
  std::vector<AnnouncedEntry> entries;
};

Parsed Parse(const std::string& url, std::string_view body, AnnounceScope scope = {},
             AnnounceLimits limits = {}) {
  Parsed p;
  if (limits.now_ms == 0) limits.now_ms = kNow;
  p.summary = ParseAnnouncement(url, body, limits, scope,
                                [&](const AnnouncedEntry& e) { p.entries.push_back(e); });
  return p;
}

std::string Gzip(std::string_view data) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, data.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

const char* kUrlsetOpen = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">";

// --- The protocols' own examples ------------------------------------------

TEST(AnnounceParserTest, SitemapsOrgSample) {
  Parsed p = Parse("http://www.example.com/sitemap.xml", ReadTestdata("sitemaps_org_sample.xml"));
  EXPECT_EQ(p.summary.kind, AnnounceKind::kUrlset);
  EXPECT_TRUE(p.summary.complete);
  EXPECT_TRUE(p.summary.problems.empty());
  ASSERT_EQ(p.entries.size(), 5u);
  EXPECT_EQ(p.entries[0].loc, "http://www.example.com/");
  EXPECT_EQ(p.entries[0].lastmod_ms, DaysFromCivil(2005, 1, 1) * kDay);
  EXPECT_EQ(p.entries[0].changefreq, ChangeFreq::kMonthly);
  EXPECT_FLOAT_EQ(p.entries[0].priority, 0.8f);
  // &amp; is the entity-escaped '&' the protocol requires.
  EXPECT_EQ(p.entries[1].loc, "http://www.example.com/catalog?item=12&desc=vacation_hawaii");
  EXPECT_EQ(p.entries[1].lastmod_ms, 0);
  EXPECT_EQ(p.entries[1].changefreq, ChangeFreq::kWeekly);
  EXPECT_EQ(p.entries[1].priority, -1);
  EXPECT_EQ(p.entries[3].lastmod_ms, DaysFromCivil(2004, 12, 23) * kDay + 64815000);
  EXPECT_FLOAT_EQ(p.entries[3].priority, 0.3f);
  EXPECT_EQ(p.entries[4].lastmod_ms, DaysFromCivil(2004, 11, 23) * kDay);
}

TEST(AnnounceParserTest, SitemapsOrgIndex) {
  Parsed p = Parse("http://www.example.com/sitemap_index.xml",
                   ReadTestdata("sitemaps_org_index.xml"));
  EXPECT_EQ(p.summary.kind, AnnounceKind::kSitemapIndex);
  ASSERT_EQ(p.entries.size(), 2u);
  EXPECT_EQ(p.entries[0].loc, "http://www.example.com/sitemap1.xml.gz");
  EXPECT_EQ(p.entries[0].lastmod_ms, DaysFromCivil(2004, 10, 1) * kDay + 66197000);
  EXPECT_EQ(p.entries[1].lastmod_ms, DaysFromCivil(2005, 1, 1) * kDay);
}

TEST(AnnounceParserTest, RssBoardSample) {
  Parsed p = Parse("http://liftoff.msfc.nasa.gov/rss.xml",
                   ReadTestdata("rssboard_sample_rss_2.xml"));
  EXPECT_EQ(p.summary.kind, AnnounceKind::kRss);
  EXPECT_TRUE(p.summary.complete);
  ASSERT_EQ(p.entries.size(), 4u);
  EXPECT_EQ(p.entries[0].loc, "http://liftoff.msfc.nasa.gov/news/2003/news-starcity.asp");
  EXPECT_EQ(p.entries[0].published_ms, DaysFromCivil(2003, 6, 3) * kDay + 34761000);
  EXPECT_EQ(p.entries[0].lastmod_ms, p.entries[0].published_ms);
  // The second item has no <link>: its permalink <guid> names it (RSS 2.0,
  // "<guid> sub-element of <item>"); the fragment goes in canonical form.
  EXPECT_EQ(p.entries[1].loc, "http://liftoff.msfc.nasa.gov/2003/05/30.html");
  EXPECT_EQ(p.entries[3].loc, "http://liftoff.msfc.nasa.gov/news/2003/news-laundry.asp");
  // Item titles (the channel's own <title> is no entry's); the second item
  // has none.
  EXPECT_EQ(p.entries[0].title, "Star City");
  EXPECT_EQ(p.entries[1].title, "");
  EXPECT_EQ(p.entries[2].title, "The Engine That Does More");
  EXPECT_EQ(p.entries[3].title, "Astronauts' Dirty Laundry");
}

TEST(AnnounceParserTest, Rfc4287Examples) {
  Parsed a = Parse("http://example.org/feed.atom", ReadTestdata("rfc4287_minimal.xml"));
  EXPECT_EQ(a.summary.kind, AnnounceKind::kAtom);
  ASSERT_EQ(a.entries.size(), 1u);  // the feed's own <link> is no entry
  EXPECT_EQ(a.entries[0].loc, "http://example.org/2003/12/13/atom03");
  EXPECT_EQ(a.entries[0].lastmod_ms, DaysFromCivil(2003, 12, 13) * kDay + 66602000);
  EXPECT_EQ(a.entries[0].title, "Atom-Powered Robots Run Amok");  // not the feed's title

  Parsed b = Parse("http://example.org/feed.atom", ReadTestdata("rfc4287_extensive.xml"));
  ASSERT_EQ(b.entries.size(), 1u);
  EXPECT_EQ(b.entries[0].loc, "http://example.org/2005/04/02/atom");  // not the enclosure
  EXPECT_EQ(b.entries[0].title, "Atom draft-07 snapshot");
  EXPECT_EQ(b.entries[0].lastmod_ms, DaysFromCivil(2005, 7, 31) * kDay + 44969000);
  // 2003-12-13T08:29:29-04:00 = 12:29:29 UTC.
  EXPECT_EQ(b.entries[0].published_ms, DaysFromCivil(2003, 12, 13) * kDay + 44969000);
  EXPECT_TRUE(b.summary.complete);
}

TEST(AnnounceParserTest, NewsAndImageExtensionsTolerated) {
  Parsed n = Parse("http://www.example.org/sitemap.xml", ReadTestdata("google_news_sitemap.xml"));
  ASSERT_EQ(n.entries.size(), 1u);
  EXPECT_EQ(n.entries[0].loc, "http://www.example.org/business/article55.html");
  EXPECT_EQ(n.entries[0].published_ms, DaysFromCivil(2008, 12, 23) * kDay);
  EXPECT_EQ(n.entries[0].title, "Companies A, B in Merger Talks");
  EXPECT_TRUE(n.summary.problems.empty());

  Parsed i = Parse("https://example.com/sitemap.xml", ReadTestdata("google_image_sitemap.xml"));
  ASSERT_EQ(i.entries.size(), 2u);  // image:loc is not a page
  EXPECT_EQ(i.entries[0].loc, "https://example.com/sample1.html");
  EXPECT_EQ(i.entries[1].loc, "https://example.com/sample2.html");
}

// Titles are plain text: escaped markup (RSS, Atom type="html") and XHTML
// children dropped, white space folded, long ones cut at 512 bytes on a
// UTF-8 boundary; a sitemap <url> has none.
TEST(AnnounceParserTest, EntryTitlesArePlainText) {
  Parsed a = Parse(
      "http://example.org/feed.atom",
      "<feed xmlns=\"http://www.w3.org/2005/Atom\">"
      "<entry><title type=\"html\">TCP &lt;b&gt;tuning&lt;/b&gt;\n  guide</title>"
      "<link href=\"/a\"/></entry>"
      "<entry><title type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\">DNS "
      "<em>over</em> TLS</div></title><link href=\"/b\"/></entry>"
      "<entry><title>" + std::string(511, 'y') + "\xC3\xA9</title><link href=\"/c\"/></entry>"
      "</feed>");
  ASSERT_EQ(a.entries.size(), 3u);
  EXPECT_EQ(a.entries[0].title, "TCP tuning guide");
  EXPECT_EQ(a.entries[1].title, "DNS over TLS");
  EXPECT_EQ(a.entries[2].title, std::string(511, 'y'));  // the 2-byte character would pass 512
  Parsed s = Parse("http://example.org/sitemap.xml",
                   std::string(kUrlsetOpen) + "<url><loc>http://example.org/x</loc></url></urlset>");
  ASSERT_EQ(s.entries.size(), 1u);
  EXPECT_EQ(s.entries[0].title, "");
}

TEST(AnnounceParserTest, GzipSitemapFedInPieces) {
  std::string gz = Gzip(ReadTestdata("sitemaps_org_sample.xml"));
  std::vector<AnnouncedEntry> got;
  AnnounceParser parser("http://www.example.com/sitemap.xml.gz", {.now_ms = kNow}, {},
                        [&](const AnnouncedEntry& e) { got.push_back(e); });
  for (size_t i = 0; i < gz.size(); i += 7) ASSERT_TRUE(parser.Feed(gz.substr(i, 7)));
  const AnnounceSummary& s = parser.Finish();
  EXPECT_TRUE(s.gzip);
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(got.size(), 5u);
}

// --- The location rule ---------------------------------------------------

TEST(AnnounceParserTest, OtherHostsAndParentPathsAreOutsideTheScope) {
  std::string xml = std::string(kUrlsetOpen) +
                    "<url><loc>http://h.test/catalog/a.html</loc></url>"
                    "<url><loc>http://h.test/other/b.html</loc></url>"
                    "<url><loc>http://evil.test/catalog/c.html</loc></url>"
                    "<url><loc>https://h.test/catalog/d.html</loc></url>"
                    "<url><loc>http://h.test:8080/catalog/e.html</loc></url>"
                    "<url><loc>/catalog/relative.html</loc></url></urlset>";
  // sitemaps.org: a sitemap at http://example.com/catalog/sitemap.xml may
  // list http://example.com/catalog/... only.
  Parsed p = Parse("http://h.test/catalog/sitemap.xml", xml);
  ASSERT_EQ(p.entries.size(), 1u);
  EXPECT_EQ(p.entries[0].loc, "http://h.test/catalog/a.html");
  EXPECT_EQ(p.summary.ProblemCount("outside_scope"), 4);
  EXPECT_EQ(p.summary.ProblemCount("bad_url"), 1);  // <loc> must be absolute
  EXPECT_EQ(p.summary.rejected, 5);
  // Cross-submission: named in evil.test's robots.txt, evil.test's URLs count.
  Parsed c = Parse("http://h.test/catalog/sitemap.xml", xml,
                   AnnounceScope{.extra_roots = {"http://evil.test/"}});
  EXPECT_EQ(c.entries.size(), 2u);
}

TEST(AnnounceParserTest, IndexListsSitemapsOfItsOwnSiteOnly) {
  std::string xml =
      "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
      "<sitemap><loc>http://h.test/deep/s1.xml</loc></sitemap>"
      "<sitemap><loc>http://other.test/s2.xml</loc></sitemap></sitemapindex>";
  Parsed p = Parse("http://h.test/sitemap.xml", xml);
  ASSERT_EQ(p.entries.size(), 1u);
  EXPECT_EQ(p.summary.ProblemCount("outside_scope"), 1);
}

// --- Bad input: recorded as data with its reason ---------------------------

TEST(AnnounceParserTest, BadDatesPrioritiesAndFrequenciesKeepTheUrl) {
  std::string xml = std::string(kUrlsetOpen) +
                    "<url><loc>http://h.test/a</loc><lastmod>2099-01-01</lastmod></url>"
                    "<url><loc>http://h.test/b</loc><lastmod>last tuesday</lastmod>"
                    "<priority>1.5</priority><changefreq>sometimes</changefreq></url>"
                    "<url><loc>http://h.test/c</loc><lastmod>2026-01-10T12:00Z</lastmod></url>"
                    "</urlset>";
  Parsed p = Parse("http://h.test/sitemap.xml", xml);
  ASSERT_EQ(p.entries.size(), 3u);
  EXPECT_EQ(p.entries[0].lastmod_ms, 0);
  EXPECT_EQ(p.entries[1].lastmod_ms, 0);
  EXPECT_EQ(p.entries[1].priority, -1);
  EXPECT_EQ(p.entries[1].changefreq, ChangeFreq::kNone);
  EXPECT_GT(p.entries[2].lastmod_ms, 0);  // within the day of slack
  EXPECT_EQ(p.summary.ProblemCount("future_date"), 1);
  EXPECT_EQ(p.summary.ProblemCount("bad_date"), 1);
  EXPECT_EQ(p.summary.ProblemCount("bad_priority"), 1);
  EXPECT_EQ(p.summary.ProblemCount("bad_changefreq"), 1);
}

TEST(AnnounceParserTest, MalformedXmlKeepsTheEntriesBefore) {
  std::string xml = std::string(kUrlsetOpen) +
                    "<url><loc>http://h.test/a</loc></url><url><loc>http://h.test/b</lo";
  Parsed p = Parse("http://h.test/sitemap.xml", xml + "x></url></urlset>");
  EXPECT_EQ(p.entries.size(), 1u);
  EXPECT_FALSE(p.summary.complete);
  EXPECT_EQ(p.summary.ProblemCount("malformed_xml"), 1);
  EXPECT_EQ(p.summary.problems[0].first.find("mismatched tag"), 0u) << p.summary.problems[0].first;

  Parsed t = Parse("http://h.test/sitemap.xml", xml);  // truncated body
  EXPECT_EQ(t.summary.ProblemCount("malformed_xml"), 1);
  Parsed e = Parse("http://h.test/sitemap.xml", "");
  EXPECT_EQ(e.summary.ProblemCount("malformed_xml"), 1);
  Parsed h = Parse("http://h.test/sitemap.xml", "<html><body>Not found</body></html>");
  EXPECT_EQ(h.summary.ProblemCount("not_announcement"), 1);
  Parsed g = Parse("http://h.test/sitemap.xml.gz", "\x1f\x8bnot gzip at all");
  EXPECT_EQ(g.summary.ProblemCount("gzip_error"), 1);
}

TEST(AnnounceParserTest, XmlBombIsRefusedAtTheDeclaration) {
  // The billion laughs (10 levels of 10 references).
  std::string bomb = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">";
  for (int i = 1; i <= 9; ++i) {
    bomb += "<!ENTITY lol" + std::to_string(i) + " \"";
    for (int k = 0; k < 10; ++k) bomb += "&lol" + (i == 1 ? std::string() : std::to_string(i - 1)) + ";";
    bomb += "\">";
  }
  bomb += "]>" + std::string(kUrlsetOpen) + "<url><loc>http://h.test/&lol9;</loc></url></urlset>";
  Parsed p = Parse("http://h.test/sitemap.xml", bomb);
  EXPECT_EQ(p.summary.ProblemCount("dtd_entity"), 1);
  EXPECT_TRUE(p.entries.empty());
  EXPECT_LT(p.summary.bytes, 2000);
}

TEST(AnnounceParserTest, ExternalEntityIsNeverLoaded) {
  std::string xxe = "<?xml version=\"1.0\"?><!DOCTYPE u [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>" +
                    std::string(kUrlsetOpen) + "<url><loc>http://h.test/&x;</loc></url></urlset>";
  Parsed p = Parse("http://h.test/sitemap.xml", xxe);
  EXPECT_EQ(p.summary.ProblemCount("dtd_entity"), 1);
  EXPECT_TRUE(p.entries.empty());
}

TEST(AnnounceParserTest, GzipBombStopsAt50MiBOfXml) {
  // 56 MiB of white space inside <urlset> deflates to ~250 KiB.
  z_stream z{};
  ASSERT_EQ(deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY), Z_OK);
  std::string gz(1 << 20, '\0'), out;
  auto pump = [&](std::string_view in, int flush) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    do {
      z.next_out = reinterpret_cast<Bytef*>(gz.data());
      z.avail_out = static_cast<uInt>(gz.size());
      deflate(&z, flush);
      out.append(gz.data(), gz.size() - z.avail_out);
    } while (z.avail_out == 0);
  };
  pump(kUrlsetOpen, Z_NO_FLUSH);
  std::string spaces(1 << 20, ' ');
  for (int i = 0; i < 56; ++i) pump(spaces, Z_NO_FLUSH);
  pump("</urlset>", Z_FINISH);
  deflateEnd(&z);
  ASSERT_LT(out.size(), 1u << 20);
  Parsed p = Parse("http://h.test/sitemap.xml.gz", out);
  EXPECT_EQ(p.summary.ProblemCount("too_large"), 1);
  EXPECT_EQ(p.summary.bytes, 50 << 20);
  EXPECT_FALSE(p.summary.complete);
}

TEST(AnnounceParserTest, TwoGigabyteSitemapIsReadAsAStreamAndCut) {
  // A body that never ends: the parser stops at 50 MiB and says so; the
  // caller stops reading when Feed returns false, so nothing is held.
  AnnounceParser parser("http://h.test/sitemap.xml", {.now_ms = kNow}, {},
                        [](const AnnouncedEntry&) {});
  std::string chunk;
  for (int i = 0; i < 200; ++i) chunk += "<url><loc>http://h.test/p" + std::to_string(i) + "</loc></url>";
  chunk.resize(64 * 1024, ' ');
  int64_t fed = 0;
  ASSERT_TRUE(parser.Feed(kUrlsetOpen));
  while (fed < (int64_t{2} << 30) && parser.Feed(chunk)) fed += static_cast<int64_t>(chunk.size());
  const AnnounceSummary& s = parser.Finish();
  EXPECT_LE(fed, int64_t{51} << 20);
  EXPECT_TRUE(s.ProblemCount("too_large") == 1 || s.ProblemCount("too_many_entries") == 1);
}

TEST(AnnounceParserTest, FiftyThousandAndOneUrls) {
  std::string xml = kUrlsetOpen;
  for (int i = 0; i <= 50000; ++i) xml += "<url><loc>http://h.test/p" + std::to_string(i) + "</loc></url>";
  xml += "</urlset>";
  Parsed p = Parse("http://h.test/sitemap.xml", xml);
  EXPECT_EQ(p.entries.size(), 50000u);
  EXPECT_EQ(p.summary.ProblemCount("too_many_entries"), 1);
  EXPECT_EQ(p.entries.back().loc, "http://h.test/p49999");
}

TEST(AnnounceParserTest, ThousandDeepElementsAreHarmless) {
  std::string xml = std::string(kUrlsetOpen) + "<url><loc>http://h.test/a</loc>";
  for (int i = 0; i < 1000; ++i) xml += "<x>";
  xml += "<loc>http://h.test/deep</loc>";
  for (int i = 0; i < 1000; ++i) xml += "</x>";
  xml += "</url></urlset>";
  Parsed p = Parse("http://h.test/sitemap.xml", xml);
  ASSERT_EQ(p.entries.size(), 1u);
  EXPECT_EQ(p.entries[0].loc, "http://h.test/a");
  EXPECT_TRUE(p.summary.complete);
}

TEST(AnnounceParserTest, OverlongFieldRejectsItsEntry) {
  std::string xml = std::string(kUrlsetOpen) + "<url><loc>http://h.test/" +
                    std::string(100000, 'a') + "</loc></url><url><loc>http://h.test/b</loc></url></urlset>";
  Parsed p = Parse("http://h.test/sitemap.xml", xml);
  ASSERT_EQ(p.entries.size(), 1u);
  EXPECT_EQ(p.summary.ProblemCount("field_too_long"), 1);
}

TEST(AnnounceParserTest, UnknownNamespaceIsReadAndNoted) {
  Parsed p = Parse("http://h.test/sitemap.xml",
                   "<urlset xmlns=\"http://www.google.com/schemas/sitemap/0.84\">"
                   "<url><loc>http://h.test/a</loc></url></urlset>");
  EXPECT_EQ(p.entries.size(), 1u);
  EXPECT_EQ(p.summary.ProblemCount("sitemap_namespace"), 1);
  Parsed n = Parse("http://h.test/sitemap.xml",
                   "<urlset><url><loc>http://h.test/a</loc></url></urlset>");
  EXPECT_EQ(n.entries.size(), 1u);
}

TEST(AnnounceParserTest, RelativeAtomLinksResolveAgainstTheFeed) {
  Parsed p = Parse("http://h.test/news/feed.atom",
                   "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><link href=\"a.html\"/>"
                   "<updated>2026-01-02T00:00:00Z</updated></entry></feed>");
  ASSERT_EQ(p.entries.size(), 1u);
  EXPECT_EQ(p.entries[0].loc, "http://h.test/news/a.html");
}

}  // namespace
}  // namespace topicrawl
