#include "web/manifest.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

namespace topicrawl::web {
namespace {

using ::testing::HasSubstr;

constexpr char kHeader[] = "host\turl_prefix\tpackage\thtml_root\texclude\n";

struct GlobCase {
  const char* pattern;
  const char* name;
  bool match;  // Python 3.11 fnmatch.fnmatchcase(name, pattern)
};

// Expected values were produced by CPython's fnmatch.fnmatchcase.
constexpr GlobCase kGlobCases[] = {
    {"da/*", "da/index.html", true},      {"da/*", "en/da/x.html", false},
    {"*.html", "a/b/c.html", true},       {"core/arch/*", "core/arch/x86/a.html", true},
    {"a?c", "abc", true},                 {"a?c", "a/c", true},
    {"[ab]*", "b/x", true},               {"[!ab]*", "b/x", false},
    {"[!ab]*", "c/x", true},              {"x[a-c]", "xb", true},
    {"x[c-a]", "xb", false},              {"x[c-a]", "x", false},
    {"[", "[", true},                     {"a[", "a[", true},
    {"[]]", "[]]", false},                {"[]]", "]", true},
    {"[!]]", "a", true},                  {"[!]]", "]", false},
    {"*", "", true},                      {"a*b*c", "aXbYbZc", true},
    {"a*b*c", "aXbYbZ", false},           {"[a-]", "-", true},
    {"[-a]", "-", true},                  {"*.htm", "x.html", false},
    {"zh-CN/*", "zh-CN/a/b.html", true},  {"Da/*", "da/x", false},
};

TEST(FnmatchTest, MatchesPythonFnmatchcaseWhereStarCrossesSlash) {
  for (const GlobCase& c : kGlobCases) {
    EXPECT_EQ(FnmatchCase(c.pattern, c.name), c.match) << c.pattern << " vs " << c.name;
  }
}

TEST(FnmatchTest, RegexIsEquivalentToMatcher) {
  for (const GlobCase& c : kGlobCases) {
    std::regex re("^(?:" + FnmatchToRegex(c.pattern) + ")$");
    EXPECT_EQ(std::regex_match(std::string(c.name), re), c.match)
        << c.pattern << " -> " << FnmatchToRegex(c.pattern) << " vs " << c.name;
  }
}

TEST(FnmatchTest, RegexEscapesMetacharacters) {
  EXPECT_EQ(FnmatchToRegex("pt-br/*"), "pt-br/.*");
  EXPECT_EQ(FnmatchToRegex("a.b?"), "a\\.b.");
  EXPECT_EQ(FnmatchToRegex("[!x-z]"), "[^x-z]");
}

TEST(ManifestTest, ParsesRowsAndExcludeGlobs) {
  std::string text = std::string(kHeader) +
                     "httpd.apache.org\t/docs/2.4/\tapache2-doc\tusr/share/doc/apache2-doc/manual\t"
                     "da/*,de/*\n"
                     "www.sqlite.org\t/\tsqlite3-doc\tusr/share/doc/sqlite3\t\n";
  auto m = ParseManifest(text, "m.tsv");
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->rows.size(), 2u);
  EXPECT_EQ(m->rows[0].host, "httpd.apache.org");
  EXPECT_EQ(m->rows[0].exclude, (std::vector<std::string>{"da/*", "de/*"}));
  EXPECT_EQ(m->rows[0].line, 2);
  EXPECT_TRUE(m->rows[1].exclude.empty());
  EXPECT_EQ(m->rows[1].url_prefix, "/");
  EXPECT_EQ(m->Hosts(), (std::vector<std::string>{"httpd.apache.org", "www.sqlite.org"}));
}

TEST(ManifestTest, AcceptsOverlayRowsAndMissingTrailingField) {
  std::string text = std::string(kHeader) +
                     "help.libreoffice.org\t/7.4/\tlibreoffice-help-zh-cn\tusr/share/libreoffice/help\n"
                     "help.libreoffice.org\t/7.4/\tlibreoffice-help-zh-tw\tusr/share/libreoffice/help\t\n";
  auto m = ParseManifest(text, "zh.tsv");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->rows.size(), 2u);
  EXPECT_EQ(m->Hosts().size(), 1u);
  EXPECT_EQ(m->Packages().size(), 2u);
}

TEST(ManifestTest, ParsesTheSharedCorpusManifests) {
  for (const char* name : {"dev-web.tsv", "zh-web.tsv"}) {
    auto m = ReadManifestFile(std::string(TOPICRAWL_SHARED_DIR) + "/corpus/" + name);
    ASSERT_TRUE(m.ok()) << m.status().message();
  }
  auto dev = ReadManifestFile(std::string(TOPICRAWL_SHARED_DIR) + "/corpus/dev-web.tsv");
  EXPECT_EQ(dev->rows.size(), 15u);
  auto zh = ReadManifestFile(std::string(TOPICRAWL_SHARED_DIR) + "/corpus/zh-web.tsv");
  EXPECT_EQ(zh->Hosts().size(), 4u);
}

