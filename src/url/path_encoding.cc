#include "url/path_encoding.h"

namespace topicrawl {
namespace {

bool KeepUnencoded(unsigned char c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
  static constexpr std::string_view kSafe = "-._~/!$&'()*+,;=:@";
  return kSafe.find(static_cast<char>(c)) != std::string_view::npos;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string PercentEncodePath(std::string_view decoded_path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(decoded_path.size());
  for (unsigned char c : decoded_path) {
    if (KeepUnencoded(c)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string PercentDecode(std::string_view encoded) {
  std::string out;
  out.reserve(encoded.size());
  for (size_t i = 0; i < encoded.size(); ++i) {
    int hi = i + 2 < encoded.size() ? HexValue(encoded[i + 1]) : -1;
    int lo = i + 2 < encoded.size() ? HexValue(encoded[i + 2]) : -1;
    if (encoded[i] == '%' && hi >= 0 && lo >= 0) {
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(encoded[i]);
    }
  }
  return out;
}

}  // namespace topicrawl
