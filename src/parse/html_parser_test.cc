#include "parse/html_parser.h"

#include <gtest/gtest.h>

#include <time.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fetch/charset.h"

namespace topicrawl {
namespace {

std::string ReadFixture(const std::string& name) {
  std::string path = std::string(TOPICRAWL_SOURCE_DIR) + "/src/parse/testdata/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const Outlink* FindLink(const ParsedPage& page, const std::string& url) {
  for (const Outlink& l : page.links) {
    if (l.url == url) return &l;
  }
  return nullptr;
}

bool HasLinkContaining(const ParsedPage& page, const std::string& part) {
  for (const Outlink& l : page.links) {
    if (l.url.find(part) != std::string::npos) return true;
  }
  return false;
}

// CPU time of this thread: the bounds below must hold on a loaded machine
// (the build hosts run many jobs at once), so wall time would be flaky.
double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// corpus/README.md §6: every LibreOffice help page has <base href="../../../../">
// and a meta refresh to noscript.html inside <noscript>.
TEST(ParseHtmlTest, LibreOfficeBaseHonouredAndNoscriptRefreshIgnored) {
  ParsedPage page = ParseHtml(
      ReadFixture("html/libreoffice_help.html"),
      "http://help.libreoffice.org/7.4/zh-CN/text/shared/guide/digitalsign_send.html");
  EXPECT_EQ(page.base_url, "http://help.libreoffice.org/7.4/");
  EXPECT_EQ(page.title, "对文档进行数字签名");
  EXPECT_FALSE(page.truncated) << page.warning;
  for (const Outlink& l : page.links) {
    EXPECT_NE(l.kind, LinkKind::kMetaRefresh) << l.url;
  }
  EXPECT_FALSE(HasLinkContaining(page, "noscript.html"));
  EXPECT_EQ(page.text.find("JavaScript"), std::string::npos);
  const Outlink* l = FindLink(
      page, "http://help.libreoffice.org/7.4/zh-CN/text/shared/guide/digital_signatures.html");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->anchor, "关于数字签名");
  EXPECT_EQ(l->kind, LinkKind::kAnchor);
  EXPECT_EQ(l->raw_href, "zh-CN/text/shared/guide/digital_signatures.html");
  // Seed 001: the next link ("数字签名", 5 characters later) is inside the
  // 10-word window, the previous one is not.
  EXPECT_EQ(l->context, "数字签名");
  // Seed 004: nearby text nodes, not the link's own anchor text.
  EXPECT_NE(l->dom_context.find("请参阅"), std::string::npos) << l->dom_context;
  EXPECT_NE(l->dom_context.find("对话框的说明"), std::string::npos) << l->dom_context;
  EXPECT_EQ(l->dom_context.find("关于数字签名"), std::string::npos) << l->dom_context;
  EXPECT_NE(FindLink(page, "https://wiki.documentfoundation.org/How_to_use_digital_Signatures"),
            nullptr);
  ASSERT_FALSE(page.headings.empty());
  EXPECT_EQ(page.headings[0], "对文档进行数字签名");
}

TEST(ParseHtmlTest, RustdocRedirectStubYieldsMetaRefreshLink) {
  ParsedPage page = ParseHtml(ReadFixture("html/rustdoc_redirect.html"),
                              "https://doc.rust-lang.org/std/io/net/struct.TcpStream.html");
  EXPECT_EQ(page.title, "Redirection");
  int refresh = 0;
  for (const Outlink& l : page.links) {
    if (l.kind == LinkKind::kMetaRefresh) {
      ++refresh;
      EXPECT_EQ(l.url, "https://doc.rust-lang.org/std/net/struct.TcpStream.html");
      EXPECT_EQ(l.raw_href, "../../../std/net/struct.TcpStream.html");
    }
  }
  EXPECT_EQ(refresh, 1);
  EXPECT_EQ(page.text.find("location.replace"), std::string::npos);
  EXPECT_EQ(page.text,
            "Redirecting to ../../../std/net/struct.TcpStream.html...");
}

TEST(ParseHtmlTest, JunkAndNonHttpHrefsAreDropped) {
  ParseStats stats;
  ParsedPage page = ParseHtml(ReadFixture("html/junk_hrefs.html"),
                              "https://docs.djangoproject.com/en/3.2/releases/", {}, &stats);
  EXPECT_EQ(stats.links_unresolved, 4u);  // template junk, javascript:, mailto:, file:
  EXPECT_FALSE(HasLinkContaining(page, "base"));
  const Outlink* rel = FindLink(page, "https://docs.djangoproject.com/en/3.2/releases/3.2.1/");
  ASSERT_NE(rel, nullptr);
  EXPECT_EQ(rel->anchor, "Django 3.2.1 release notes");
  EXPECT_FALSE(rel->nofollow);
  const Outlink* pg = FindLink(page, "https://www.postgresql.org/docs/current/index.html");
  ASSERT_NE(pg, nullptr);
  EXPECT_TRUE(pg->nofollow);  // rel="external NoFollow"
  EXPECT_EQ(page.canonical, "https://docs.djangoproject.com/en/3.2/releases/");
  EXPECT_EQ(page.description, "Release notes for Django 3.2");
  EXPECT_EQ(page.keywords, "django, releases");
  // #top, 3.2.1/, postgresql, canonical.
  EXPECT_EQ(page.links.size(), 4u);
  EXPECT_NE(page.text.find("placeholder without href"), std::string::npos);
}

TEST(ParseHtmlTest, MarkupInsideTitleTextareaScriptTemplateIsNotALink) {
  ParsedPage page = ParseHtml(ReadFixture("html/fake_links.html"), "http://example.com/");
  ASSERT_EQ(page.links.size(), 1u);
  EXPECT_EQ(page.links[0].url, "http://example.com/real-link");
  EXPECT_EQ(page.title, "Tags like <a href=\"/title-link\">this</a> are text");
  EXPECT_EQ(page.text.find("inert"), std::string::npos);
  EXPECT_EQ(page.text.find("commented"), std::string::npos);
  EXPECT_EQ(page.text.find("svg"), std::string::npos);
}

TEST(ParseHtmlTest, Seed001ContextUsesNeighbourAnchorsOrNearbyWords) {
  ParsedPage page = ParseHtml(ReadFixture("html/context.html"), "https://docs.python.org/3/library/");
  EXPECT_TRUE(page.noindex);
  EXPECT_FALSE(page.nofollow);
  const Outlink* socket = FindLink(page, "https://docs.python.org/3/library/socket.html");
  const Outlink* ssl = FindLink(page, "https://docs.python.org/3/library/ssl.html");
  const Outlink* howto = FindLink(page, "https://docs.python.org/3/library/howto/sockets.html");
  const Outlink* zh = FindLink(page, "https://docs.python.org/zh/baoyu.html");
  ASSERT_TRUE(socket && ssl && howto && zh);
  EXPECT_EQ(socket->context, "ssl — TLS/SSL wrapper for socket objects");
  EXPECT_EQ(ssl->context,
            "socket — Low-level networking interface select — Waiting for I/O completion");
  EXPECT_EQ(howto->context,
            "Unix systems, Windows, MacOS, and probably additional platforms. See the "
            "for a tutorial introduction covering blocking and non-blocking sockets in");
  // CJK: one character is one word.
  EXPECT_EQ(zh->context, "雨预警信号请注意防范 引发的山洪和城市内涝");
  EXPECT_EQ(zh->anchor, "暴雨");
  EXPECT_NE(zh->dom_context.find("气象部门发布暴雨预警信号请注意防范"), std::string::npos);
}

// Seed 004: an element's text is its text content, so the neighbours in a
// Sphinx-style <li><a><code><span> list are context although their text
// nodes are deeper than delta.
TEST(ParseHtmlTest, Seed004ContextTakesTextContentOfNearbyElements) {
  ParsedPage page = ParseHtml(
      "<body><div><p>far away paragraph</p><ul>"
      "<li><a href=a><code><span>AF_UNIX</span></code></a></li>"
      "<li><a href=b><code><span>AF_LINK</span></code></a></li>"
      "<li><a href=c><code><span>HAS_IPV6</span></code></a></li></ul></div></body>",
      "http://example.com/");
  ASSERT_EQ(page.links.size(), 3u);
  EXPECT_EQ(page.links[1].dom_context, "far away paragraph AF_UNIX HAS_IPV6");
  ParseOptions near;
  near.dom_delta = 2;  // a -> li -> ul: only the sibling items
  ParsedPage page2 = ParseHtml(
      "<body><div><p>far away paragraph</p><ul>"
      "<li><a href=a><code><span>AF_UNIX</span></code></a></li>"
      "<li><a href=b><code><span>AF_LINK</span></code></a></li>"
      "<li><a href=c><code><span>HAS_IPV6</span></code></a></li></ul></div></body>",
      "http://example.com/", near);
  EXPECT_EQ(page2.links[1].dom_context, "AF_UNIX HAS_IPV6");
}

// The crawler switches off the contexts nobody reads; the rest is unchanged.
TEST(ParseHtmlTest, ContextsSwitchedOffAreEmptyAndTheRestIsUnchanged) {
  const char* html =
      "<body><div><p>far away paragraph</p><ul>"
      "<li><a href=a>AF_UNIX</a></li><li><a href=b>AF_LINK</a></li>"
      "<li><a href=c>HAS_IPV6</a></li></ul></div></body>";
  ParsedPage full = ParseHtml(html, "http://example.com/");
  ParseOptions off;
  off.dom_delta = 0;
  off.context_window_words = 0;
  off.keep_raw_href = false;
  ParsedPage bare = ParseHtml(html, "http://example.com/", off);
  ASSERT_EQ(full.links.size(), 3u);
  ASSERT_EQ(bare.links.size(), 3u);
  EXPECT_EQ(full.links[1].dom_context, "far away paragraph AF_UNIX HAS_IPV6");
  EXPECT_EQ(full.links[1].context, "AF_UNIX HAS_IPV6");
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(bare.links[i].url, full.links[i].url);
    EXPECT_EQ(bare.links[i].anchor, full.links[i].anchor);
    EXPECT_EQ(bare.links[i].context, "");
    EXPECT_EQ(bare.links[i].dom_context, "");
    EXPECT_EQ(bare.links[i].raw_href, "");
    EXPECT_EQ(full.links[i].raw_href, std::string(1, static_cast<char>('a' + i)));
  }
  EXPECT_EQ(bare.text, full.text);
  EXPECT_EQ(bare.text_blocks, full.text_blocks);
}

