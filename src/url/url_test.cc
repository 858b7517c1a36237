// Unit tests for url/url.h. Section numbers refer to the WHATWG URL Standard
// (§4.4 basic URL parser) and RFC 3986 (§6.2.2 syntax-based normalisation).
#include "url/url.h"
#include "url/plain_url.h"

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

std::string Href(std::string_view input, std::string_view base = {}) {
  UrlParseResult r = ParseUrl(input, base);
  return r.ok ? r.href : "invalid: " + r.error;
}

TEST(ParseUrlTest, SerialisesAbsoluteHttpUrl) {
  EXPECT_EQ(Href("HTTP://User:Pw@Example.COM:8080/a/b?q=1#f"),
            "http://User:Pw@example.com:8080/a/b?q=1#f");
}

TEST(ParseUrlTest, RejectsOtherSchemesNamingThem) {
  UrlParseResult r = ParseUrl("mailto:someone@example.com");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "unsupported scheme: mailto");
  EXPECT_EQ(ParseUrl("javascript:void(0)", "http://a/").error,
            "unsupported scheme: javascript");
}

TEST(ParseUrlTest, RelativeWithoutBaseFails) {
  EXPECT_EQ(Href("/a"), "invalid: relative URL without a base");
}

TEST(ParseUrlTest, InvalidBaseFailsRelativeButNotAbsolute) {
  EXPECT_FALSE(ParseUrl("a", "ftp://x/").ok);
  EXPECT_EQ(Href("http://b/", "ftp://x/"), "http://b/");
}

// §4.4 steps 1-3: leading/trailing C0 and space stripped; tab/LF/CR removed.
TEST(ParseUrlTest, StripsControlsAndWhitespace) {
  EXPECT_EQ(Href(" \t http://exa\nmple.com/a\tb \x01"), "http://example.com/ab");
}

TEST(ParseUrlTest, BackslashIsSlashForHttp) {
  EXPECT_EQ(Href("\\\\h\\a\\b", "http://x/"), "http://h/a/b");
}

TEST(ParseUrlTest, ResolvesRfc3986Examples) {
  // RFC 3986 §5.4.1 normal examples (base http://a/b/c/d;p?q).
  const char* base = "http://a/b/c/d;p?q";
  EXPECT_EQ(Href("g", base), "http://a/b/c/g");
  EXPECT_EQ(Href("./g", base), "http://a/b/c/g");
  EXPECT_EQ(Href("g/", base), "http://a/b/c/g/");
  EXPECT_EQ(Href("/g", base), "http://a/g");
  EXPECT_EQ(Href("//g", base), "http://g/");
  EXPECT_EQ(Href("?y", base), "http://a/b/c/d;p?y");
  EXPECT_EQ(Href("#s", base), "http://a/b/c/d;p?q#s");
  EXPECT_EQ(Href("", base), "http://a/b/c/d;p?q");
  EXPECT_EQ(Href("..", base), "http://a/b/");
  EXPECT_EQ(Href("../..", base), "http://a/");
  EXPECT_EQ(Href("../../../../g", base), "http://a/g");
  EXPECT_EQ(Href("g;x=1/../y", base), "http://a/b/c/y");
}

TEST(ParseUrlTest, SameSchemeWithoutSlashesIsRelative) {
  EXPECT_EQ(Href("http:foo", "http://a/b/c"), "http://a/b/foo");
  EXPECT_EQ(Href("https:foo", "http://a/b/c"), "https://foo/");
}

TEST(ParseUrlTest, PercentEncodesPerComponent) {
  EXPECT_EQ(Href("http://h/a b\"<>`{}?q '\"<>`#f `\"<>"),
            "http://h/a%20b%22%3C%3E%60%7B%7D?q%20%27%22%3C%3E`#f%20%60%22%3C%3E");
  EXPECT_EQ(Href("http://h/\xE4\xB8\xAD?\xE4\xB8\xAD"),
            "http://h/%E4%B8%AD?%E4%B8%AD");
}

TEST(ParseUrlTest, ParsesHostForms) {
  EXPECT_EQ(Href("http://0x7f.1/"), "http://127.0.0.1/");
  EXPECT_EQ(Href("http://2130706433/"), "http://127.0.0.1/");
  EXPECT_EQ(Href("http://[0:0::1]:81/"), "http://[::1]:81/");
  EXPECT_EQ(Href("http://%45xample.com/"), "http://example.com/");
  EXPECT_EQ(Href("http://\xE4\xB8\xAD\xE6\x96\x87.com/"), "http://xn--fiq228c.com/");
  EXPECT_EQ(Href("http://1.2.3.256/"), "invalid: invalid IPv4 address (out of range)");
  EXPECT_EQ(Href("http://a b/"), "invalid: forbidden host code point");
  EXPECT_EQ(Href("http:///"), "invalid: empty host");
}

