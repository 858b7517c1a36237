#include "strategies/jlse/result_page_features.h"

#include <algorithm>
#include <cmath>

namespace topicrawl {
namespace {

// One UTF-8 code point at s[i]; advances i. Invalid bytes count as one
// non-word code point.
uint32_t NextCodePoint(std::string_view s, size_t* i) {
  const unsigned char c = static_cast<unsigned char>(s[*i]);
  int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (len == 0 || *i + len > s.size()) {
    ++*i;
    return 0xfffd;
  }
  for (int k = 1; k < len; ++k) {
    if ((static_cast<unsigned char>(s[*i + k]) & 0xc0) != 0x80) {
      ++*i;
      return 0xfffd;
    }
  }
  uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1f) : len == 3 ? (c & 0x0f) : (c & 0x07);
  for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[*i + k]) & 0x3f);
  *i += len;
  return cp;
}

bool IsCjk(uint32_t cp) {
  return (cp >= 0x3040 && cp <= 0x30ff) ||   // kana
         (cp >= 0x3400 && cp <= 0x4dbf) ||   // CJK ext A
         (cp >= 0x4e00 && cp <= 0x9fff) ||   // CJK unified
         (cp >= 0xac00 && cp <= 0xd7af) ||   // hangul
         (cp >= 0xf900 && cp <= 0xfaff) ||   // compatibility
         (cp >= 0x20000 && cp <= 0x2fa1f);
}

bool IsWordChar(uint32_t cp) {
  if (cp < 0x80) return std::isalnum(static_cast<int>(cp)) != 0;
  // Latin letters with diacritics, Greek, Cyrillic: letters of a word.
  return (cp >= 0xc0 && cp <= 0x24f && cp != 0xd7 && cp != 0xf7) ||
         (cp >= 0x370 && cp <= 0x52f);
}

double Log2AtLeast1(double x) { return std::log2(std::max(x, 1.0)); }

}  // namespace

int CountWordUnits(std::string_view utf8) {
  int words = 0;
  bool in_word = false;
  size_t i = 0;
  while (i < utf8.size()) {
    const uint32_t cp = NextCodePoint(utf8, &i);
    if (IsCjk(cp)) {
      ++words;
      in_word = false;
    } else if (IsWordChar(cp)) {
      if (!in_word) ++words;
      in_word = true;
    } else {
      in_word = false;
    }
  }
  return words;
}

ResultPageFeatures ComputeResultPageFeatures(const ParsedPage& page,
                                             const ResultPageFeatureOptions& options) {
  ResultPageFeatures f;
  f.total_words = CountWordUnits(page.text);
  int anchor_words = 0;
  for (const auto& link : page.links) {
    if (link.kind != LinkKind::kAnchor && link.kind != LinkKind::kArea) continue;
    ++f.links;
    anchor_words += CountWordUnits(link.anchor);
  }
  f.plain_words = std::max(0, f.total_words - anchor_words);
  int block_words = 0;
  for (const auto& block : page.text_blocks) {
    const int w = CountWordUnits(block);
    if (w >= options.min_block_words) {
      ++f.big_blocks;
      block_words += w;
    }
  }
  f.text_degree = Log2AtLeast1(f.plain_words) - std::log2(options.k);
  f.link_degree = Log2AtLeast1(f.links) - Log2AtLeast1(f.total_words);
  const double share =
      f.total_words > 0 ? std::min(1.0, static_cast<double>(block_words) / f.total_words) : 0.0;
  f.aggregation = share * std::log2(1.0 + f.big_blocks);
  return f;
}

bool IsDetailPageUrl(std::string_view url) {
  // Path without query/fragment.
  size_t scheme = url.find("://");
  size_t path_at = scheme == std::string_view::npos ? 0 : url.find('/', scheme + 3);
  if (path_at == std::string_view::npos) return false;  // host only: a home page
  std::string_view path = url.substr(path_at);
  path = path.substr(0, path.find_first_of("?#"));
  if (path.empty() || path.back() == '/') return false;
  std::string name(path.substr(path.rfind('/') + 1));
  for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const size_t dot = name.rfind('.');
  if (dot != std::string::npos) name.resize(dot);
  static const char* const kListings[] = {"index", "contents", "toc", "modindex",
                                          "py-modindex", "search", "sitemap", "bookindex",
                                          "genindex", "overview-summary", "allclasses"};
  for (const char* l : kListings) {
    if (name == l) return false;
  }
  if (name.rfind("genindex", 0) == 0) return false;
  if (name.size() > 6 && name.compare(name.size() - 6, 6, "-index") == 0) return false;
  return true;
}

bool IsDetailPageByRule(const ResultPageFeatures& f) {
  return f.text_degree >= 0 && f.link_degree <= -3;
}

}  // namespace topicrawl
