#include "web/web_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/test_require.h"
#include "web/subprocess.h"

namespace topicrawl::web {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// Builds a real (tiny) .deb with dpkg-deb into DIR/debs, so BuildWeb finds
// the pinned version there and never calls apt-get.
class WebBuilderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("web_builder_test_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir_);
    std::string pkg = dir_ + "/pkg";
    fs::create_directories(pkg + "/DEBIAN");
    fs::create_directories(pkg + "/usr/share/doc/tiny/html/sub");
    std::ofstream(pkg + "/DEBIAN/control") << "Package: tiny-doc\nVersion: 1:1.0-1\nArchitecture: all\n"
                                              "Maintainer: t <t@example.org>\nDescription: tiny\n";
    std::ofstream(pkg + "/usr/share/doc/tiny/html/index.html") << "<html>i</html>";
    std::ofstream(pkg + "/usr/share/doc/tiny/html/sub/a b.html") << "<html>a</html>";
    fs::create_directories(dir_ + "/web/debs");
    deb_ = dir_ + "/web/debs/tiny-doc_1%3a1.0-1_all.deb";
    RunResult r = RunCommand({"dpkg-deb", "--root-owner-group", "--build", pkg, deb_},
                             Captured(dir_ + "/dpkg.log"));
    available_ = r.ok();
    RunResult sum = RunCommand({"sha256sum", deb_}, Captured(dir_ + "/sum.log"));
    sha_ = sum.output.substr(0, 64);
  }
  void TearDown() override { fs::remove_all(dir_); }

  StatusOr<BuildReport> Build(const std::string& sha) {
    const std::string text =
        "host\turl_prefix\tpackage\thtml_root\texclude\n"
        "tiny.test\t/docs/\ttiny-doc\tusr/share/doc/tiny/html\t\n";
    auto manifest = ParseManifest(text, "m.tsv");
    EXPECT_TRUE(manifest.ok());
    BuildOptions o;
    o.dir = dir_ + "/web";
    o.manifest_text = text;
    o.pins["tiny-doc"] = PackagePin{"tiny-doc", "1:1.0-1", sha, 2};
    return BuildWeb(*manifest, o);
  }

  std::string dir_, deb_, sha_;
  bool available_ = false;
};

TEST_F(WebBuilderTest, ReusesPinnedDebExtractsOnceAndWritesSiteIndex) {
  if (!available_) TOPICRAWL_SKIP_UNLESS_REQUIRED("dpkg-deb cannot build packages here");
  auto first = Build(sha_);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->reused, 1);
  EXPECT_EQ(first->downloaded, 0);
  EXPECT_EQ(first->extracted, 1);
  EXPECT_TRUE(first->mismatches.empty());
  EXPECT_EQ(first->html_pages, 2u);
  EXPECT_TRUE(fs::exists(dir_ + "/web/root/usr/share/doc/tiny/html/sub/a b.html"));
  std::ifstream index(dir_ + "/web/site-index.tsv");
  std::stringstream text;
  text << index.rdbuf();
  EXPECT_THAT(text.str(), HasSubstr("http://tiny.test/docs/sub/a%20b.html\ttiny.test\ttiny-doc\tsub/a b.html\n"));
  EXPECT_TRUE(fs::exists(dir_ + "/web/manifest.tsv"));

  auto second = Build(sha_);  // idempotent: nothing extracted again
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->extracted, 0);
  EXPECT_EQ(second->reused, 1);
}

TEST_F(WebBuilderTest, ReportsSha256MismatchWithoutFailingTheBuild) {
  if (!available_) TOPICRAWL_SKIP_UNLESS_REQUIRED("dpkg-deb cannot build packages here");
  auto report = Build(std::string(64, '0'));
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->mismatches.size(), 1u);
  EXPECT_THAT(report->mismatches[0], HasSubstr("tiny-doc 1:1.0-1: sha256 " + sha_));
}

}  // namespace
}  // namespace topicrawl::web