TEST(ParseUrlTest, ValidatesPort) {
  EXPECT_EQ(Href("http://h:80/"), "http://h/");
  EXPECT_EQ(Href("https://h:443/"), "https://h/");
  EXPECT_EQ(Href("https://h:80/"), "https://h:80/");
  EXPECT_EQ(Href("http://h:/"), "http://h/");
  EXPECT_EQ(Href("http://h:65536/"), "invalid: port out of range");
  EXPECT_EQ(Href("http://h:8a/"), "invalid: invalid port");
}

TEST(CanonicalizeUrlTest, LowercasesSchemeAndHost) {
  EXPECT_EQ(CanonicalizeUrl("HTTPS://WWW.Example.COM/Path"),
            "https://www.example.com/Path");
}

TEST(CanonicalizeUrlTest, DropsDefaultPort) {
  EXPECT_EQ(CanonicalizeUrl("http://example.com:80/"), "http://example.com/");
  EXPECT_EQ(CanonicalizeUrl("https://example.com:443/"), "https://example.com/");
  EXPECT_EQ(CanonicalizeUrl("http://example.com:443/"), "http://example.com:443/");
}

TEST(CanonicalizeUrlTest, EmptyPathBecomesSlash) {
  EXPECT_EQ(CanonicalizeUrl("http://example.com"), "http://example.com/");
  EXPECT_EQ(CanonicalizeUrl("http://example.com?x"), "http://example.com/?x");
}

TEST(CanonicalizeUrlTest, RemovesDotSegments) {
  EXPECT_EQ(CanonicalizeUrl("http://h/a/./b/../c/%2e%2E/d"), "http://h/a/d");
}

TEST(CanonicalizeUrlTest, NormalisesPercentEncoding) {
  // RFC 3986 §6.2.2.1 (upper-case hex) and §6.2.2.2 (decode unreserved).
  EXPECT_EQ(CanonicalizeUrl("http://h/%7euser/%41%2f%3a?q=%7E%2b%zz"),
            "http://h/~user/A%2F%3A?q=~%2B%25zz");
  EXPECT_EQ(CanonicalizeUrl("http://h/%3%37"), "http://h/%2537");
}

TEST(CanonicalizeUrlTest, DropsFragment) {
  EXPECT_EQ(CanonicalizeUrl("http://h/a?b#c"), "http://h/a?b");
  EXPECT_EQ(CanonicalizeUrl("http://h/a#"), "http://h/a");
}

TEST(CanonicalizeUrlTest, IsIdempotentAndRejectsGarbage) {
  for (const char* u : {"http://h/%7e/a%2fb?%41", "https://\xC3\xBC.de/\xC3\xBC",
                        "http://[::1]:8080/x/../y"}) {
    std::string once = CanonicalizeUrl(u);
    ASSERT_FALSE(once.empty()) << u;
    EXPECT_EQ(CanonicalizeUrl(once), once);
  }
  EXPECT_EQ(CanonicalizeUrl("not a url"), "");
  EXPECT_EQ(CanonicalizeUrl("ftp://h/"), "");
}

TEST(ResolveLinkTest, ResolvesAndCanonicalises) {
  EXPECT_EQ(ResolveLink("http://Example.com/dir/page.html", "../%7Ea/b.html#top"),
            "http://example.com/~a/b.html");
  EXPECT_EQ(ResolveLink("https://h/a", "//other.org"), "https://other.org/");
}

TEST(ResolveLinkTest, FiltersSchemesAndLength) {
  EXPECT_EQ(ResolveLink("http://h/", "mailto:a@b"), std::nullopt);
  EXPECT_EQ(ResolveLink("http://h/", "javascript:x()"), std::nullopt);
  EXPECT_EQ(ResolveLink("http://h/", "http://"), std::nullopt);
  std::string path(kMaxUrlLength - std::string("http://h/").size(), 'a');
  EXPECT_TRUE(ResolveLink("http://h/", path).has_value());
  EXPECT_EQ(ResolveLink("http://h/", path + "a"), std::nullopt);
}

TEST(ResolveLinkTest, BaseCacheDoesNotLeakBetweenBases) {
  EXPECT_EQ(ResolveLink("http://a/x/", "y"), "http://a/x/y");
  EXPECT_EQ(ResolveLink("http://b/z/", "y"), "http://b/z/y");
  EXPECT_EQ(ResolveLink("bad base", "y"), std::nullopt);
  EXPECT_EQ(ResolveLink("bad base", "http://c/"), "http://c/");
  EXPECT_EQ(ResolveLink("http://a/x/", "y"), "http://a/x/y");
}

