// Topic files: TOML and keyword<TAB>weight lists.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "text/topic.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  // base_dir of a directory without dictionaries: `dictionary = ...` fails
  // cleanly instead of reading the fuzzer's working directory.
  topicrawl::ParseTopicToml(in, "fuzz.toml", "/nonexistent-fuzz-dir");
  topicrawl::ParseKeywordList(in, "fuzz.tsv");
  return 0;
}
