#include "web/synthetic_web.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace topicrawl::web {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

SyntheticWebOptions Small() {
  SyntheticWebOptions o;
  o.hosts = 6;
  o.pages = 1500;
  o.topics = 5;
  o.cluster_size = 20;
  o.tunnel_prob = 0.5;
  o.calendar_host_fraction = 0.5;
  o.session_host_fraction = 0.3;
  o.zh_host_fraction = 0.4;
  return o;
}

// "http://host/path" -> {host, path}.
std::pair<std::string, std::string> Split(const std::string& url) {
  std::string rest = url.substr(7);
  size_t slash = rest.find('/');
  return {rest.substr(0, slash), rest.substr(slash)};
}

std::string Canonical(const std::string& host, std::string path) {
  path = path.substr(0, path.find('?'));
  if (path == "/") path = "/index.html";
  return "http://" + host + path;
}

std::vector<std::string> Hrefs(const std::string& body) {
  std::vector<std::string> out;
  for (size_t pos = body.find("href=\""); pos != std::string::npos; pos = body.find("href=\"", pos)) {
    pos += 6;
    size_t end = body.find('"', pos);
    out.push_back(body.substr(pos, end - pos));
  }
  return out;
}

// Crawls the whole web breadth-first from every home, following canonical
// (query-less) page URLs only; records every edge between canonical pages.
struct Crawl {
  std::set<std::string> reached;
  std::map<std::string, std::set<std::string>> in_links;  // target -> sources
};

Crawl CrawlAll(const SyntheticWeb& web) {
  Crawl crawl;
  std::deque<std::string> queue;
  for (uint32_t h = 0; h < web.options().hosts; ++h) {
    queue.push_back(web.PageUrl(h, 0));
    crawl.reached.insert(queue.back());
  }
  while (!queue.empty()) {
    std::string url = queue.front();
    queue.pop_front();
    auto [host, path] = Split(url);
    SyntheticResponse r = web.Respond(host, path);
    EXPECT_EQ(r.status, 200) << url;
    for (const std::string& href : Hrefs(r.body)) {
      if (href.rfind("/cal/", 0) == 0) continue;
      std::string target = href.rfind("http://", 0) == 0 ? Canonical(Split(href).first, Split(href).second)
                                                         : Canonical(host, href);
      crawl.in_links[target].insert(url);
      if (web.Respond(Split(target).first, Split(target).second).status != 200) continue;
      if (crawl.reached.insert(target).second) queue.push_back(target);
    }
  }
  return crawl;
}

TEST(SyntheticWebOptionsTest, ValidateNamesTheBadKnob) {
  SyntheticWebOptions o;
  EXPECT_TRUE(o.Validate().ok());
  o.topics = 99;
  EXPECT_THAT(o.Validate().message(), HasSubstr("topics"));
  o = SyntheticWebOptions();
  o.pages = 20'000'000;
  EXPECT_THAT(o.Validate().message(), HasSubstr("pages"));
  o = SyntheticWebOptions();
  o.out_degree_alpha = 1.0;
  EXPECT_THAT(o.Validate().message(), HasSubstr("out_degree_alpha"));
  o = SyntheticWebOptions();
  o.hosts = 10;
  o.pages = 5;
  EXPECT_THAT(o.Validate().message(), HasSubstr("pages must be >= hosts"));
}

TEST(SyntheticWebTest, SameKnobsGiveIdenticalPagesAndSeedChangesThem) {
  SyntheticWeb a(Small()), b(Small());
  SyntheticWebOptions other = Small();
  other.seed = 2;
  SyntheticWeb c(other);
  for (uint64_t p : {0, 1, 57, 1499 / 6}) {
    std::string url = a.PageUrl(1, p);
    auto [host, path] = Split(url);
    SyntheticResponse ra = a.Respond(host, path), rb = b.Respond(host, path);
    ASSERT_EQ(ra.status, 200) << url;
    EXPECT_EQ(ra.body, rb.body);
  }
  EXPECT_NE(a.Respond(a.HostName(0), "/").body, c.Respond(c.HostName(0), "/").body);
}

TEST(SyntheticWebTest, EveryCanonicalPageIsReachableFromTheHomes) {
  SyntheticWeb web(Small());
  Crawl crawl = CrawlAll(web);
  EXPECT_EQ(crawl.reached.size(), web.options().pages);
}

TEST(SyntheticWebTest, TunnelledClustersAreEnteredOnlyThroughOffTopicPages) {
  SyntheticWeb web(Small());
  Crawl crawl = CrawlAll(web);
  size_t tunnelled_pages = 0;
  for (uint32_t h = 0; h < web.options().hosts; ++h) {
    const uint64_t size = web.options().cluster_size;
    for (uint64_t p = 0; p < web.PagesOnHost(h); ++p) {
      if (!web.PageTunnelled(h, p)) continue;
      ++tunnelled_pages;
      const uint32_t topic = web.PageTopic(h, p);
      for (const std::string& from : crawl.in_links[web.PageUrl(h, p)]) {
        auto [host, path] = Split(from);
        uint64_t q = 0;
        if (path != "/index.html") q = std::stoull(path.substr(path.rfind("/p") + 2));
        const bool same_cluster = host == web.HostName(h) && q / size == p / size;
        if (!same_cluster) {
          EXPECT_EQ(host, web.HostName(h)) << from << " -> " << web.PageUrl(h, p);
          EXPECT_NE(web.PageTopic(h, q), topic) << from << " -> " << web.PageUrl(h, p);
        }
      }
    }
  }
  EXPECT_GT(tunnelled_pages, 0u);
}

