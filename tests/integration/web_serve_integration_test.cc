// End to end: `topicrawl web index`, `web serve` and `web stop` on the
// committed fixture web (tests/integration/web_fixture), checked with curl
// over HTTP and HTTPS against the real nginx on ports picked by the kernel.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/test_require.h"
#include "web/subprocess.h"

namespace topicrawl::web {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct Fetched {
  int code = 0;
  std::string body;
};

class WebServeIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::exists("/usr/sbin/nginx") || RunCommand({"curl", "--version"}, Captured("/dev/null")).exit_code != 0) {
      skip_ = true;
      return;
    }
    dir_ = (fs::temp_directory_path() / ("web_serve_it_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    RunResult r = RunCommand({TOPICRAWL_BINARY, "web", "serve", "--dir", dir_ + "/inst", "--manifest",
                       std::string(WEB_FIXTURE_DIR) + "/manifest.tsv", "--root",
                       std::string(WEB_FIXTURE_DIR) + "/root", "--port", "0", "--tls-port", "0"},
                      Captured(dir_ + "/serve.out"));
    serve_output_ = r.output;
    serve_exit_ = r.exit_code;
    std::smatch m;
    static const std::regex kLine(
        "crawl-args: --connect-to :80:127\\.0\\.0\\.1:(\\d+) --connect-to :443:127\\.0\\.0\\.1:(\\d+) "
        "--cacert (\\S+)\n");
    if (std::regex_search(serve_output_, m, kLine)) {
      http_port_ = std::stoi(m[1]);
      tls_port_ = std::stoi(m[2]);
      ca_ = m[3];
    }
  }
  static void TearDownTestSuite() {
    if (skip_) return;
    RunCommand({TOPICRAWL_BINARY, "web", "stop", "--dir", dir_ + "/inst"}, Captured(dir_ + "/stop.out"));
    fs::remove_all(dir_);
  }
  void SetUp() override {
    if (skip_) TOPICRAWL_SKIP_UNLESS_REQUIRED("nginx or curl not installed");
    ASSERT_EQ(serve_exit_, 0) << serve_output_;
    ASSERT_GT(http_port_, 0) << serve_output_;
  }

  // curl with the crawl arguments `web serve` printed.
  static Fetched Get(const std::string& url) {
    std::string body_file = dir_ + "/body";
    fs::remove(body_file);
    RunResult r = RunCommand({"curl", "-s", "-o", body_file, "-w", "%{http_code}", "--connect-to",
                       ":80:127.0.0.1:" + std::to_string(http_port_), "--connect-to",
                       ":443:127.0.0.1:" + std::to_string(tls_port_), "--cacert", ca_, url},
                      Captured(dir_ + "/curl.out"));
    Fetched f;
    f.code = r.exit_code == 0 ? std::atoi(r.output.c_str()) : -r.exit_code;
    std::ifstream in(body_file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    f.body = text.str();
    return f;
  }

  static inline bool skip_ = false;
  static inline std::string dir_, serve_output_, ca_;
  static inline int serve_exit_ = -1, http_port_ = 0, tls_port_ = 0;
};

TEST_F(WebServeIntegrationTest, PrintsExactlyOneCrawlArgsLine) {
  std::ifstream in(dir_ + "/serve.out");
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) lines += line.rfind("crawl-args: ", 0) == 0;
  EXPECT_EQ(lines, 1) << serve_output_;
  EXPECT_EQ(ca_, fs::absolute(dir_ + "/inst/ca.pem").string());
}

TEST_F(WebServeIntegrationTest, ServesPagesOverHttpAndHttps) {
  Fetched http = Get("http://alpha.test/docs/index.html");
  EXPECT_EQ(http.code, 200);
  EXPECT_THAT(http.body, HasSubstr("marker:alpha-index"));
  Fetched https = Get("https://alpha.test/docs/page%20one.html");
  EXPECT_EQ(https.code, 200);  // the certificate verified against ca.pem
  EXPECT_THAT(https.body, HasSubstr("marker:alpha-page-one"));
  EXPECT_THAT(Get("https://gamma.test/").body, HasSubstr("marker:gamma-index"));
}

