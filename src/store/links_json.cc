#include "store/links_json.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace topicrawl {
namespace {

// Length of the valid UTF-8 sequence at s[i], 0 when the bytes there are not
// one (overlong forms, surrogates and code points past U+10FFFF included).
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  const size_t left = s.size() - i;
  auto cont = [&](size_t k) { return k < left && (b(k) & 0xC0) == 0x80; };
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && b(1) < 0xA0) return 0;  // overlong
    if (c == 0xED && b(1) > 0x9F) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && b(1) < 0x90) return 0;  // overlong
    if (c == 0xF4 && b(1) > 0x8F) return 0;  // past U+10FFFF
    return 4;
  }
  return 0;
}

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t run = 0;  // start of the pending run of bytes copied as they are
  size_t i = 0;
  auto flush = [&](size_t end) { out->append(s.data() + run, end - run); };
  // Bytes that need a look: controls, quote, backslash, non-ASCII.
  static constexpr auto kSpecial = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 0x20; ++c) t[c] = true;
    for (int c = 0x80; c < 0x100; ++c) t[c] = true;
    t['"'] = t['\\'] = true;
    return t;
  }();
  const size_t n = s.size();
  while (i < n) {
    while (i < n && !kSpecial[static_cast<unsigned char>(s[i])]) ++i;
    if (i >= n) break;
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      if (size_t len = Utf8SequenceLength(s, i)) {
        i += len;
        continue;
      }
      flush(i);
      out->append("\xEF\xBF\xBD");  // U+FFFD for an invalid byte
      run = ++i;
      continue;
    }
    flush(i);
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default: {
        const char esc[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out->append(esc, sizeof(esc));
      }
    }
    run = ++i;
  }
  flush(i);
  out->push_back('"');
}

void AppendLinksJson(const std::vector<LinkRecord>& links, std::string* out) {
  size_t bytes = 2;
  for (const LinkRecord& l : links) {
    bytes += l.to_url.size() + l.anchor.size() + l.context.size() + l.explanation.size() + 40;
  }
  out->reserve(out->size() + bytes);
  out->push_back('[');
  std::string explanation;
  for (size_t k = 0; k < links.size(); ++k) {
    const LinkRecord& l = links[k];
    if (k > 0) out->push_back(',');
    out->push_back('[');
    AppendJsonString(l.to_url, out);
    out->push_back(',');
    AppendJsonString(l.anchor, out);
    out->push_back(',');
    AppendJsonString(l.context, out);
    out->push_back(',');
    if (std::isfinite(l.score)) {
      char buf[32];
      auto r = std::to_chars(buf, buf + sizeof(buf), l.score);
      out->append(buf, r.ptr);
      // "0" or "3" would read back as an INTEGER: keep scores REAL.
      if (std::string_view(buf, r.ptr - buf).find_first_of(".e") == std::string_view::npos) {
        out->append(".0");
      }
    } else {
      out->append("null");
    }
    out->push_back(',');
    explanation.clear();
    AppendCompactJsonNumbers(l.explanation, &explanation);
    AppendJsonString(explanation, out);
    out->push_back(']');
  }
  out->push_back(']');
}

size_t LinkOriginLength(std::string_view page_url) {
  if (page_url.rfind("http://", 0) != 0 && page_url.rfind("https://", 0) != 0) return 0;
  // The view's SQL: substr(url, 1, instr(substr(url, 9), '/') + 7).
  const size_t slash = page_url.find('/', 8);
  return slash == std::string_view::npos ? 0 : slash;
}

void CompactUrlInto(std::string_view url, std::string_view page_url, std::string* out) {
  const size_t origin = LinkOriginLength(page_url);
  if (origin == 0) {
    out->assign(url);
    return;
  }
  const size_t dir = page_url.rfind('/') + 1;
  if (url.size() >= dir && url.compare(0, dir, page_url.substr(0, dir)) == 0) {
    out->assign(1, '.');
    out->append(url.substr(dir));
    return;
  }
  if (url.size() > origin && url[origin] == '/' &&
      url.compare(0, origin, page_url.substr(0, origin)) == 0) {
    out->assign(url.substr(origin));
    return;
  }
  out->assign(url);
}

std::string CompactUrl(std::string_view url, std::string_view page_url) {
  std::string out;
  CompactUrlInto(url, page_url, &out);
  return out;
}

void ExpandCompactUrlInto(std::string_view stored, std::string_view page_url, std::string* out) {
  if (!IsCompactUrl(stored)) {
    out->assign(stored);
    return;
  }
  if (stored[0] == '.') {
    // rtrim(url, replace(url, '/', '')): up to the last '/'.
    const size_t slash = page_url.rfind('/');
    out->assign(page_url.substr(0, slash == std::string_view::npos ? 0 : slash + 1));
    out->append(stored.substr(1));
    return;
  }
  // substr(url, 1, instr(substr(url, 9), '/') + 7).
  const size_t slash = page_url.size() > 8 ? page_url.find('/', 8) : std::string_view::npos;
  out->assign(page_url.substr(0, slash == std::string_view::npos ? 7 : slash));
  out->append(stored);
}

