#include "eval/labels.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "core/test_require.h"

namespace topicrawl::eval {
namespace {

// Corpus README §3 lists each rule; one test per rule.
TEST(LabelUrlTest, OperatorEqualsStaysLiteral) {
  EXPECT_EQ(CanonicalizeLabelUrl("http://en.cppreference.com/w/cpp/atomic/atomic/operator=.html"),
            "http://en.cppreference.com/w/cpp/atomic/atomic/operator=.html");
  // An encoded '=' is decoded and, being in the safe set, written literally.
  EXPECT_EQ(CanonicalizeLabelUrl("http://en.cppreference.com/w/operator%3D.html"),
            "http://en.cppreference.com/w/operator=.html");
}

TEST(LabelUrlTest, SpaceBecomesPercent20) {
  EXPECT_EQ(CanonicalizeLabelUrl("http://cmake.org/cmake/help/v3.25/generator/Borland Makefiles.html"),
            "http://cmake.org/cmake/help/v3.25/generator/Borland%20Makefiles.html");
  EXPECT_EQ(CanonicalizeLabelUrl("http://cmake.org/g/Borland%20Makefiles.html"),
            "http://cmake.org/g/Borland%20Makefiles.html");
}

TEST(LabelUrlTest, TrailingSlashBecomesIndexHtml) {
  EXPECT_EQ(CanonicalizeLabelUrl("http://cmake.org/cmake/help/v3.25/guide/ide-integration/"),
            "http://cmake.org/cmake/help/v3.25/guide/ide-integration/index.html");
  EXPECT_EQ(CanonicalizeLabelUrl("http://www.sqlite.org"), "http://www.sqlite.org/index.html");
}

TEST(LabelUrlTest, HttpsTreatedAsHttp) {
  EXPECT_EQ(CanonicalizeLabelUrl("https://docs.python.org/3/library/socket.html"),
            "http://docs.python.org/3/library/socket.html");
  EXPECT_EQ(CanonicalizeLabelUrl("HTTPS://docs.python.org/3/"),
            "http://docs.python.org/3/index.html");
}

TEST(LabelUrlTest, DropsPortQueryAndFragment) {
  EXPECT_EQ(CanonicalizeLabelUrl("http://docs.python.org:8080/3/library/socket.html?x=1&y#frag"),
            "http://docs.python.org/3/library/socket.html");
  EXPECT_EQ(CanonicalizeLabelUrl("https://docs.python.org:443/3/#a/b?c"),
            "http://docs.python.org/3/index.html");
  EXPECT_EQ(CanonicalizeLabelUrl("http://user:pw@docs.python.org:80/3/x.html"),
            "http://docs.python.org/3/x.html");
}

TEST(LabelUrlTest, LowercasesHostOnly) {
  EXPECT_EQ(CanonicalizeLabelUrl("http://Docs.Python.ORG/3/Library/Socket.html"),
            "http://docs.python.org/3/Library/Socket.html");
}

TEST(LabelUrlTest, ReencodesPathWithUpperCaseHex) {
  // Unreserved escapes are decoded; others get upper-case hex; non-ASCII is
  // encoded byte by byte (UTF-8), as Python's quote() does.
  EXPECT_EQ(CanonicalizeLabelUrl("http://h/%7euser/a%2cb%5B1%5d.html"),
            "http://h/~user/a,b%5B1%5D.html");
  EXPECT_EQ(CanonicalizeLabelUrl("http://h/\xC3\xA9t\xC3\xA9.html"),
            "http://h/%C3%A9t%C3%A9.html");
  EXPECT_EQ(CanonicalizeLabelUrl("http://h/a%zz%4.html"), "http://h/a%25zz%254.html");
  EXPECT_EQ(CanonicalizeLabelUrl("http://h/!$&'()*+,;=:@~x"), "http://h/!$&'()*+,;=:@~x");
  EXPECT_EQ(CanonicalizeLabelUrl("http://h/a\"b<c>d^e`f{g}h|i\\j"),
            "http://h/a%22b%3Cc%3Ed%5Ee%60f%7Bg%7Dh%7Ci%5Cj");
}

TEST(LabelSetTest, ParsesRowsAndSkipsHeader) {
  StatusOr<LabelSet> set = LabelSet::Parse(
      "url\trelevant\treason\n"
      "http://a.org/x.html\t1\tchapter 5\n"
      "http://a.org/y.html\t0\t\n"
      "http://a.org/dir/index.html\t1\tdir\n");
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->size(), 3u);
  EXPECT_EQ(set->relevant_count(), 2u);
  EXPECT_EQ(set->Lookup("https://A.org:8443/x.html?q#f"), std::optional<bool>(true));
  EXPECT_EQ(set->Lookup("http://a.org/y.html"), std::optional<bool>(false));
  EXPECT_EQ(set->Lookup("http://a.org/dir/"), std::optional<bool>(true));
  EXPECT_EQ(set->Lookup("http://a.org/missing.html"), std::nullopt);
  EXPECT_TRUE(set->issues().empty());
}

TEST(LabelSetTest, RecordsMalformedRowsAsIssues) {
  StatusOr<LabelSet> set = LabelSet::Parse(
      "http://a.org/x.html\t1\tr\n"
      "http://a.org/y.html\tyes\t\n"
      "just-one-column\n"
      "http://A.ORG/x.html\t0\t\n");
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(set->size(), 1u);
  ASSERT_EQ(set->issues().size(), 3u);
  EXPECT_EQ(set->issues()[0].line, 2u);
  EXPECT_EQ(set->issues()[1].line, 3u);
  EXPECT_EQ(set->issues()[2].line, 4u);  // duplicate keeps the first row
  EXPECT_EQ(set->Lookup("http://a.org/x.html"), std::optional<bool>(true));
}

TEST(LabelSetTest, FailsWhenNothingParses) {
  EXPECT_FALSE(LabelSet::Parse("").ok());
  EXPECT_FALSE(LabelSet::Parse("garbage\n").ok());
  StatusOr<LabelSet> missing = LabelSet::Load("/nonexistent/labels.tsv");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/labels.tsv"), std::string::npos);
}

// The shipped label files are already canonical: canonicalising every row
// must change nothing, and the counts must match the README's table (§4).
TEST(LabelSetTest, CorpusDevNetworkingLabelsAreCanonicalAndComplete) {
  std::string path = std::string(TOPICRAWL_SHARED_DIR) + "/corpus/labels/dev-networking.tsv";
  if (!std::filesystem::exists(path)) {
    TOPICRAWL_SKIP_UNLESS_REQUIRED("no corpus at " + path + " (the shared research texts, ../shared)");
  }
  StatusOr<LabelSet> set = LabelSet::Load(path);
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->size(), 52876u);
  EXPECT_EQ(set->relevant_count(), 955u);
  EXPECT_TRUE(set->issues().empty());
  EXPECT_EQ(set->Lookup("https://docs.python.org:443/3/library/socket.html#socket.socket"),
            std::optional<bool>(true));
  EXPECT_EQ(set->Lookup("http://cmake.org/cmake/help/v3.25/generator/Borland Makefiles.html"),
            std::optional<bool>(false));
  EXPECT_EQ(set->Lookup("http://cmake.org/cmake/help/v3.25/guide/ide-integration/"),
            std::optional<bool>(false));
}

TEST(UrlSetTest, ParsesListsAndIgnoresCommentsAndExtraColumns) {
  UrlSet set = UrlSet::Parse(
      "# reachable pages\n"
      "https://a.org/x.html\n"
      "\n"
      "http://a.org/dir/\t1\tr\n");
  EXPECT_EQ(set.size(), 2u);
  EXPECT_TRUE(set.Contains("http://a.org/x.html"));
  EXPECT_TRUE(set.Contains("http://a.org/dir/index.html"));
  EXPECT_FALSE(set.Contains("http://a.org/y.html"));
}

}  // namespace
}  // namespace topicrawl::eval