TEST_F(WebServeIntegrationTest, TrailingSlashServesIndexAndBareDirectoryRedirects) {
  Fetched sub = Get("http://alpha.test/docs/sub/");
  EXPECT_EQ(sub.code, 200);
  EXPECT_THAT(sub.body, HasSubstr("marker:alpha-sub"));
  EXPECT_EQ(Get("http://alpha.test/docs/sub").code, 301);
  EXPECT_EQ(Get("http://alpha.test/docs/sub/noindex/").code, 403);
}

TEST_F(WebServeIntegrationTest, UnknownHostsAndPathsOutsideThePrefixAre404) {
  EXPECT_EQ(Get("http://unknown.test/docs/index.html").code, 404);
  EXPECT_EQ(Get("https://unknown.test/").code, -60);  // not in the SAN list: TLS fails
  EXPECT_EQ(Get("http://alpha.test/other/index.html").code, 404);
  EXPECT_EQ(Get("http://alpha.test/").code, 404);
}

TEST_F(WebServeIntegrationTest, ExcludeGlobsAre404ButSimilarPathsElsewhereServe) {
  EXPECT_EQ(Get("http://alpha.test/docs/de/index.html").code, 404);
  EXPECT_EQ(Get("https://alpha.test/docs/de/").code, 404);
  EXPECT_EQ(Get("http://alpha.test/docs/en/de/keep.html").code, 200);
}

TEST_F(WebServeIntegrationTest, OverlayRowsServeBothPackagesAndQueryIsIgnored) {
  EXPECT_THAT(Get("http://beta.test/help/zh-CN/a.html").body, HasSubstr("marker:beta-zh-cn"));
  EXPECT_THAT(Get("http://beta.test/help/zh-TW/a.html").body, HasSubstr("marker:beta-zh-tw"));
  EXPECT_THAT(Get("http://alpha.test/docs/link.html?x=1").body, HasSubstr("marker:alpha-index"));
}

TEST_F(WebServeIntegrationTest, SiteIndexListsEveryServedHtmlPage) {
  RunResult r = RunCommand({TOPICRAWL_BINARY, "web", "index", "--manifest",
                     std::string(WEB_FIXTURE_DIR) + "/manifest.tsv", "--root",
                     std::string(WEB_FIXTURE_DIR) + "/root", "--out", dir_ + "/index.tsv"},
                    Captured(dir_ + "/index.out"));
  ASSERT_TRUE(r.ok()) << r.output;
  std::ifstream in(dir_ + "/index.tsv");
  std::string line;
  std::vector<std::string> urls;
  std::getline(in, line);
  while (std::getline(in, line)) urls.push_back(line.substr(0, line.find('\t')));
  EXPECT_THAT(urls, ElementsAre("http://alpha.test/docs/en/de/keep.html",
                                "http://alpha.test/docs/index.html", "http://alpha.test/docs/link.html",
                                "http://alpha.test/docs/page%20one.html",
                                "http://alpha.test/docs/sub/index.html",
                                "http://beta.test/help/zh-CN/a.html",
                                "http://beta.test/help/zh-TW/a.html", "http://gamma.test/index.html"));
  // Every listed page is served.
  for (const std::string& url : urls) EXPECT_EQ(Get(url).code, 200) << url;
}

// Runs last (gtest keeps declaration order): stop, then the ports are closed.
TEST_F(WebServeIntegrationTest, StopShutsNginxDown) {
  std::string pid_file = dir_ + "/inst/nginx.pid";
  ASSERT_TRUE(fs::exists(pid_file));
  RunResult r = RunCommand({TOPICRAWL_BINARY, "web", "stop", "--dir", dir_ + "/inst"},
                    Captured(dir_ + "/stop.out"));
  EXPECT_TRUE(r.ok()) << r.output;
  EXPECT_FALSE(fs::exists(pid_file));
  EXPECT_EQ(Get("http://alpha.test/docs/index.html").code, -7);  // curl: cannot connect
}

}  // namespace
}  // namespace topicrawl::web
