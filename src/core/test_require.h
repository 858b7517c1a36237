// Tests that need an outside tool (python3, gzip, nginx, curl) skip with the
// reason when it is missing -- on a developer's machine. CI installs every
// such tool (scripts/setup) and sets TOPICRAWL_REQUIRE_TOOLS=1 (scripts/test),
// so there a missing tool fails the test instead of silently skipping it.
//
//   if (!HaveNginx()) TOPICRAWL_SKIP_UNLESS_REQUIRED("nginx not installed");
//
// Header-only, for test code (it needs gtest).
#ifndef TOPICRAWL_CORE_TEST_REQUIRE_H_
#define TOPICRAWL_CORE_TEST_REQUIRE_H_

#include <cstdlib>
#include <cstring>

namespace topicrawl {

inline bool ToolsRequired() {
  const char* v = std::getenv("TOPICRAWL_REQUIRE_TOOLS");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

}  // namespace topicrawl

#define TOPICRAWL_SKIP_UNLESS_REQUIRED(why)                                    \
  do {                                                                         \
    if (::topicrawl::ToolsRequired()) {                                        \
      FAIL() << (why) << " (TOPICRAWL_REQUIRE_TOOLS is set: CI installs it)";  \
    } else {                                                                   \
      GTEST_SKIP() << (why);                                                   \
    }                                                                          \
  } while (0)

#endif  // TOPICRAWL_CORE_TEST_REQUIRE_H_
