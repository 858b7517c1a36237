#include "text/utf8_util.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

namespace topicrawl {

char32_t NextCodePointSlow(std::string_view text, size_t* pos) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  int32_t i = static_cast<int32_t>(*pos);
  const int32_t length = static_cast<int32_t>(text.size());
  UChar32 c;
  U8_NEXT(s, i, length, c);
  *pos = static_cast<size_t>(i);
  return c < 0 ? 0xFFFD : static_cast<char32_t>(c);
}

bool IsWordCodePointSlow(char32_t c) {
  const UChar32 u = static_cast<UChar32>(c);
  return u_isalnum(u) || (U_GET_GC_MASK(u) & U_GC_M_MASK) != 0;
}

bool IsSpaceCodePoint(char32_t c) {
  if (c < 0x80) return c == ' ' || (c >= '\t' && c <= '\r');
  return u_isUWhiteSpace(static_cast<UChar32>(c));
}

}  // namespace topicrawl
