#include "fetch/http_headers.h"

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

TEST(HttpHeadersTest, ParsesHeaderLine) {
  auto f = ParseHeaderLine("Content-Type:  text/html; charset=utf-8 \r\n");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->name, "content-type");
  EXPECT_EQ(f->value, "text/html; charset=utf-8");
  EXPECT_FALSE(ParseHeaderLine("HTTP/1.1 200 OK\r\n").has_value());
  EXPECT_FALSE(ParseHeaderLine("\r\n").has_value());
  EXPECT_FALSE(ParseHeaderLine("garbage\r\n").has_value());
}

TEST(HttpHeadersTest, ParsesStatusLines) {
  EXPECT_EQ(ParseStatusLine("HTTP/1.1 200 OK\r\n"), 200);
  EXPECT_EQ(ParseStatusLine("HTTP/2 404 \r\n"), 404);
  EXPECT_EQ(ParseStatusLine("HTTP/1.0 301\r\n"), 301);
  EXPECT_EQ(ParseStatusLine("Location: /x\r\n"), 0);
  EXPECT_EQ(ParseStatusLine("HTTP/1.1 2x0 OK\r\n"), 0);
}

// RFC 9110 section 8.3.1: type and subtype are case-insensitive.
TEST(HttpHeadersTest, MediaTypeDropsParametersAndCase) {
  EXPECT_EQ(MediaType("Text/HTML; charset=GBK"), "text/html");
  EXPECT_EQ(MediaType(" application/xhtml+xml "), "application/xhtml+xml");
  EXPECT_EQ(MediaType(""), "");
  EXPECT_TRUE(IsAcceptedMediaType("TEXT/html;q=1", {"text/html"}));
  EXPECT_FALSE(IsAcceptedMediaType("text/plain", {"text/html"}));
}

// RFC 9110 section 10.2.3.
TEST(HttpHeadersTest, RetryAfterSeconds) {
  EXPECT_EQ(ParseRetryAfter("120", 0), 120);
  EXPECT_EQ(ParseRetryAfter(" 0 ", 0), 0);
  EXPECT_FALSE(ParseRetryAfter("", 0).has_value());
  EXPECT_FALSE(ParseRetryAfter("-5", 0).has_value());
  EXPECT_FALSE(ParseRetryAfter("soon", 0).has_value());
}

// RFC 9110 section 5.6.7: IMF-fixdate plus the obsolete RFC 850 and asctime forms.
TEST(HttpHeadersTest, RetryAfterHttpDateForms) {
  const int64_t now_ms = 1445412480000;  // Wed, 21 Oct 2015 07:28:00 GMT
  EXPECT_EQ(ParseRetryAfter("Wed, 21 Oct 2015 07:30:00 GMT", now_ms), 120);
  EXPECT_EQ(ParseRetryAfter("Wednesday, 21-Oct-15 07:30:00 GMT", now_ms), 120);
  EXPECT_EQ(ParseRetryAfter("Wed Oct 21 07:30:00 2015", now_ms), 120);
  EXPECT_EQ(ParseRetryAfter("Wed, 21 Oct 2015 07:00:00 GMT", now_ms), 0);  // past
}

}  // namespace
}  // namespace topicrawl
