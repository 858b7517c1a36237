#include "export/surt.h"

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

// Expected keys from the internetarchive/surt library's README and tests
// (surt.surt() with default options).
TEST(SurtTest, LibraryExamples) {
  EXPECT_EQ(SurtKey("http://archive.org/goo/?a=2&b&a=1"), "org,archive)/goo?a=1&a=2&b");
  EXPECT_EQ(SurtKey("http://www.archive.org/"), "org,archive)/");
  EXPECT_EQ(SurtKey("http://archive.org"), "org,archive)/");
  EXPECT_EQ(SurtKey("http://archive.org:80/"), "org,archive)/");
  EXPECT_EQ(SurtKey("https://archive.org:443/"), "org,archive)/");
  EXPECT_EQ(SurtKey("http://archive.org:8080/"), "org,archive:8080)/");
  EXPECT_EQ(SurtKey("http://www2.Archive.ORG/Goo/"), "org,archive)/goo");
  EXPECT_EQ(SurtKey("http://archive.org/goo?"), "org,archive)/goo");
  EXPECT_EQ(SurtKey("http://archive.org/goo#frag"), "org,archive)/goo");
  EXPECT_EQ(SurtKey("http://user:pw@archive.org/x"), "org,archive)/x");
}

TEST(SurtTest, NumericHostsAndOtherSchemes) {
  EXPECT_EQ(SurtKey("http://127.0.0.1:8080/a"), "127.0.0.1:8080)/a");
  EXPECT_EQ(SurtKey("http://[::1]:8080/a"), "[::1]:8080)/a");
  EXPECT_EQ(SurtKey("urn:uuid:ABC"), "urn:uuid:abc");
  EXPECT_EQ(SurtKey("dns:example.com"), "dns:example.com");
  EXPECT_EQ(SurtKey("http://wwwx.example.com/"), "com,example,wwwx)/");
}

}  // namespace
}  // namespace topicrawl
