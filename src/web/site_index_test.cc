#include "web/site_index.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace topicrawl::web {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// README §3: quote(unquote(path), safe="/!$&'()*+,;=:@~"), upper-case hex.
TEST(PercentEncodePathTest, KeepsSubDelimsAndEncodesEverythingElse) {
  EXPECT_EQ(PercentEncodePath("cpp/operator=.html"), "cpp/operator=.html");
  EXPECT_EQ(PercentEncodePath("a b/\xe4\xb8\xad?#%[]\"<>^`{|}"),
            "a%20b/%E4%B8%AD%3F%23%25%5B%5D%22%3C%3E%5E%60%7B%7C%7D");
  EXPECT_EQ(PercentEncodePath("!$&'()*+,;=:@~-._"), "!$&'()*+,;=:@~-._");
}

TEST(PercentEncodePathTest, DecodeThenEncodeIsCanonical) {
  EXPECT_EQ(PercentEncodePath(PercentDecode("a%20b%2fc%3d")), "a%20b/c=");
  EXPECT_EQ(PercentDecode("bad%zzescape%4"), "bad%zzescape%4");
}

TEST(UrlForFileTest, JoinsHostPrefixAndEncodedRelpath) {
  ManifestRow row{"en.cppreference.com", "/w/", "cppreference-doc-en-html", "usr/share/x", {}, 2};
  EXPECT_EQ(UrlForFile(row, "cpp/string/basic string.html"),
            "http://en.cppreference.com/w/cpp/string/basic%20string.html");
}

class ListServedHtmlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("site_index_test_" + std::to_string(::getpid()));
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void Touch(const std::string& rel) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << "<html></html>";
  }
  Manifest Parse(const std::string& rows) {
    auto m = ParseManifest("host\turl_prefix\tpackage\thtml_root\texclude\n" + rows, "t.tsv");
    EXPECT_TRUE(m.ok()) << m.status().message();
    return *m;
  }
  std::vector<std::string> Urls(const Manifest& m) {
    auto files = ListServedHtml(m, root_.string());
    EXPECT_TRUE(files.ok()) << files.status().message();
    std::vector<std::string> urls;
    for (const SiteFile& f : *files) urls.push_back(f.url);
    return urls;
  }
  fs::path root_;
};

TEST_F(ListServedHtmlTest, ListsHtmlAndHtmIncludingFileSymlinksButNotOtherFiles) {
  Touch("doc/html/index.html");
  Touch("doc/html/a/page.htm");
  Touch("doc/html/style.css");
  Touch("doc/html/.html");  // a real boost file name; Python endswith() counts it
  Touch("doc/html/a/b c.html");
  fs::create_symlink("page.htm", root_ / "doc/html/a/alias.html");
  fs::create_symlink("missing.html", root_ / "doc/html/a/broken.html");
  Manifest m = Parse("x.org\t/docs/\tp\tdoc/html\t\n");
  EXPECT_THAT(Urls(m), ElementsAre("http://x.org/docs/.html", "http://x.org/docs/a/alias.html",
                                   "http://x.org/docs/a/b%20c.html",
                                   "http://x.org/docs/a/page.htm", "http://x.org/docs/index.html"));
}

TEST_F(ListServedHtmlTest, ExcludeGlobsMatchAcrossSlashes) {
  Touch("m/en/index.html");
  Touch("m/de/index.html");
  Touch("m/de/deep/x.html");
  Touch("m/en/de/x.html");
  Manifest m = Parse("a.org\t/docs/2.4/\tapache2-doc\tm\tde/*\n");
  EXPECT_THAT(Urls(m), ElementsAre("http://a.org/docs/2.4/en/de/x.html",
                                   "http://a.org/docs/2.4/en/index.html"));
}

TEST_F(ListServedHtmlTest, OverlayRowsServeTheUnionOnce) {
  Touch("help/zh-CN/a.html");
  Touch("help/zh-TW/a.html");
  Manifest m = Parse("h.org\t/7.4/\tcn\thelp\t\nh.org\t/7.4/\ttw\thelp\t\n");
  auto files = ListServedHtml(m, root_.string());
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[0].url, "http://h.org/7.4/zh-CN/a.html");
  EXPECT_EQ((*files)[0].packages, "cn,tw");
}

TEST_F(ListServedHtmlTest, LongerPrefixOfSameHostShadowsShorterOne) {
  Touch("r1/index.html");
  Touch("r1/sub/x.html");  // URL /sub/x.html belongs to the /sub/ row
  Touch("r2/y.html");
  Manifest m = Parse("h.org\t/\tp1\tr1\t\nh.org\t/sub/\tp2\tr2\t\n");
  EXPECT_THAT(Urls(m), ElementsAre("http://h.org/index.html", "http://h.org/sub/y.html"));
}

TEST_F(ListServedHtmlTest, MissingHtmlRootNamesTheRow) {
  Manifest m = Parse("h.org\t/\tp1\tnot/there\t\n");
  auto files = ListServedHtml(m, root_.string());
  ASSERT_FALSE(files.ok());
  EXPECT_THAT(files.status().message(), HasSubstr("manifest line 2"));
  EXPECT_THAT(files.status().message(), HasSubstr("p1"));
}

TEST_F(ListServedHtmlTest, WritesSiteIndexTsv) {
  Touch("d/i.html");
  Manifest m = Parse("h.org\t/\tp1\td\t\n");
  auto files = ListServedHtml(m, root_.string());
  ASSERT_TRUE(files.ok());
  std::string out = (root_ / "site-index.tsv").string();
  ASSERT_TRUE(WriteSiteIndex(*files, out).ok());
  std::ifstream in(out);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(header, "url\thost\tpackages\trelpath");
  EXPECT_EQ(row, "http://h.org/i.html\th.org\tp1\ti.html");
}

}  // namespace
}  // namespace topicrawl::web
