// Small UTF-8 helpers shared by the tokeniser and the segmenters.
#ifndef TOPICRAWL_TEXT_UTF8_UTIL_H_
#define TOPICRAWL_TEXT_UTF8_UTIL_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace topicrawl {

// Decodes the code point starting at text[*pos] and advances *pos past it.
// Malformed sequences yield U+FFFD and advance by one byte.
// REQUIRES: *pos < text.size().
char32_t NextCodePoint(std::string_view text, size_t* pos);

// Han ideographs (CJK Unified Ideographs, Extensions A-G, Compatibility
// Ideographs) and U+3007 IDEOGRAPHIC NUMBER ZERO.
inline bool IsHanCodePoint(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x3134F) ||
         c == 0x3007;
}

// Letters, digits and combining marks of any script (ICU properties).
bool IsWordCodePoint(char32_t c);

// Unicode White_Space.
bool IsSpaceCodePoint(char32_t c);

// Hash for heterogeneous (std::string_view) lookup in standard containers.
// (Debian's abseil is built without std::string_view interoperability.)
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const {
    return std::hash<std::string_view>{}(s);
  }
};
using StringSet = std::unordered_set<std::string, StringHash, std::equal_to<>>;
template <typename V>
using StringMap =
    std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

}  // namespace topicrawl

#endif  // TOPICRAWL_TEXT_UTF8_UTIL_H_
