// Dates that sites announce, as unix milliseconds (UTC).
//
//   ParseW3cDatetime   sitemaps' <lastmod> and news:publication_date
//                      (https://www.w3.org/TR/NOTE-datetime, the format the
//                      sitemaps protocol 0.9 names) and Atom's <updated> /
//                      <published> (RFC 3339, a profile of it).
//   ParseRfc822Date    RSS 2.0's <pubDate> (RFC 822 section 5, with RFC 2822's
//                      four-digit years and numeric zones).
//
// Both return nullopt for text they cannot read; the caller records that as
// data ("bad_date"). Leading and trailing white space is ignored.
#ifndef TOPICRAWL_SITEMAP_ANNOUNCE_DATE_H_
#define TOPICRAWL_SITEMAP_ANNOUNCE_DATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace topicrawl {

// YYYY | YYYY-MM | YYYY-MM-DD | YYYY-MM-DDThh:mm[:ss[.s+]]TZD, TZD = Z |
// +hh:mm | -hh:mm. Tolerated beyond the note, as sites write them: a
// missing TZD after a time (read as UTC), "+hhmm", a space for the T.
std::optional<int64_t> ParseW3cDatetime(std::string_view text);

// [Day ","] DD Mon YY[YY] hh:mm[:ss] zone; zone = UT | GMT | Z | EST | EDT |
// CST | CDT | MST | MDT | PST | PDT | +hhmm | -hhmm (a military letter or
// an unknown zone: read as UTC, as RFC 2822 section 4.3 advises). Two-digit
// years: 50-99 -> 19YY, 00-49 -> 20YY (RFC 2822 section 4.3).
std::optional<int64_t> ParseRfc822Date(std::string_view text);

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
// days_from_civil). Exposed for tests and writers.
int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day);

// "2026-01-03T00:00:00Z" for unix ms (UTC, second precision).
std::string FormatW3cDatetime(int64_t unix_ms);

}  // namespace topicrawl

#endif  // TOPICRAWL_SITEMAP_ANNOUNCE_DATE_H_