TEST(ParseHtmlTest, ImageAltAreaAndFrameLinks) {
  ParsedPage page = ParseHtml(ReadFixture("html/context.html"), "https://docs.python.org/3/library/");
  const Outlink* map = FindLink(page, "https://docs.python.org/3/library/map.html");
  ASSERT_NE(map, nullptr);
  EXPECT_EQ(map->anchor, "Site map overview");
  const Outlink* area = FindLink(page, "https://docs.python.org/3/library/area.html");
  ASSERT_NE(area, nullptr);
  EXPECT_EQ(area->kind, LinkKind::kArea);
  EXPECT_EQ(area->anchor, "Area link");
  const Outlink* frame = FindLink(page, "https://docs.python.org/3/library/frame.html");
  ASSERT_NE(frame, nullptr);
  EXPECT_EQ(frame->kind, LinkKind::kFrame);
  ASSERT_EQ(page.headings.size(), 1u);
  EXPECT_EQ(page.headings[0], "Related topics");
}

TEST(ParseHtmlTest, TextBlocksFollowBlockElements) {
  ParsedPage page = ParseHtml(
      "<html><head><title>t</title></head><body><div>one <b>two</b>\n three</div>"
      "<p>four<br>five</p>six<script>var x = 1;</script><style>p{}</style></body></html>",
      "http://example.com/");
  std::vector<std::string> want = {"one two three", "four", "five", "six"};
  EXPECT_EQ(page.text_blocks, want);
  EXPECT_EQ(page.text, "one two three\nfour\nfive\nsix");
}

