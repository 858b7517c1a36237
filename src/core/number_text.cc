#include "core/number_text.h"

#include <charconv>

namespace topicrawl {

std::string ShortestDouble(double v) {
  char buf[64];  // the longest shortest form of a double is 24 characters
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

std::string TomlNumber(double v) {
  std::string text = ShortestDouble(v);
  // An exponent, "inf" or "nan" already make it a float.
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

}  // namespace topicrawl