std::string ExpandCompactUrl(std::string_view stored, std::string_view page_url) {
  std::string out;
  ExpandCompactUrlInto(stored, page_url, &out);
  return out;
}

void AppendCompactLinksJson(const std::vector<LinkRecord>& links, std::string_view page_url,
                            std::string* out) {
  const size_t origin = LinkOriginLength(page_url);
  // The page's directory: up to its last '/' (the view's
  // rtrim(url, replace(url, '/', ''))).
  const size_t dir = origin > 0 ? page_url.rfind('/') + 1 : 0;
  size_t bytes = 2;
  for (const LinkRecord& l : links) {
    bytes += l.to_url.size() + l.anchor.size() + l.context.size() + l.explanation.size() + 20;
  }
  out->reserve(out->size() + bytes);
  out->push_back('[');
  std::string compact;
  for (size_t k = 0; k < links.size(); ++k) {
    const LinkRecord& l = links[k];
    if (k > 0) out->push_back(',');
    out->push_back('[');
    std::string_view url = l.to_url;
    if (dir > 0 && url.size() >= dir && url.compare(0, dir, page_url.substr(0, dir)) == 0) {
      // In the page's directory: "." + the rest ("./x" without the '/').
      url.remove_prefix(dir);
      const size_t quote = out->size();
      AppendJsonString(url, out);
      out->insert(quote + 1, 1, '.');
    } else {
      if (origin > 0 && url.size() > origin && url[origin] == '/' &&
          url.compare(0, origin, page_url.substr(0, origin)) == 0) {
        url.remove_prefix(origin);
      }
      AppendJsonString(url, out);
    }
    out->push_back(',');
    AppendJsonString(l.anchor, out);
    out->push_back(',');
    if (std::isfinite(l.score)) {
      char buf[32];
      const int len = std::snprintf(buf, sizeof(buf), "%.6g", l.score);
      out->append(buf, static_cast<size_t>(len));
      // "3" would read back as an INTEGER: keep scores REAL.
      if (std::string_view(buf, len).find_first_of(".e") == std::string_view::npos) {
        out->append(".0");
      }
    } else {
      out->append("null");
    }
    if (!l.context.empty() || !l.explanation.empty()) {
      out->push_back(',');
      AppendJsonString(l.context, out);
    }
    if (!l.explanation.empty()) {
      out->push_back(',');
      compact.clear();
      AppendCompactJsonNumbers(l.explanation, &compact);
      AppendJsonString(compact, out);
    }
    out->push_back(']');
  }
  out->push_back(']');
}

namespace {

// The end of the number token at json[i]: digits, signs, '.', 'e', 'E'.
// *real: it has a fraction or exponent; *digits: its significant digits.
size_t ScanJsonNumberToken(std::string_view json, size_t i, bool* real, int* digits) {
  bool leading = true;  // zeros before the first non-zero digit are not significant
  size_t j = i;
  while (j < json.size()) {
    const char d = json[j];
    if (d >= '0' && d <= '9') {
      if (d != '0') leading = false;
      if (!leading) ++*digits;
    } else if (d == '.' || d == 'e' || d == 'E') {
      *real = true;
    } else if (d != '-' && d != '+') {
      break;
    }
    ++j;
  }
  return j;
}

// A real with more than 6 significant digits as "%.6g" when that is
// shorter (and still a REAL); anything else as it is.
void AppendShortenedJsonNumber(std::string_view token, bool real, int digits, std::string* out) {
  if (!real || digits <= 6) {
    out->append(token);
    return;
  }
  const std::string copy(token);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  char buf[32];
  const int len = std::isfinite(v) && end == copy.c_str() + copy.size()
                      ? std::snprintf(buf, sizeof(buf), "%.6g", v)
                      : 0;
  if (len <= 0 || static_cast<size_t>(len) >= token.size()) {
    out->append(token);
    return;
  }
  std::string_view shorter(buf, static_cast<size_t>(len));
  out->append(shorter);
  // "0.9999999" -> "1": keep it a REAL for SQLite's json functions.
  if (shorter.find_first_of(".e") == std::string_view::npos) out->append(".0");
}

}  // namespace

void AppendCompactJsonNumbers(std::string_view json, std::string* out) {
  const size_t start = json.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || (json[start] != '{' && json[start] != '[')) {
    out->append(json);
    return;
  }
  out->reserve(out->size() + json.size());
  const size_t n = json.size();
  size_t i = 0;
  while (i < n) {
    const char c = json[i];
    if (c == '"') {  // a string: copied as is, escapes included
      size_t j = i + 1;
      while (j < n && json[j] != '"') j += json[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, n);
      out->append(json.substr(i, j - i));
      i = j;
      continue;
    }
    if (c != '-' && (c < '0' || c > '9')) {
      out->push_back(c);
      ++i;
      continue;
    }
    bool real = false;
    int digits = 0;
    const size_t j = ScanJsonNumberToken(json, i, &real, &digits);
    AppendShortenedJsonNumber(json.substr(i, j - i), real, digits, out);
    i = j;
  }
}

}  // namespace topicrawl
