#include "store/page_warc.h"

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

TEST(RewriteResponseHeadTest, DropsEncodingHeadersAndStatesDecodedLength) {
  std::vector<WarcField> dropped;
  std::string head = RewriteResponseHead(
      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\ncontent-encoding: br\r\n"
      "Transfer-Encoding: chunked\r\nContent-Length: 10\r\nETag: \"x\"\r\n\r\n",
      42, &dropped);
  EXPECT_EQ(head,
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nETag: \"x\"\r\n"
            "Content-Length: 42\r\n\r\n");
  ASSERT_EQ(dropped.size(), 3u);
  EXPECT_EQ(dropped[0].name, "original-content-encoding");
  EXPECT_EQ(dropped[0].value, "br");
  EXPECT_EQ(dropped[1].name, "original-transfer-encoding");
  EXPECT_EQ(dropped[1].value, "chunked");
  EXPECT_EQ(dropped[2].name, "original-content-length");
  EXPECT_EQ(dropped[2].value, "10");
}

TEST(RewriteResponseHeadTest, KeepsHeadersThatOnlyStartWithADroppedName) {
  std::string head = RewriteResponseHead(
      "HTTP/1.1 200 OK\nContent-Length-Extra: 1\n\n", 0, nullptr);
  EXPECT_EQ(head,
            "HTTP/1.1 200 OK\r\nContent-Length-Extra: 1\r\nContent-Length: 0\r\n"
            "\r\n");
}

TEST(RewriteResponseHeadTest, KeepsOnlyTheFinalResponseBlock) {
  std::string head = RewriteResponseHead(
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 301 Moved\r\nLocation: /b\r\n\r\n"
      "HTTP/2 200\r\nserver: x\r\n\r\n",
      5, nullptr);
  EXPECT_EQ(head, "HTTP/2 200\r\nserver: x\r\nContent-Length: 5\r\n\r\n");
}

TEST(RewriteResponseHeadTest, EmptyHeadStaysEmpty) {
  EXPECT_EQ(RewriteResponseHead("", 10, nullptr), "");
  EXPECT_EQ(RewriteResponseHead("\r\n\r\n", 10, nullptr), "");
}

TEST(NormalizeHttpHeadTest, UsesCrlfAndEndsWithEmptyLine) {
  EXPECT_EQ(NormalizeHttpHead("GET / HTTP/1.1\nHost: a\n"),
            "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
}

PageRecord OkPage() {
  PageRecord p;
  p.url = "http://a.test/x";
  p.final_url = "http://a.test/y";
  p.status = FetchStatus::kOk;
  p.http_code = 200;
  p.fetched_at = 1'700'000'000'123;
  p.request_head = "GET /y HTTP/1.1\r\nHost: a.test\r\n\r\n";
  p.response_head = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n";
  p.body = "<html>hi</html>";
  p.remote_ip = "127.0.0.1";
  p.relevance = 0.75;
  p.link_score = 0.5;
  p.depth = 2;
  p.parent_id = 7;
  p.charset = "GB18030";
  p.links.resize(3);
  return p;
}

TEST(BuildPageWarcRecordsTest, ResponseRequestMetadataLinkedByConcurrentTo) {
  std::mt19937_64 rng(1);
  PageRecord page = OkPage();
  std::vector<WarcRecord> r = BuildPageWarcRecords(page, 12, rng);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].type, "response");
  EXPECT_EQ(r[0].content_type, "application/http; msgtype=response");
  EXPECT_EQ(r[0].target_uri, "http://a.test/y");  // the final response's URI
  EXPECT_EQ(r[0].block, "HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n");
  EXPECT_EQ(r[0].block_suffix, page.body);
  EXPECT_TRUE(r[0].suffix_is_payload);
  EXPECT_EQ(r[1].type, "request");
  EXPECT_EQ(r[1].content_type, "application/http; msgtype=request");
  EXPECT_EQ(r[2].type, "metadata");
  EXPECT_EQ(r[2].content_type, "application/warc-fields");
  for (int i : {1, 2}) {
    ASSERT_FALSE(r[i].headers.empty());
    EXPECT_EQ(r[i].headers[0].name, "WARC-Concurrent-To");
    EXPECT_EQ(r[i].headers[0].value, r[0].record_id);
  }
  const std::string& m = r[2].block;
  for (const char* field :
       {"topicrawl-page-id: 12\r\n", "via: http://a.test/x\r\n",
        "status: ok\r\n", "relevance: 0.75\r\n", "link-score: 0.5\r\n",
        "depth: 2\r\n", "parent-page-id: 7\r\n", "charset: GB18030\r\n",
        "outlinks: 3\r\n", "original-content-encoding: gzip\r\n"}) {
    EXPECT_NE(m.find(field), std::string::npos) << field << " in\n" << m;
  }
}

// --render: the DOM as a conversion record referring to the response.
TEST(BuildPageWarcRecordsTest, RenderedDomIsAConversionRecord) {
  std::mt19937_64 rng(1);
  PageRecord page = OkPage();
  page.rendered_html = "<html><body><a href=\"/built\">by script</a></body></html>";
  page.render_note = "rendered in 0.20 s: 2 requests";
  std::vector<WarcRecord> r = BuildPageWarcRecords(page, 12, rng);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[3].type, "conversion");
  EXPECT_EQ(r[3].content_type, "text/html; charset=utf-8");
  EXPECT_EQ(r[3].target_uri, "http://a.test/y");
  ASSERT_EQ(r[3].headers.size(), 1u);
  EXPECT_EQ(r[3].headers[0].name, "WARC-Refers-To");
  EXPECT_EQ(r[3].headers[0].value, r[0].record_id);
  EXPECT_EQ(std::string(r[3].block_suffix), page.rendered_html);
  EXPECT_NE(r[2].block.find("render: rendered in 0.20 s: 2 requests\r\n"), std::string::npos);
}

TEST(BuildPageWarcRecordsTest, NoRecordsForFailureWithoutResponse) {
  std::mt19937_64 rng(1);
  PageRecord page;
  page.url = "http://a.test/";
  page.status = FetchStatus::kTimeout;
  EXPECT_TRUE(BuildPageWarcRecords(page, 1, rng).empty());
}

TEST(BuildPageWarcRecordsTest, MarksBodiesCutAtTheSizeLimitTruncated) {
  std::mt19937_64 rng(1);
  PageRecord page = OkPage();
  page.status = FetchStatus::kTooLarge;
  std::vector<WarcRecord> r = BuildPageWarcRecords(page, 1, rng);
  ASSERT_FALSE(r.empty());
  bool truncated = false;
  for (const WarcField& f : r[0].headers) {
    truncated |= f.name == "WARC-Truncated" && f.value == "length";
  }
  EXPECT_TRUE(truncated);  // WARC/1.1 section 5.13
}

}  // namespace
}  // namespace topicrawl
