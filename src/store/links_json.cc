#include "store/links_json.h"

#include <array>
#include <charconv>
#include <cmath>

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
    AppendJsonString(l.explanation, out);
    out->push_back(']');
  }
  out->push_back(']');
}

}  // namespace topicrawl