TEST(UrlHostTest, ExtractsHostAndPort) {
  EXPECT_EQ(UrlHostPort("http://User@Example.com:8080/x"), "example.com:8080");
  EXPECT_EQ(UrlHostPort("https://example.com:443/x"), "example.com");
  EXPECT_EQ(UrlHost("http://example.com:8080/x"), "example.com");
  EXPECT_EQ(UrlHost("http://[::1]:1/"), "[::1]");
  EXPECT_EQ(UrlHost("relative/path"), "");
}

// Random inputs from URL-ish bytes: never a crash (run under ASan/UBSan),
// and every successful parse is a fixed point: re-parsing the href gives the
// same href, canonicalising twice changes nothing.
TEST(ParseUrlTest, RandomInputsRoundTrip) {
  static const char kAlphabet[] =
      "ab:/\\?#@%.[]0123456789xX-_~ \t\x01\x7f\xc3\xa9\xe4\xb8\xad" "ABhtps";
  std::mt19937 rng(20240517);
  std::uniform_int_distribution<size_t> pick(0, sizeof(kAlphabet) - 2);
  std::uniform_int_distribution<int> length(0, 40);
  const char* prefixes[] = {"", "http://", "https://", "//", "/", "http:", "?"};
  int parsed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string input = prefixes[i % 7];
    for (int n = length(rng); n > 0; --n) input.push_back(kAlphabet[pick(rng)]);
    UrlParseResult r = ParseUrl(input, "http://base.example/a/b?c#d");
    if (!r.ok) {
      EXPECT_FALSE(r.error.empty()) << input;
      continue;
    }
    ++parsed;
    UrlParseResult again = ParseUrl(r.href);
    ASSERT_TRUE(again.ok) << input << " -> " << r.href;
    EXPECT_EQ(again.href, r.href) << input;
    std::string canonical = CanonicalizeUrl(r.href);
    EXPECT_EQ(CanonicalizeUrl(canonical), canonical) << input;
  }
  EXPECT_GT(parsed, 10000);
}

// IsPlainCanonicalUrl: what sitemaps write is accepted; whatever it
// accepts among 300,000 random strings over an alphabet of the characters
// canonicalisation rewrites (upper case, '%', dots, ports, IDNA and IPv4
// hosts, backslashes, fragments) is its own canonical form.
TEST(PlainCanonicalUrlTest, AcceptsSitemapUrlsAndOnlyCanonicalOnes) {
  for (const char* u : {"http://bench.test/section-1/article-0000001.html",
                        "https://www.example.com/a/b?x=1&y=2", "http://h.test/",
                        "http://a-b.c9.test/~u/(x)*;=:@!$,+/", "https://h.test/a/..b/.c"}) {
    EXPECT_TRUE(IsPlainCanonicalUrl(u)) << u;
    EXPECT_EQ(ResolveLink("", u).value_or("<none>"), u);
  }
  for (const char* u : {"http://h.test", "HTTP://h.test/", "http://H.test/", "http://h.test:80/",
                        "http://h.test/a/../b", "http://h.test/a/./b", "http://h.test/.",
                        "http://h.test/%7e", "http://h.test/a#f", "http://h.test/a?",
                        "http://1.2.3.4/", "http://h.0x1f/", "http://xn--nxasmq6b.test/",
                        "http://h.test./", "http://u@h.test/", "http://h.test/a b",
                        "http://h.test/a\\b", "ftp://h.test/", "http://h..test/"}) {
    EXPECT_FALSE(IsPlainCanonicalUrl(u)) << u;
  }
  std::mt19937 rng(34);
  const std::string alphabet = "abcxnAZ09-._~!$&'()*+,;=:@/?#%\\ 2eE[]";
  const std::vector<std::string> prefixes = {"http://", "https://", "http://h.test/",
                                             "https://xn--", "http://0x", "http://1.2."};
  int accepted = 0;
  for (int n = 0; n < 300000; ++n) {
    std::string u = prefixes[rng() % prefixes.size()];
    const int len = static_cast<int>(rng() % 24);
    for (int k = 0; k < len; ++k) u += alphabet[rng() % alphabet.size()];
    if (!IsPlainCanonicalUrl(u)) continue;
    ++accepted;
    ASSERT_EQ(ResolveLink("", u).value_or("<none>"), u);
  }
  EXPECT_GT(accepted, 1000);
}

}  // namespace
}  // namespace topicrawl