TEST(SyntheticWebTest, LabelsListEveryPageOnceSortedAndAgreeWithPageTopics) {
  SyntheticWeb web(Small());
  std::ostringstream out;
  const uint64_t relevant = web.WriteLabels(1, out);
  std::istringstream in(out.str());
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "url\trelevant\treason");
  std::vector<std::string> urls;
  uint64_t ones = 0, tunnelled = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string x; std::getline(fields, x, '\t');) f.push_back(x);
    if (line.back() == '\t') f.push_back("");
    ASSERT_EQ(f.size(), 3u) << line;
    urls.push_back(f[0]);
    auto [host, path] = Split(f[0]);
    ASSERT_EQ(web.Respond(host, path).status, 200) << f[0];
    if (f[1] == "1") {
      ++ones;
      EXPECT_THAT(f[2], StartsWith("topic=security"));
      tunnelled += f[2].find(";tunnelled") != std::string::npos;
    } else {
      EXPECT_EQ(f[1], "0");
      EXPECT_EQ(f[2], "");
    }
  }
  EXPECT_EQ(urls.size(), web.options().pages);
  EXPECT_TRUE(std::is_sorted(urls.begin(), urls.end()));
  EXPECT_EQ(std::set<std::string>(urls.begin(), urls.end()).size(), urls.size());
  EXPECT_EQ(ones, relevant);
  uint64_t expected = 0;
  for (uint32_t h = 0; h < web.options().hosts; ++h) {
    for (uint64_t p = 0; p < web.PagesOnHost(h); ++p) expected += web.PageTopic(h, p) == 1;
  }
  EXPECT_EQ(relevant, expected);
  EXPECT_GT(relevant, 0u);
}

TEST(SyntheticWebTest, CalendarTrapGoesOnForeverAndSessionIdsMintNewUrls) {
  SyntheticWebOptions o = Small();
  o.calendar_host_fraction = 1;
  o.session_host_fraction = 1;
  o.robots_calendar_disallow = 1;
  SyntheticWeb web(o);
  const std::string host = web.HostName(0);
  std::string home = web.Respond(host, "/").body;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(home, m, std::regex("href=\"(/cal/[0-9]+/[0-9]+)\"")));
  std::string cal = m[1];
  for (int i = 0; i < 50; ++i) {
    SyntheticResponse r = web.Respond(host, cal);
    ASSERT_EQ(r.status, 200) << cal;
    ASSERT_TRUE(std::regex_search(r.body, m, std::regex("href=\"(/cal/[0-9]+/[0-9]+)\">next month")));
    cal = m[1];
  }
  EXPECT_THAT(web.Respond(host, "/robots.txt").body, HasSubstr("Disallow: /cal/"));
  // The same page under two session ids links to disjoint sets of sid URLs.
  std::string page = Split(web.PageUrl(0, 1)).second;
  std::vector<std::string> a = Hrefs(web.Respond(host, page + "?sid=aaaa").body);
  std::vector<std::string> b = Hrefs(web.Respond(host, page + "?sid=bbbb").body);
  ASSERT_FALSE(a.empty());
  EXPECT_THAT(a[0], HasSubstr("?sid="));
  EXPECT_NE(a[0], b[0]);
  EXPECT_EQ(a[0].substr(0, a[0].find('?')), b[0].substr(0, b[0].find('?')));
}

TEST(SyntheticWebTest, UnknownHostsAndMalformedPathsAre404) {
  SyntheticWeb web(Small());
  std::string page = Split(web.PageUrl(2, 45)).second;
  const std::string host = web.HostName(2);
  EXPECT_EQ(web.Respond(host, page).status, 200);
  EXPECT_EQ(web.Respond(host + ":8080", page).status, 200);  // port ignored
  EXPECT_EQ(web.Respond("SITE2.TEST", "/").status, web.HostName(2) == "site2.test" ? 200 : 404);
  EXPECT_EQ(web.Respond("site99.test", "/").status, 404);
  EXPECT_EQ(web.Respond("example.org", "/").status, 404);
  EXPECT_EQ(web.Respond(host, "/x/c2/p45.html").status, 404);     // wrong slug
  EXPECT_EQ(web.Respond(host, "/docs/c1/p45.html").status, 404);  // wrong cluster
  EXPECT_EQ(web.Respond(host, "/docs/c0/p0.html").status, 404);
  EXPECT_EQ(web.Respond(host, "/a/c9999/p999999.html").status, 404);
  EXPECT_EQ(web.Respond(host, "/cal/2024/13").status, 404);
}

