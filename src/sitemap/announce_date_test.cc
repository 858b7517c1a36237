#include "sitemap/announce_date.h"

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

// 2005-01-01T00:00:00Z = 12784 days after the epoch (hand-computed:
// 35 years x 365 + 9 leap days 1972..2004).
constexpr int64_t kDay = 86400000;

TEST(W3cDatetimeTest, TheNotesSixFormats) {
  // https://www.w3.org/TR/NOTE-datetime, "Formats" (the examples given there).
  EXPECT_EQ(ParseW3cDatetime("1997"), DaysFromCivil(1997, 1, 1) * kDay);
  EXPECT_EQ(ParseW3cDatetime("1997-07"), DaysFromCivil(1997, 7, 1) * kDay);
  EXPECT_EQ(ParseW3cDatetime("1997-07-16"), DaysFromCivil(1997, 7, 16) * kDay);
  const int64_t day = DaysFromCivil(1997, 7, 16) * kDay;
  // 1997-07-16T19:20+01:00 = 18:20 UTC.
  EXPECT_EQ(ParseW3cDatetime("1997-07-16T19:20+01:00"), day + (18 * 60 + 20) * 60000);
  EXPECT_EQ(ParseW3cDatetime("1997-07-16T19:20:30+01:00"),
            day + ((18 * 60 + 20) * 60 + 30) * 1000);
  EXPECT_EQ(ParseW3cDatetime("1997-07-16T19:20:30.45+01:00"),
            day + ((18 * 60 + 20) * 60 + 30) * 1000);
}

TEST(W3cDatetimeTest, HandComputedEpochDays) {
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(2005, 1, 1), 12784);
  EXPECT_EQ(DaysFromCivil(2000, 3, 1), 11017);  // after a 400-year leap day
}

TEST(W3cDatetimeTest, ToleratedAndRefused) {
  const int64_t day = DaysFromCivil(2004, 12, 23) * kDay;
  EXPECT_EQ(ParseW3cDatetime(" 2004-12-23T18:00:15Z\n"), day + 64815000);
  EXPECT_EQ(ParseW3cDatetime("2004-12-23T18:00:15"), day + 64815000);  // no zone: UTC
  EXPECT_EQ(ParseW3cDatetime("2004-12-23 18:00:15+0000"), day + 64815000);
  EXPECT_FALSE(ParseW3cDatetime(""));
  EXPECT_FALSE(ParseW3cDatetime("yesterday"));
  EXPECT_FALSE(ParseW3cDatetime("2004-13-01"));
  EXPECT_FALSE(ParseW3cDatetime("2003-02-29"));  // not a leap year
  EXPECT_TRUE(ParseW3cDatetime("2004-02-29"));
  EXPECT_FALSE(ParseW3cDatetime("2004-12-23T25:00Z"));
  EXPECT_FALSE(ParseW3cDatetime("2004-12-23T18:00:15+01"));
  EXPECT_FALSE(ParseW3cDatetime("2004-12-23T18:00:15Z trailing"));
}

TEST(Rfc822DateTest, RssSpecExamples) {
  // RSS 2.0 spec, <pubDate>: "Sat, 07 Sep 2002 00:00:01 GMT".
  EXPECT_EQ(ParseRfc822Date("Sat, 07 Sep 2002 00:00:01 GMT"),
            DaysFromCivil(2002, 9, 7) * kDay + 1000);
  // RFC 822 section 5.2 zones: EST = -0500.
  EXPECT_EQ(ParseRfc822Date("Tue, 10 Jun 2003 04:00:00 EST"),
            DaysFromCivil(2003, 6, 10) * kDay + 9 * 3600000);
  EXPECT_EQ(ParseRfc822Date("10 Jun 03 04:00 +0130"),
            DaysFromCivil(2003, 6, 10) * kDay + 150 * 60000);
  EXPECT_EQ(ParseRfc822Date("1 Jan 99 00:00:00 A"), DaysFromCivil(1999, 1, 1) * kDay);
  EXPECT_FALSE(ParseRfc822Date("Tue 10 Jun 2003 04:00:00 GMT"));  // no comma
  EXPECT_FALSE(ParseRfc822Date("10 Foo 2003 04:00:00 GMT"));
  EXPECT_FALSE(ParseRfc822Date("31 Jun 2003 04:00:00 GMT"));
  EXPECT_FALSE(ParseRfc822Date("2003-06-10"));
}

TEST(W3cDatetimeTest, FormatRoundTrips) {
  int64_t ms = DaysFromCivil(2026, 1, 3) * kDay + 3723000;
  EXPECT_EQ(FormatW3cDatetime(ms), "2026-01-03T01:02:03Z");
  EXPECT_EQ(ParseW3cDatetime(FormatW3cDatetime(ms)), ms);
}

}  // namespace
}  // namespace topicrawl