TEST(ParseHtmlTest, MetaRobotsNofollowMarksEveryLink) {
  ParsedPage page = ParseHtml(
      "<meta name=ROBOTS content='noindex, NOFOLLOW'><a href=a>a</a><a href=b>b</a>",
      "http://example.com/x/");
  EXPECT_TRUE(page.noindex);
  EXPECT_TRUE(page.nofollow);
  ASSERT_EQ(page.links.size(), 2u);
  for (const Outlink& l : page.links) EXPECT_TRUE(l.nofollow);
}

TEST(ParseHtmlTest, FirstBaseWithHrefWins) {  // HTML §4.2.3
  ParsedPage page = ParseHtml(
      "<base target=_top><base href='/docs/v2/'><base href='http://other.org/'>"
      "<a href='intro.html'>x</a>",
      "http://example.com/a/b.html");
  EXPECT_EQ(page.base_url, "http://example.com/docs/v2/");
  ASSERT_EQ(page.links.size(), 1u);
  EXPECT_EQ(page.links[0].url, "http://example.com/docs/v2/intro.html");
}

TEST(ParseHtmlTest, MetaRefreshOutsideNoscriptIsFollowedInsideIsNot) {
  ParsedPage page = ParseHtml(
      "<head><noscript><meta http-equiv=refresh content='0; url=/nojs'></noscript>"
      "<meta http-equiv=Refresh content=\"5; URL='/later'\"></head>",
      "http://example.com/");
  ASSERT_EQ(page.links.size(), 1u);
  EXPECT_EQ(page.links[0].url, "http://example.com/later");
  EXPECT_EQ(page.links[0].kind, LinkKind::kMetaRefresh);
}

