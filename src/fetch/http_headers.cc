#include "fetch/http_headers.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace topicrawl {
namespace {

std::string_view Trim(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::optional<HeaderField> ParseHeaderLine(std::string_view line) {
  if (line.substr(0, 5) == "HTTP/") return std::nullopt;
  size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  return HeaderField{Lower(Trim(line.substr(0, colon))),
                     std::string(Trim(line.substr(colon + 1)))};
}

int ParseStatusLine(std::string_view line) {
  if (line.substr(0, 5) != "HTTP/") return 0;
  size_t space = line.find(' ');
  if (space == std::string_view::npos || line.size() < space + 4) return 0;
  int code = 0;
  auto [ptr, ec] = std::from_chars(line.data() + space + 1, line.data() + space + 4, code);
  return ec == std::errc() && ptr == line.data() + space + 4 ? code : 0;
}

std::string MediaType(std::string_view content_type) {
  return Lower(Trim(content_type.substr(0, content_type.find(';'))));
}

bool IsAcceptedMediaType(std::string_view content_type,
                         const std::vector<std::string>& accepted) {
  std::string type = MediaType(content_type);
  return std::find(accepted.begin(), accepted.end(), type) != accepted.end();
}

std::optional<double> ParseRetryAfter(std::string_view value, int64_t now_unix_ms) {
  value = Trim(value);
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    double seconds = 0;
    for (char c : value) seconds = seconds * 10 + (c - '0');
    return seconds;
  }
  // curl_getdate accepts the IMF-fixdate and both obsolete HTTP-date forms
  // (RFC 850, asctime) that RFC 9110 section 5.6.7 requires recipients to read.
  std::string text(value);
  time_t when = curl_getdate(text.c_str(), nullptr);
  if (when == -1) return std::nullopt;
  double delta = static_cast<double>(when) - static_cast<double>(now_unix_ms) / 1000.0;
  return std::max(0.0, delta);
}

}  // namespace topicrawl
