#include "web/nginx_web.h"

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
using ::testing::Not;

Manifest ParseOrDie(const std::string& rows) {
  auto m = ParseManifest("host\turl_prefix\tpackage\thtml_root\texclude\n" + rows, "t.tsv");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return *m;
}

NginxConfigOptions Options() {
  NginxConfigOptions o;
  o.dir = "/srv/web";
  o.root = "/srv/web/root";
  o.http_port = 18080;
  o.tls_port = 18443;
  o.cert_file = "/srv/web/server.pem";
  o.key_file = "/srv/web/server.key";
  return o;
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) {
    ++n;
  }
  return n;
}

TEST(RenderNginxConfigTest, OneServerPerHostPlusDefaultServer) {
  Manifest m = ParseOrDie(
      "a.org\t/docs/\tpa\tusr/share/a\t\n"
      "b.org\t/\tpb\tusr/share/b\t\n");
  auto conf = RenderNginxConfig(m, Options());
  ASSERT_TRUE(conf.ok()) << conf.status().message();
  EXPECT_THAT(*conf, HasSubstr("listen 127.0.0.1:18080 default_server;"));
  EXPECT_THAT(*conf, HasSubstr("listen 127.0.0.1:18443 ssl default_server;"));
  EXPECT_THAT(*conf, HasSubstr("server_name a.org;"));
  EXPECT_THAT(*conf, HasSubstr("server_name b.org;"));
  EXPECT_EQ(Count(*conf, "listen 127.0.0.1:18443 ssl;"), 2u);
  EXPECT_THAT(*conf, HasSubstr("location \"/docs/\" { alias \"/srv/web/root/usr/share/a/\"; }"));
  EXPECT_THAT(*conf, HasSubstr("location \"/\" { alias \"/srv/web/root/usr/share/b/\"; }"));
  // a.org has no "/" row, so everything else on it is 404; b.org has one.
  EXPECT_EQ(Count(*conf, "location / { return 404; }"), 1u);
}

TEST(RenderNginxConfigTest, TunedForThroughputWithPathsInsideDir) {
  auto conf = RenderNginxConfig(ParseOrDie("a.org\t/d/\tp\tr\t\n"), Options());
  ASSERT_TRUE(conf.ok());
  for (const char* s : {"access_log off;", "sendfile on;", "keepalive_requests 1000000;",
                        "open_file_cache max=", "worker_processes 1;",
                        "pid \"/srv/web/nginx.pid\";", "client_body_temp_path \"/srv/web/tmp/"}) {
    EXPECT_THAT(*conf, HasSubstr(s));
  }
  EXPECT_THAT(*conf, Not(HasSubstr("/var/")));
  EXPECT_THAT(*conf, Not(HasSubstr("user root")));
}

TEST(RenderNginxConfigTest, CacheAndConnectionsFitTheDescriptorLimit) {
  NginxConfigOptions o = Options();
  o.max_open_files = 20000;
  auto conf = RenderNginxConfig(ParseOrDie("a.org\t/d/\tp\tr\t\n"), o);
  ASSERT_TRUE(conf.ok());
  EXPECT_THAT(*conf, HasSubstr("worker_rlimit_nofile 20000;"));
  EXPECT_THAT(*conf, HasSubstr("worker_connections 5000;"));
  EXPECT_THAT(*conf, HasSubstr("open_file_cache max=10000 "));
}

TEST(RenderNginxConfigTest, ExcludeGlobsBecomeAnchoredRegexLocations) {
  auto conf = RenderNginxConfig(
      ParseOrDie("a.org\t/docs/2.4/\tapache2-doc\tm\tda/*,pt-br/*\n"), Options());
  ASSERT_TRUE(conf.ok());
  // Backslashes are doubled inside the nginx string; nginx reads "\." back.
  EXPECT_THAT(*conf, HasSubstr("location ~ \"^/docs/2\\\\.4/(?:da/.*|pt-br/.*)$\" { return 404; }"));
}

TEST(RenderNginxConfigTest, OverlayRowsGetOneLocation) {
  auto conf = RenderNginxConfig(ParseOrDie("h.org\t/7.4/\tcn\thelp\t\nh.org\t/7.4/\ttw\thelp\t\n"),
                                Options());
  ASSERT_TRUE(conf.ok());
  EXPECT_EQ(Count(*conf, "location \"/7.4/\""), 1u);
  EXPECT_EQ(Count(*conf, "server_name h.org;"), 1u);
}