TEST(SyntheticWebTest, ChineseHostsServeChineseText) {
  SyntheticWebOptions o = Small();
  o.zh_host_fraction = 1;
  SyntheticWeb web(o);
  EXPECT_THAT(web.HostName(0), StartsWith("zhan0."));
  std::string body = web.Respond(web.HostName(0), "/").body;
  EXPECT_THAT(body, HasSubstr("lang=\"zh-CN\""));
  EXPECT_THAT(body, HasSubstr("的"));
}

TEST(TopicIndexTest, AcceptsNamesAndIndices) {
  EXPECT_EQ(TopicIndex("networking", 12), 0);
  EXPECT_EQ(TopicIndex("security", 12), 1);
  EXPECT_EQ(TopicIndex("3", 12), 3);
  EXPECT_EQ(TopicIndex("agriculture", 12), -1);  // topic 15 is not in a 12-topic web
  EXPECT_EQ(TopicIndex("nope", 12), -1);
}

}  // namespace
}  // namespace topicrawl::web

namespace topicrawl::web {
namespace {

// Script-built hosts (synthetic_js.h): the shell carries none of the static
// page's links; the API answers with exactly the static body.
TEST(SyntheticJsTest, ShellsHideTheLinksAndTheApiServesTheStaticBody) {
  SyntheticWebOptions o = Small();
  o.cross_site_prob = 0;  // cross-site links are the one difference (next test)
  SyntheticWeb plain(o);
  o.js_host_fraction = 1;
  SyntheticWeb js(o);
  std::set<JsStyle> styles;
  for (uint32_t h = 0; h < o.hosts; ++h) {
    const JsStyle style = js.HostJsStyle(h);
    ASSERT_NE(style, JsStyle::kStatic);
    EXPECT_EQ(plain.HostJsStyle(h), JsStyle::kStatic);
    styles.insert(style);
    const std::string host = js.HostName(h);
    const std::string page = plain.Respond(host, "/").body;
    const std::string shell = js.Respond(host, "/").body;
    EXPECT_EQ(shell.find("<a href"), std::string::npos) << JsStyleName(style);
    EXPECT_NE(shell.find("<script src=\"/app.js\">"), std::string::npos);
    const SyntheticResponse app = js.Respond(host, "/app.js");
    EXPECT_EQ(app.content_type, "application/javascript; charset=utf-8");
    EXPECT_EQ(app.body, JsApp(style));
    SyntheticResponse api = js.Respond(host, "/api/page.json?u=%2F");
    EXPECT_EQ(api.status, 200);
    EXPECT_EQ(api.body, JsPageJson(page));
    EXPECT_EQ(js.Respond(host, "/api/page.json?u=%2Fnope").status, 404);
  }
  EXPECT_GE(styles.size(), 3u);
}

// Other hosts link a script-built host only at its home page, so its other
// pages are found only through the navigation its scripts build; a static
// host keeps its deep cross-site in-links.
TEST(SyntheticJsTest, CrossSiteLinksReachAScriptBuiltHostAtItsHome) {
  SyntheticWebOptions o = Small();
  o.cross_site_prob = 0.3;
  o.js_host_fraction = 0.5;
  SyntheticWeb web(o);
  std::map<std::string, bool> js_host;
  for (uint32_t h = 0; h < o.hosts; ++h) {
    js_host[web.HostName(h)] = web.HostJsStyle(h) != JsStyle::kStatic;
  }
  ASSERT_GT(std::count_if(js_host.begin(), js_host.end(), [](auto& e) { return e.second; }), 0);
  const std::regex href("href=\"http://([^/\"]+)(/[^\"]*)\"");
  int to_js = 0, deep_to_static = 0;
  for (uint32_t h = 0; h < o.hosts; ++h) {
    if (js_host[web.HostName(h)]) continue;  // a shell's body has no links to read
    for (uint64_t p = 0; p < 60; ++p) {
      const std::string body = web.Respond(web.HostName(h), web.PageUrl(h, p).substr(
          7 + web.HostName(h).size())).body;
      for (std::sregex_iterator it(body.begin(), body.end(), href), end; it != end; ++it) {
        const std::string target = (*it)[1], path = (*it)[2];
        if (js_host[target]) {
          ++to_js;
          EXPECT_TRUE(path == "/" || path == "/index.html") << target << path;
        } else if (path != "/" && path != "/index.html") {
          ++deep_to_static;
        }
      }
    }
  }
  EXPECT_GT(to_js, 0);
  EXPECT_GT(deep_to_static, 0);
}

TEST(SyntheticJsTest, JsonStringEscapesForScriptElements) {
  EXPECT_EQ(JsonString("a\"b\\c\n</script>"), "\"a\\\"b\\\\c\\n\\u003c/script>\"");
  EXPECT_EQ(BodyOf("<html><body>x<a>y</a></body></html>"), "x<a>y</a>");
  EXPECT_EQ(JsPageJson("<body><p>hi</p></body>"), "{\"html\":\"\\u003cp>hi\\u003c/p>\"}");
}

}  // namespace
}  // namespace topicrawl::web
