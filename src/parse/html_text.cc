#include "parse/html_text.h"

#include <array>

namespace topicrawl {
namespace {

bool IsAsciiSpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

// Length of the whitespace character at s[i] (0 when none): ASCII
// whitespace, U+00A0 (C2 A0) and U+3000 (E3 80 80).
size_t SpaceLength(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (IsAsciiSpace(c)) return 1;
  if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) {
    return 2;
  }
  if (c == 0xE3 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
      static_cast<unsigned char>(s[i + 2]) == 0x80) {
    return 3;
  }
  return 0;
}

// Decodes the code point at s[i] (s is valid UTF-8 from myhtml; anything
// else decodes as the byte value) and its length.
uint32_t CodePointAt(std::string_view s, size_t i, size_t* len) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  auto cont = [&](size_t k) -> uint32_t {
    return i + k < s.size() ? (static_cast<unsigned char>(s[i + k]) & 0x3F) : 0;
  };
  if (c < 0x80) {
    *len = 1;
    return c;
  }
  if (c >= 0xF0 && i + 3 < s.size()) {
    *len = 4;
    return ((c & 0x07u) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3);
  }
  if (c >= 0xE0 && i + 2 < s.size()) {
    *len = 3;
    return ((c & 0x0Fu) << 12) | (cont(1) << 6) | cont(2);
  }
  if (c >= 0xC0 && i + 1 < s.size()) {
    *len = 2;
    return ((c & 0x1Fu) << 6) | cont(1);
  }
  *len = 1;
  return c;
}

bool IsCjk(uint32_t cp) {
  return (cp >= 0x2E80 && cp <= 0x9FFF) ||   // radicals, punctuation, kana, ideographs
         (cp >= 0xAC00 && cp <= 0xD7AF) ||   // hangul syllables
         (cp >= 0xF900 && cp <= 0xFAFF) ||   // compatibility ideographs
         (cp >= 0xFE30 && cp <= 0xFE4F) ||   // CJK compatibility forms
         (cp >= 0xFF00 && cp <= 0xFFEF) ||   // half/full-width forms
         (cp >= 0x20000 && cp <= 0x3FFFF);   // ideograph extensions
}

char AsciiLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

void FoldedText::Append(std::string_view text) {
  // Bytes that may start a whitespace character: ASCII whitespace, and the
  // lead bytes of U+00A0 (C2) and U+3000 (E3), confirmed by SpaceLength().
  static constexpr auto kMaybeSpace = [] {
    std::array<bool, 256> t{};
    for (unsigned char c : {' ', '\t', '\n', '\f', '\r', '\xC2', '\xE3'}) t[c] = true;
    return t;
  }();
  const char* p = text.data();
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    if (kMaybeSpace[static_cast<unsigned char>(p[i])]) {
      if (size_t sp = SpaceLength(text, i)) {
        pending_space_ = true;
        i += sp;
        continue;
      }
    }
    // A run copied at once: non-space bytes, and single ASCII spaces
    // between them (already folded), so ordinary prose is one append
    // instead of one per word.
    size_t j = i + 1;
    while (j < n) {
      if (!kMaybeSpace[static_cast<unsigned char>(p[j])]) {
        ++j;
        continue;
      }
      if (SpaceLength(text, j) == 0) {  // C2 / E3 lead of another character
        ++j;
        continue;
      }
      if (p[j] == ' ' && j + 1 < n &&
          !(kMaybeSpace[static_cast<unsigned char>(p[j + 1])] && SpaceLength(text, j + 1))) {
        j += 2;
        continue;
      }
      break;
    }
    if (pending_space_ && !s_.empty()) s_.push_back(' ');
    pending_space_ = false;
    s_.append(p + i, j - i);
    i = j;
  }
}

std::string FoldWhitespace(std::string_view text) {
  FoldedText f;
  f.Append(text);
  return f.str();
}

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::string_view Utf8Prefix(std::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

std::vector<WordSpan> SplitWords(std::string_view s) {
  std::vector<WordSpan> words;
  SplitWords(s, &words);
  return words;
}

void SplitWords(std::string_view s, std::vector<WordSpan>* out) {
  std::vector<WordSpan>& words = *out;
  words.clear();
  size_t i = 0;
  const size_t n = s.size();
  bool in_word = false;
  uint32_t start = 0;
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == ' ') {
      if (in_word) words.push_back({start, static_cast<uint32_t>(i)});
      in_word = false;
      ++i;
      continue;
    }
    if (c < 0x80) {
      if (!in_word) {
        in_word = true;
        start = static_cast<uint32_t>(i);
      }
      ++i;
      continue;
    }
    size_t len = 1;
    uint32_t cp = CodePointAt(s, i, &len);
    if (IsCjk(cp)) {
      if (in_word) words.push_back({start, static_cast<uint32_t>(i)});
      in_word = false;
      words.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(i + len)});
    } else if (!in_word) {
      in_word = true;
      start = static_cast<uint32_t>(i);
    }
    i += len;
  }
  if (in_word) words.push_back({start, static_cast<uint32_t>(n)});
}

bool HasToken(std::string_view list, std::string_view token) {
  size_t i = 0;
  const size_t n = list.size();
  while (i < n) {
    while (i < n && IsAsciiSpace(static_cast<unsigned char>(list[i]))) ++i;
    size_t j = i;
    while (j < n && !IsAsciiSpace(static_cast<unsigned char>(list[j]))) ++j;
    if (j - i == token.size()) {
      bool eq = true;
      for (size_t k = 0; k < token.size(); ++k) {
        if (AsciiLower(list[i + k]) != token[k]) {
          eq = false;
          break;
        }
      }
      if (eq) return true;
    }
    i = j;
  }
  return false;
}

std::optional<std::string> MetaRefreshUrl(std::string_view in) {
  size_t p = 0;
  const size_t n = in.size();
  auto skip_ws = [&] {
    while (p < n && IsAsciiSpace(static_cast<unsigned char>(in[p]))) ++p;
  };
  skip_ws();
  size_t digits = p;
  while (p < n && in[p] >= '0' && in[p] <= '9') ++p;
  if (p == digits && (p >= n || in[p] != '.')) return std::nullopt;
  while (p < n && ((in[p] >= '0' && in[p] <= '9') || in[p] == '.')) ++p;
  if (p >= n) return std::nullopt;  // "5": refresh this page
  if (in[p] != ';' && in[p] != ',' && !IsAsciiSpace(static_cast<unsigned char>(in[p]))) {
    return std::nullopt;
  }
  skip_ws();
  if (p < n && (in[p] == ';' || in[p] == ',')) ++p;
  skip_ws();
  if (p >= n) return std::nullopt;
  // Optional "url" "=" prefix.
  size_t save = p;
  if (p + 3 <= n && AsciiLower(in[p]) == 'u' && AsciiLower(in[p + 1]) == 'r' &&
      AsciiLower(in[p + 2]) == 'l') {
    p += 3;
    skip_ws();
    if (p < n && in[p] == '=') {
      ++p;
      skip_ws();
    } else {
      p = save;
    }
  }
  // Skip quotes.
  char quote = 0;
  if (p < n && (in[p] == '"' || in[p] == '\'')) quote = in[p++];
  std::string_view url = in.substr(p);
  if (quote != 0) {
    size_t q = url.find(quote);
    if (q != std::string_view::npos) url = url.substr(0, q);
  }
  while (!url.empty() && IsAsciiSpace(static_cast<unsigned char>(url.back()))) {
    url.remove_suffix(1);
  }
  if (url.empty()) return std::nullopt;
  return std::string(url);
}

}  // namespace topicrawl
