// Small HTTP header helpers used by the fetcher (RFC 9110 field syntax).
#ifndef TOPICRAWL_FETCH_HTTP_HEADERS_H_
#define TOPICRAWL_FETCH_HTTP_HEADERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topicrawl {

// Splits "Name: value\r\n" into a lower-case name and the value with
// surrounding whitespace removed. nullopt for status lines, blank lines and
// lines without a colon.
struct HeaderField {
  std::string name;
  std::string value;
};
std::optional<HeaderField> ParseHeaderLine(std::string_view line);

// Status code of "HTTP/1.1 200 OK" / "HTTP/2 404"; 0 when not a status line.
int ParseStatusLine(std::string_view line);

// The media type of a Content-Type value, lower case, parameters removed:
// "Text/HTML; charset=UTF-8" -> "text/html". Empty for an empty value.
std::string MediaType(std::string_view content_type);

// True when `content_type`'s media type is one of `accepted` (lower case).
bool IsAcceptedMediaType(std::string_view content_type,
                         const std::vector<std::string>& accepted);

// Retry-After (RFC 9110 section 10.2.3): delay-seconds or an HTTP-date.
// Returns seconds from `now_unix_ms` (a past date gives 0); nullopt when the
// value is neither form.
std::optional<double> ParseRetryAfter(std::string_view value, int64_t now_unix_ms);

}  // namespace topicrawl

#endif  // TOPICRAWL_FETCH_HTTP_HEADERS_H_
