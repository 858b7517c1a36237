// Charset detection and decoding. Input: "content-type\nbody".
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fetch/charset.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string_view type = "text/html";
  std::string_view body = in;
  if (size_t nl = in.find('\n'); nl != std::string_view::npos && nl < 200) {
    type = in.substr(0, nl);
    body = in.substr(nl + 1);
  }
  topicrawl::DecodedText d = topicrawl::DecodeToUtf8(body, type);
  topicrawl::CharsetParameter(type);
  topicrawl::PrescanMetaCharset(body);
  topicrawl::DetectEncoding(body);
  (void)d;
  return 0;
}