TEST(RenderNginxConfigTest, RejectsRelativeOrUnsafePaths) {
  Manifest m = ParseOrDie("a.org\t/d/\tp\tr\t\n");
  NginxConfigOptions o = Options();
  o.root = "relative/root";
  EXPECT_FALSE(RenderNginxConfig(m, o).ok());
  o = Options();
  o.dir = "/srv/$web";
  EXPECT_FALSE(RenderNginxConfig(m, o).ok());
  o = Options();
  o.cert_file.clear();
  EXPECT_FALSE(RenderNginxConfig(m, o).ok());
}

class NginxFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("nginx_web_test_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir_);
    fs::create_directories(dir_ + "/root/r");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(NginxFilesTest, CertificateCoversEveryHostAndIsReusedUntilHostsChange) {
  ASSERT_TRUE(EnsureCertificates(dir_, {"a.org", "www.b.org"}).ok());
  RunResult text = RunCommand({"openssl", "x509", "-in", dir_ + "/server.pem", "-noout", "-text"},
                       Captured(dir_ + "/x509.txt"));
  ASSERT_TRUE(text.ok()) << text.output;
  EXPECT_THAT(text.output, HasSubstr("DNS:a.org"));
  EXPECT_THAT(text.output, HasSubstr("DNS:www.b.org"));
  RunResult verify = RunCommand({"openssl", "verify", "-CAfile", dir_ + "/ca.pem", dir_ + "/server.pem"},
                         Captured(dir_ + "/verify.txt"));
  EXPECT_TRUE(verify.ok()) << verify.output;
  auto before = fs::last_write_time(dir_ + "/server.pem");
  ASSERT_TRUE(EnsureCertificates(dir_, {"a.org", "www.b.org"}).ok());
  EXPECT_EQ(fs::last_write_time(dir_ + "/server.pem"), before);
  ASSERT_TRUE(EnsureCertificates(dir_, {"a.org", "c.org"}).ok());
  RunResult again = RunCommand({"openssl", "x509", "-in", dir_ + "/server.pem", "-noout", "-text"},
                        Captured(dir_ + "/x509.txt"));
  EXPECT_THAT(again.output, HasSubstr("DNS:c.org"));
}

TEST_F(NginxFilesTest, GeneratedConfigPassesNginxSyntaxCheck) {
  if (!fs::exists("/usr/sbin/nginx")) TOPICRAWL_SKIP_UNLESS_REQUIRED("nginx not installed");
  ASSERT_TRUE(EnsureCertificates(dir_, {"a.org"}).ok());
  fs::create_directories(dir_ + "/logs");
  fs::create_directories(dir_ + "/tmp");
  NginxConfigOptions o;
  o.dir = dir_;
  o.root = dir_ + "/root";
  o.http_port = PickLoopbackPort(0);
  o.tls_port = PickLoopbackPort(0);
  o.cert_file = dir_ + "/server.pem";
  o.key_file = dir_ + "/server.key";
  o.run_workers_as_root = ::geteuid() == 0;
  auto conf = RenderNginxConfig(
      ParseOrDie("a.org\t/d/\tp\tr\tx/*,[!a]?.html\na.org\t/e/\tq\tr\t\n"), o);
  ASSERT_TRUE(conf.ok());
  std::ofstream(dir_ + "/nginx.conf") << *conf;
  RunResult r = RunCommand({"/usr/sbin/nginx", "-t", "-c", dir_ + "/nginx.conf", "-p", dir_ + "/", "-e",
                     dir_ + "/logs/error.log"},
                    Captured(dir_ + "/t.log"));
  EXPECT_TRUE(r.ok()) << r.output << "\n" << *conf;
}

TEST(PickLoopbackPortTest, ReturnsBindablePorts) {
  int any = PickLoopbackPort(0);
  EXPECT_GT(any, 0);
  EXPECT_EQ(PickLoopbackPort(any), any);  // free again after the probe closed it
}

}  // namespace
}  // namespace topicrawl::web