TEST(ParseHtmlTest, DecodedGbkPageParses) {
  DecodedText d = DecodeToUtf8(ReadFixture("charset/zh_gbk_meta.html"), "text/html");
  ParsedPage page = ParseHtml(d.utf8, "http://www.example.cn/");
  EXPECT_EQ(page.title, "暴雨预警信号及防御指南");
  ASSERT_EQ(page.headings.size(), 1u);
  EXPECT_EQ(page.headings[0], "暴雨预警");
  EXPECT_NE(page.text.find("中央气象台今天早晨发布暴雨蓝色预警"), std::string::npos);
}

// CPU bounds below guard against stalls (an unbounded parse of these inputs
// takes seconds); sanitizer builds run several times slower, so the bounds
// scale with them. Speed itself is measured by bench/parse_bench.cc.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr double kSlowdown = 10;
#else
constexpr double kSlowdown = 1;
#endif

// corpus/README.md / DEPS.md: 40k nested <div> take myhtml 1.6 s unbounded.
TEST(ParseHtmlTest, FortyThousandNestedDivsAreFlattenedQuickly) {
  std::string html = "<html><body>";
  for (int i = 0; i < 40000; ++i) html += "<div>";
  html += "deep text <a href='/deep'>deep link</a>";
  for (int i = 0; i < 40000; ++i) html += "</div>";
  html += "<p>after</p></body></html>";
  ParseOptions opt;
  opt.time_budget_s = 60;
  double t0 = ThreadCpuSeconds();
  ParseStats stats;
  ParsedPage page = ParseHtml(html, "http://example.com/", opt, &stats);
  EXPECT_LT(ThreadCpuSeconds() - t0, 0.5 * kSlowdown);
  EXPECT_TRUE(page.truncated);
  EXPECT_NE(page.warning.find("nesting"), std::string::npos);
  EXPECT_GT(stats.depth_tags_dropped, 70000u);
  EXPECT_NE(page.text.find("deep text deep link"), std::string::npos);
  EXPECT_NE(page.text.find("after"), std::string::npos);
  ASSERT_EQ(page.links.size(), 1u);
  EXPECT_EQ(page.links[0].url, "http://example.com/deep");
}

TEST(ParseHtmlTest, TwoHundredThousandUnclosedAnchors) {
  std::string html = "<html><body><p>";
  for (int i = 0; i < 200000; ++i) html += "<a href=/p" + std::to_string(i) + ">w ";
  ParseOptions opt;
  opt.time_budget_s = 60;  // this test is about the link cap, not the clock
  double t0 = ThreadCpuSeconds();
  ParsedPage page = ParseHtml(html, "http://example.com/", opt);
  EXPECT_LT(ThreadCpuSeconds() - t0, 3.0 * kSlowdown);
  EXPECT_EQ(page.links.size(), ParseOptions().max_links);
  EXPECT_TRUE(page.truncated);
  EXPECT_NE(page.warning.find("link cap"), std::string::npos);
  EXPECT_EQ(page.links[0].url, "http://example.com/p0");
  EXPECT_EQ(page.links[0].anchor, "w");
}

TEST(ParseHtmlTest, NulBytesDoNotStopParsing) {
  const char kHtml[] = "<title>a\0b</title><p>be\0fore</p><a href='/x'>li\0nk</a><p>after</p>";
  std::string html(kHtml, sizeof(kHtml) - 1);
  ParsedPage page = ParseHtml(html, "http://example.com/");
  ASSERT_EQ(page.links.size(), 1u);
  EXPECT_EQ(page.links[0].url, "http://example.com/x");
  EXPECT_NE(page.text.find("after"), std::string::npos);
  EXPECT_EQ(page.text.find('\0'), std::string::npos);
}

TEST(ParseHtmlTest, SizeCapTruncates) {
  ParseOptions opt;
  opt.max_bytes = 40;
  ParsedPage page = ParseHtml("<p>0123456789</p><p>0123456789</p><p>tail-text</p>",
                              "http://example.com/", opt);
  EXPECT_TRUE(page.truncated);
  EXPECT_NE(page.warning.find("input cut"), std::string::npos);
  EXPECT_EQ(page.text.find("tail-text"), std::string::npos);
}

