// Date parsing for sitemaps and feeds. Written out by hand: the formats are
// small, std::get_time depends on the locale, and strptime has no zones.
#include "sitemap/announce_date.h"

#include <cctype>
#include <cstdio>
#include <ctime>

namespace topicrawl {
namespace {

// A cursor over the text with the small readers both formats need.
struct Cursor {
  std::string_view s;
  size_t i = 0;
  bool done() const { return i >= s.size(); }
  char peek() const { return done() ? '\0' : s[i]; }
  bool Eat(char c) {
    if (peek() != c) return false;
    ++i;
    return true;
  }
  // Exactly `n` digits (n <= 9).
  bool Digits(int n, int* out) {
    int v = 0;
    for (int k = 0; k < n; ++k) {
      if (i + k >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i + k]))) return false;
      v = v * 10 + (s[i + k] - '0');
    }
    i += static_cast<size_t>(n);
    *out = v;
    return true;
  }
  void SkipSpace() {
    while (!done() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
  }
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool ValidDate(int y, int m, int d) {
  static const int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > kDays[m - 1]) return false;
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return !(m == 2 && d == 29 && !leap);
}

bool ValidTime(int h, int mi, int s) { return h <= 23 && mi <= 59 && s <= 60; }

int64_t ToMillis(int y, int mo, int d, int h, int mi, int s, int offset_minutes) {
  int64_t days = DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  int64_t secs = days * 86400 + h * 3600 + mi * 60 + s - int64_t{offset_minutes} * 60;
  return secs * 1000;
}

// "+hh:mm", "-hh:mm", "+hhmm", "Z"; nullopt on anything else.
std::optional<int> NumericZone(Cursor* c, bool colon_optional) {
  if (c->Eat('Z') || c->Eat('z')) return 0;
  char sign = c->peek();
  if (sign != '+' && sign != '-') return std::nullopt;
  ++c->i;
  int hh = 0, mm = 0;
  if (!c->Digits(2, &hh)) return std::nullopt;
  bool colon = c->Eat(':');
  if (!colon && !colon_optional) return std::nullopt;
  if (!c->Digits(2, &mm) || hh > 23 || mm > 59) return std::nullopt;
  int minutes = hh * 60 + mm;
  return sign == '-' ? -minutes : minutes;
}

// hh:mm[:ss[.s+]] after the date part of a W3C datetime.
bool W3cTime(Cursor* c, int* h, int* mi, int* s) {
  if (!c->Digits(2, h) || !c->Eat(':') || !c->Digits(2, mi)) return false;
  *s = 0;
  if (c->Eat(':')) {
    if (!c->Digits(2, s)) return false;
    if (c->Eat('.')) {
      size_t start = c->i;
      while (!c->done() && std::isdigit(static_cast<unsigned char>(c->peek()))) ++c->i;
      if (c->i == start) return false;
    }
  }
  return ValidTime(*h, *mi, *s);
}

int MonthIndex(std::string_view m) {
  static const char* kMonths[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                  "jul", "aug", "sep", "oct", "nov", "dec"};
  if (m.size() < 3) return 0;
  for (int k = 0; k < 12; ++k) {
    bool eq = true;
    for (int j = 0; j < 3; ++j) {
      eq = eq && std::tolower(static_cast<unsigned char>(m[j])) == kMonths[k][j];
    }
    if (eq) return k + 1;
  }
  return 0;
}

std::string_view Word(Cursor* c) {
  size_t start = c->i;
  while (!c->done() && std::isalpha(static_cast<unsigned char>(c->peek()))) ++c->i;
  return c->s.substr(start, c->i - start);
}

// RFC 822 section 5.1 zones; unknown alphabetic zones (military letters)
// are read as UTC per RFC 2822 section 4.3.
std::optional<int> Rfc822Zone(Cursor* c) {
  if (c->peek() == '+' || c->peek() == '-') return NumericZone(c, true);
  std::string_view w = Word(c);
  if (w.empty()) return std::nullopt;
  struct Named {
    const char* name;
    int minutes;
  };
  static const Named kZones[] = {{"UT", 0},       {"GMT", 0},      {"Z", 0},
                                 {"EST", -5 * 60}, {"EDT", -4 * 60}, {"CST", -6 * 60},
                                 {"CDT", -5 * 60}, {"MST", -7 * 60}, {"MDT", -6 * 60},
                                 {"PST", -8 * 60}, {"PDT", -7 * 60}};
  for (const Named& z : kZones) {
    std::string_view n(z.name);
    if (n.size() != w.size()) continue;
    bool eq = true;
    for (size_t j = 0; j < n.size(); ++j) {
      eq = eq && std::toupper(static_cast<unsigned char>(w[j])) == n[j];
    }
    if (eq) return z.minutes;
  }
  return 0;
}

}  // namespace

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

std::optional<int64_t> ParseW3cDatetime(std::string_view text) {
  Cursor c{Trim(text)};
  int y = 0, mo = 1, d = 1;
  if (!c.Digits(4, &y)) return std::nullopt;
  if (c.Eat('-')) {
    if (!c.Digits(2, &mo)) return std::nullopt;
    if (c.Eat('-') && !c.Digits(2, &d)) return std::nullopt;
  }
  if (!ValidDate(y, mo, d)) return std::nullopt;
  if (c.done()) return ToMillis(y, mo, d, 0, 0, 0, 0);
  if (!c.Eat('T') && !c.Eat('t') && !c.Eat(' ')) return std::nullopt;
  int h = 0, mi = 0, s = 0;
  if (!W3cTime(&c, &h, &mi, &s)) return std::nullopt;
  int offset = 0;
  if (!c.done()) {
    std::optional<int> z = NumericZone(&c, true);
    if (!z) return std::nullopt;
    offset = *z;
  }
  if (!c.done()) return std::nullopt;
  return ToMillis(y, mo, d, h, mi, s, offset);
}

std::optional<int64_t> ParseRfc822Date(std::string_view text) {
  Cursor c{Trim(text)};
  if (std::isalpha(static_cast<unsigned char>(c.peek()))) {  // optional day name
    Word(&c);
    if (!c.Eat(',')) return std::nullopt;
    c.SkipSpace();
  }
  int d = 0;
  if (!c.Digits(2, &d) && !c.Digits(1, &d)) return std::nullopt;
  c.SkipSpace();
  int mo = MonthIndex(Word(&c));
  if (mo == 0) return std::nullopt;
  c.SkipSpace();
  int y = 0;
  size_t year_start = c.i;
  while (!c.done() && std::isdigit(static_cast<unsigned char>(c.peek()))) ++c.i;
  size_t year_len = c.i - year_start;
  if (year_len != 2 && year_len != 4) return std::nullopt;
  for (size_t k = year_start; k < c.i; ++k) y = y * 10 + (c.s[k] - '0');
  if (year_len == 2) y += y < 50 ? 2000 : 1900;
  c.SkipSpace();
  int h = 0, mi = 0, s = 0;
  if (!c.Digits(2, &h) || !c.Eat(':') || !c.Digits(2, &mi)) return std::nullopt;
  if (c.Eat(':') && !c.Digits(2, &s)) return std::nullopt;
  if (!ValidDate(y, mo, d) || !ValidTime(h, mi, s)) return std::nullopt;
  c.SkipSpace();
  std::optional<int> zone = Rfc822Zone(&c);
  c.SkipSpace();
  if (!zone || !c.done()) return std::nullopt;
  return ToMillis(y, mo, d, h, mi, s, *zone);
}

std::string FormatW3cDatetime(int64_t unix_ms) {
  std::time_t secs = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[80];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

}  // namespace topicrawl
