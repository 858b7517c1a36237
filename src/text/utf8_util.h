// Small UTF-8 helpers shared by the tokeniser and the segmenters.
#ifndef TOPICRAWL_TEXT_UTF8_UTIL_H_
#define TOPICRAWL_TEXT_UTF8_UTIL_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"

namespace topicrawl {

char32_t NextCodePointSlow(std::string_view text, size_t* pos);
bool IsWordCodePointSlow(char32_t c);

// Decodes the code point starting at text[*pos] and advances *pos past it.
// Malformed sequences yield U+FFFD and advance by one byte.
// REQUIRES: *pos < text.size().
inline char32_t NextCodePoint(std::string_view text, size_t* pos) {
  const unsigned char c = static_cast<unsigned char>(text[*pos]);
  if (c < 0x80) {
    ++*pos;
    return c;
  }
  return NextCodePointSlow(text, pos);
}

// Han ideographs (CJK Unified Ideographs, Extensions A-G, Compatibility
// Ideographs) and U+3007 IDEOGRAPHIC NUMBER ZERO.
inline bool IsHanCodePoint(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x3134F) ||
         c == 0x3007;
}

// Letters, digits and combining marks of any script (ICU properties).
inline bool IsWordCodePoint(char32_t c) {
  if (c < 0x80) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
  }
  return IsWordCodePointSlow(c);
}

// Unicode White_Space.
bool IsSpaceCodePoint(char32_t c);

// Hash and equality for heterogeneous (std::string_view) lookup in abseil's
// swiss tables (Debian's abseil is built without std::string_view
// interoperability, so absl's own string hasher does not accept it).
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const {
    return absl::Hash<absl::string_view>{}(absl::string_view(s.data(), s.size()));
  }
};
struct StringEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};
using StringSet = absl::flat_hash_set<std::string, StringHash, StringEq>;
template <typename V>
using StringMap = absl::flat_hash_map<std::string, V, StringHash, StringEq>;

}  // namespace topicrawl

#endif  // TOPICRAWL_TEXT_UTF8_UTIL_H_