TEST(ParseHtmlTest, TimeBudgetStopsTheWalk) {
  std::string html;
  for (int i = 0; i < 5000; ++i) html += "<p>para <a href=/l" + std::to_string(i) + ">x</a></p>";
  ParseOptions opt;
  opt.time_budget_s = 0;
  ParsedPage page = ParseHtml(html, "http://example.com/", opt);
  EXPECT_TRUE(page.truncated);
  EXPECT_NE(page.warning.find("time budget"), std::string::npos);
  EXPECT_LT(page.links.size(), 5000u);
}

TEST(ParseHtmlTest, EmptyAndGarbageInput) {
  ParsedPage empty = ParseHtml("", "http://example.com/");
  EXPECT_TRUE(empty.links.empty());
  EXPECT_EQ(empty.text, "");
  ParsedPage garbage = ParseHtml("<<<>>></a></div><a href=\"\">x", "http://example.com/p");
  ASSERT_EQ(garbage.links.size(), 1u);  // href="" is the page itself
  EXPECT_EQ(garbage.links[0].url, "http://example.com/p");
}

TEST(ParseHtmlTest, ConcurrentCallsFromFourThreadsAgree) {
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {ReadFixture("html/libreoffice_help.html"),
       "http://help.libreoffice.org/7.4/zh-CN/text/shared/guide/digitalsign_send.html"},
      {ReadFixture("html/context.html"), "https://docs.python.org/3/library/"},
      {ReadFixture("html/junk_hrefs.html"), "https://docs.djangoproject.com/en/3.2/releases/"},
      {ReadFixture("html/rustdoc_redirect.html"), "https://doc.rust-lang.org/a/b/c.html"},
  };
  auto digest = [](const ParsedPage& p) {
    std::string d = p.title + "|" + p.text + "|";
    for (const Outlink& l : p.links) d += l.url + "," + l.anchor + "," + l.context + "," + l.dom_context + ";";
    return d;
  };
  std::vector<std::string> expected;
  for (const auto& [html, url] : inputs) expected.push_back(digest(ParseHtml(html, url)));
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        size_t k = static_cast<size_t>(i + t) % inputs.size();
        if (digest(ParseHtml(inputs[k].first, inputs[k].second)) != expected[k]) {
          ++mismatches[t];
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

}  // namespace
}  // namespace topicrawl

namespace topicrawl {
namespace {

// Outlink::block: the innermost landmark and the nearest classed or id'd
// container, only when asked for.
TEST(ParseHtmlTest, LinkBlocksNameLandmarkAndContainer) {
  const std::string html =
      "<html><body class=page>"
      "<nav><ul class='toctree l1'><li><a href=/a>A</a></li></ul></nav>"
      "<div id=Content><main><p><a href=/b>B</a></p></main></div>"
      "<div role=contentinfo><span><a href=/c>C</a></span></div>"
      "<div role='Navigation extra'><a href=/d>D</a></div>"
      "<p><a href=/e>E</a></p>"
      "<a href=/f>F</a>"
      "<div class=x><div><div><div><div><div><div><a href=/g>G</a></div></div></div></div>"
      "</div></div></div>"
      "</body></html>";
  ParseOptions options;
  options.link_blocks = true;
  ParsedPage page = ParseHtml(html, "http://h.test/", options);
  ASSERT_EQ(page.links.size(), 7u);
  EXPECT_EQ(page.links[0].block, "nav|ul.toctree");
  EXPECT_EQ(page.links[1].block, "main|p");  // the id'd div lies outside <main>
  EXPECT_EQ(page.links[2].block, "footer|span");
  EXPECT_EQ(page.links[3].block, "nav|div");
  EXPECT_EQ(page.links[4].block, "body|p");
  EXPECT_EQ(page.links[5].block, "body|body");
  EXPECT_EQ(page.links[6].block, "body|div");  // div.x is 7 levels up: beyond the 6 looked at

  ParsedPage plain = ParseHtml(html, "http://h.test/", ParseOptions());
  ASSERT_EQ(plain.links.size(), 7u);
  for (const Outlink& link : plain.links) EXPECT_TRUE(link.block.empty()) << link.url;
}

TEST(ParseHtmlTest, LinkBlockContainerIsCutAndLowerCased) {
  const std::string html = "<div><section id='" + std::string(60, 'Q') +
                           "'><a href=/a>A</a></section></div><div><aside>"
                           "<div class='Side-Links'><a href=/b>B</a></div></aside></div>";
  ParseOptions options;
  options.link_blocks = true;
  ParsedPage page = ParseHtml(html, "http://h.test/", options);
  ASSERT_EQ(page.links.size(), 2u);
  EXPECT_EQ(page.links[0].block, "body|section#" + std::string(32, 'q'));
  EXPECT_EQ(page.links[1].block, "aside|div.side-links");
}

}  // namespace
}  // namespace topicrawl