struct BadRow {
  const char* row;
  const char* message;
};

TEST(ManifestTest, RejectsBadRowsWithLineNumbers) {
  const BadRow kBad[] = {
      {"a.org\t/x/\tpkg\n", "m.tsv:2: expected 5 tab-separated fields, got 3"},
      {"A.org\t/x/\tpkg\tusr/share\t\n", "m.tsv:2: invalid host 'A.org'"},
      {"a.org\tx/\tpkg\tusr/share\t\n", "m.tsv:2: url_prefix must start and end with '/'"},
      {"a.org\t/x\tpkg\tusr/share\t\n", "m.tsv:2: url_prefix must start and end with '/'"},
      {"a.org\t/x/\tpkg\t/usr/share\t\n", "m.tsv:2: html_root must be relative"},
      {"a.org\t/x/\tpkg\tusr/../etc\t\n", "m.tsv:2: html_root must not contain"},
      {"a.org\t/x/\tpkg\tusr/share\ta/*,,b/*\n", "m.tsv:2: empty glob"},
      {"a.org\t/x/\t\tusr/share\t\n", "m.tsv:2: invalid package name"},
      {"a.org\t/x/\tp\tusr/share\t\tsixth\n", "got 6"},
  };
  for (const BadRow& b : kBad) {
    auto m = ParseManifest(std::string(kHeader) + b.row, "m.tsv");
    ASSERT_FALSE(m.ok()) << b.row;
    EXPECT_THAT(m.status().message(), HasSubstr(b.message)) << b.row;
  }
}

TEST(ManifestTest, RejectsConflictingRowsNamingBothLines) {
  auto m = ParseManifest(std::string(kHeader) + "a.org\t/x/\tp1\tusr/a\t\n\na.org\t/x/\tp2\tusr/b\t\n",
                         "m.tsv");
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), HasSubstr("m.tsv:4:"));
  EXPECT_THAT(m.status().message(), HasSubstr("line 2"));
  auto overlay = ParseManifest(
      std::string(kHeader) + "a.org\t/x/\tp1\tusr/a\tx/*\na.org\t/x/\tp2\tusr/a\t\n", "m.tsv");
  ASSERT_FALSE(overlay.ok());
  EXPECT_THAT(overlay.status().message(), HasSubstr("same exclude list"));
}

TEST(ManifestTest, RejectsMissingHeaderAndEmptyManifest) {
  auto no_header = ParseManifest("a.org\t/x/\tp\tusr/a\t\n", "m.tsv");
  ASSERT_FALSE(no_header.ok());
  EXPECT_THAT(no_header.status().message(), HasSubstr("m.tsv:1: expected header"));
  auto empty = ParseManifest(kHeader, "m.tsv");
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(empty.status().message(), HasSubstr("no rows"));
  EXPECT_FALSE(ReadManifestFile("/nonexistent/m.tsv").ok());
}

TEST(PackagePinsTest, ParsesTheSharedPackagesFile) {
  auto pins = ReadPackagePinsFile(std::string(TOPICRAWL_SHARED_DIR) + "/corpus/packages-dev.tsv");
  ASSERT_TRUE(pins.ok()) << pins.status().message();
  ASSERT_TRUE(pins->count("git-doc"));
  EXPECT_EQ(pins->at("git-doc").version, "1:2.39.5-0+deb12u3");
  EXPECT_EQ(pins->at("git-doc").sha256.size(), 64u);
}

TEST(PackagePinsTest, RejectsBadShaAndDuplicates) {
  const char* kHead = "package\tversion\tdeb_sha256\n";
  auto bad_sha = ParsePackagePins(std::string(kHead) + "p\t1.0\tabc\n", "p.tsv");
  ASSERT_FALSE(bad_sha.ok());
  EXPECT_THAT(bad_sha.status().message(), HasSubstr("p.tsv:2: deb_sha256 must be 64 hex"));
  auto dup = ParsePackagePins(std::string(kHead) + "p\t1.0\t\np\t1.1\t\n", "p.tsv");
  ASSERT_FALSE(dup.ok());
  EXPECT_THAT(dup.status().message(), HasSubstr("p.tsv:3: package p listed twice"));
  auto no_sha = ParsePackagePins(std::string(kHead) + "p\t1.0\n", "p.tsv");
  ASSERT_TRUE(no_sha.ok());
  EXPECT_TRUE(no_sha->at("p").sha256.empty());
}

}  // namespace
}  // namespace topicrawl::web
