// `web build --rounds versions` without the network: two versions of a fake
// documentation package and one package with a single version, built as
// real .debs with dpkg-deb into DIR/debs (so nothing is downloaded), then
// BuildVersionRounds, the truth of round 1, and round 0/1 served by the real
// nginx through `topicrawl web serve --round`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "web/evolved_web.h"
#include "web/subprocess.h"
#include "web/version_rounds.h"

namespace topicrawl::web {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

void Spit(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string Page(const std::string& body) { return "<html><body>" + body + "</body></html>\n"; }

// Builds DIR/debs/<package>_<version>_all.deb from `files` (path under / -> text).
bool MakeDeb(const std::string& dir, const std::string& package, const std::string& version,
             const std::map<std::string, std::string>& files) {
  const std::string tree = dir + "/pkg-" + package + "-" + version;
  Spit(tree + "/DEBIAN/control", "Package: " + package + "\nVersion: " + version +
                                     "\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: test\n");
  for (const auto& [path, text] : files) Spit(tree + path, text);
  fs::create_directories(dir + "/debs");
  RunResult r = RunCommand({"dpkg-deb", "--root-owner-group", "--build", tree,
                            dir + "/debs/" + package + "_" + version + "_all.deb"},
                           Captured(dir + "/dpkg.out"));
  fs::remove_all(tree);
  return r.ok();
}

class WebVersionsIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (RunCommand({"dpkg-deb", "--version"}, Captured("/dev/null")).exit_code != 0) GTEST_SKIP() << "no dpkg-deb";
    dir_ = (fs::temp_directory_path() / ("web_versions_it_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir_);
    const std::string doc = "/usr/share/doc/fake/html/";
    ASSERT_TRUE(MakeDeb(dir_, "fake-doc", "1.0-1",
                        {{doc + "index.html", Page("<a href=a.html>a</a> <a href=b.html>b</a> <a href=c.html>c</a>")},
                         {doc + "a.html", Page("<p>stays</p>")},
                         {doc + "b.html", Page("<p>version 1.0</p>")},
                         {doc + "c.html", Page("<p>removed in 2.0</p>")}}));
    ASSERT_TRUE(MakeDeb(dir_, "fake-doc", "2.0-1",
                        {{doc + "index.html", Page("<a href=a.html>a</a> <a href=b.html>b</a> <a href=new.html>new</a>")},
                         {doc + "a.html", Page("<p>stays</p>")},
                         {doc + "b.html", Page("<p>version 2.0</p>")},
                         {doc + "new.html", Page("<p>added in 2.0</p>")}}));
    ASSERT_TRUE(MakeDeb(dir_, "one-doc", "5", {{"/usr/share/one/index.html", Page("<p>only version</p>")}}));
    manifest_text_ =
        "host\turl_prefix\tpackage\thtml_root\texclude\n"
        "fake.test\t/docs/\tfake-doc\tusr/share/doc/fake/html\t\n"
        "one.test\t/\tone-doc\tusr/share/one\t\n";
  }
  void TearDown() override {
    if (dir_.empty()) return;
    RunCommand({TOPICRAWL_BINARY, "web", "stop", "--dir", dir_ + "/web"}, Captured("/dev/null"));
    fs::remove_all(dir_);
  }

  StatusOr<VersionRoundsReport> Build(const std::string& web) {
    StatusOr<Manifest> manifest = ParseManifest(manifest_text_, "test");
    if (!manifest.ok()) return manifest.status();
    // The debs are where the builder looks for them: no download.
    std::error_code ec;
    fs::create_directories(web + "/debs", ec);
    for (const auto& e : fs::directory_iterator(dir_ + "/debs")) {
      fs::copy_file(e.path(), web + "/debs/" + e.path().filename().string(), fs::copy_options::skip_existing, ec);
    }
    VersionRoundsOptions o;
    o.dir = web;
    o.manifest_text = manifest_text_;
    o.versions = {{"fake-doc", {"1.0-1", "2.0-1"}}, {"one-doc", {"5"}}};
    return BuildVersionRounds(*manifest, o);
  }

  std::string dir_, manifest_text_;
};

TEST_F(WebVersionsIntegrationTest, RoundOneHoldsTheDifferencesOfTheNextVersion) {
  auto report = Build(dir_ + "/web");
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(report->rounds, 1);
  EXPECT_EQ(Slurp(dir_ + "/web/truth/round-0.tsv"),
            "url\tstate\nhttp://fake.test/docs/a.html\tnew\nhttp://fake.test/docs/b.html\tnew\n"
            "http://fake.test/docs/c.html\tnew\nhttp://fake.test/docs/index.html\tnew\n"
            "http://one.test/index.html\tnew\n");
  EXPECT_EQ(Slurp(dir_ + "/web/truth/round-1.tsv"),
            "url\tstate\nhttp://fake.test/docs/a.html\tunchanged\nhttp://fake.test/docs/b.html\tchanged\n"
            "http://fake.test/docs/c.html\tgone\nhttp://fake.test/docs/index.html\tchanged\n"
            "http://fake.test/docs/new.html\tnew\nhttp://one.test/index.html\tunchanged\n");
  EXPECT_EQ(Slurp(dir_ + "/web/truth/hubs-1.tsv"), "url\tnew_links\nhttp://fake.test/docs/index.html\t1\n");
  EXPECT_FALSE(fs::exists(dir_ + "/web/versions-scratch"));
  auto web = OpenEvolvedWeb(dir_ + "/web");
  ASSERT_TRUE(web.ok()) << web.status().message();
  EXPECT_EQ(web->mode, "versions");
  EXPECT_EQ(web->meta.at("versions.fake-doc"), "1.0-1 2.0-1");

  if (!fs::exists("/usr/sbin/nginx") || RunCommand({"curl", "--version"}, Captured("/dev/null")).exit_code != 0) {
    GTEST_SKIP() << "nginx or curl not installed";
  }
  for (int round : {0, 1}) {
    RunResult r = RunCommand({TOPICRAWL_BINARY, "web", "serve", "--dir", dir_ + "/web", "--round",
                              std::to_string(round), "--port", "0", "--tls-port", "0"},
                             Captured(dir_ + "/serve.out"));
    ASSERT_TRUE(r.ok()) << r.output;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.output, m, std::regex("--connect-to (:80:127\\.0\\.0\\.1:\\d+)"))) << r.output;
    auto get = [&](const std::string& url) {
      RunResult c = RunCommand({"curl", "-s", "-w", "\n%{http_code}", "--connect-to", m[1].str(), url},
                               Captured(dir_ + "/curl.out"));
      return c.output;
    };
    if (round == 0) {
      EXPECT_THAT(get("http://fake.test/docs/b.html"), HasSubstr("version 1.0"));
      EXPECT_THAT(get("http://fake.test/docs/new.html"), HasSubstr("\n404"));
      EXPECT_THAT(get("http://fake.test/docs/c.html"), HasSubstr("\n200"));
    } else {
      EXPECT_THAT(get("http://fake.test/docs/b.html"), HasSubstr("version 2.0"));
      EXPECT_THAT(get("http://fake.test/docs/new.html"), HasSubstr("added in 2.0"));
      EXPECT_THAT(get("http://fake.test/docs/c.html"), HasSubstr("\n404"));
      EXPECT_THAT(get("http://fake.test/docs/"), HasSubstr("new.html"));
      EXPECT_THAT(get("http://one.test/"), HasSubstr("only version"));
    }
  }
}

TEST_F(WebVersionsIntegrationTest, RefusesARootHoldingOtherVersionsAndExistingRounds) {
  ASSERT_TRUE(Build(dir_ + "/web").ok());
  // Again into the same directory: the rounds exist.
  auto again = Build(dir_ + "/web");
  ASSERT_FALSE(again.ok());
  EXPECT_THAT(again.status().message(), HasSubstr("already holds an evolved web"));
  // A web built from the newest version is not a round-0 tree.
  Spit(dir_ + "/other/extracted/fake-doc", "fake-doc_2.0-1_all.deb\n");
  auto other = Build(dir_ + "/other");
  ASSERT_FALSE(other.ok());
  EXPECT_THAT(other.status().message(), HasSubstr("new directory"));
  EXPECT_FALSE(fs::exists(dir_ + "/other/rounds"));
}

}  // namespace
}  // namespace topicrawl::web
