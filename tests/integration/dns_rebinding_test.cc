// DNS rebinding and the address policy's escape hatches (issue #10).
//
// The seam: this test binary defines getaddrinfo(), which interposes libc's
// for libcurl (its resolver thread calls getaddrinfo through the PLT), so the
// real fetch path runs -- curl's resolver, its DNS cache, the
// CURLOPT_OPENSOCKETFUNCTION check, connect() -- with a scripted DNS: a name
// in the script gets the n-th answer on its n-th lookup (the last one
// repeats); every other name goes to the real resolver. No /etc/hosts, no
// network DNS.
//
// Rebinding: the name first answers a public address, then 127.0.0.1. A
// fetcher that judged the address with a lookup of its own and then let curl
// look the name up again would judge the public answer and connect to the
// loopback one; topicrawl judges the socket curl opens, so the loopback
// connection is refused and the server never sees it.
#include <dlfcn.h>
#include <netdb.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fetch/fetcher.h"
#include "support/test_http_server.h"

namespace {

struct ScriptedName {
  std::vector<std::string> answers;  // numeric address per lookup
  int lookups = 0;
};
std::mutex g_dns_mu;
std::map<std::string, ScriptedName> g_dns;

void ScriptDns(const std::string& name, std::vector<std::string> answers) {
  std::lock_guard<std::mutex> lock(g_dns_mu);
  g_dns[name] = {std::move(answers), 0};
}

int Lookups(const std::string& name) {
  std::lock_guard<std::mutex> lock(g_dns_mu);
  auto it = g_dns.find(name);
  return it == g_dns.end() ? 0 : it->second.lookups;
}

}  // namespace

// The scripted resolver (see the file comment). The answer list is built by
// the real getaddrinfo from the numeric address, so curl's freeaddrinfo()
// frees what it expects.
extern "C" int getaddrinfo(const char* node, const char* service, const struct addrinfo* hints,
                           struct addrinfo** res) {
  using Fn = int (*)(const char*, const char*, const struct addrinfo*, struct addrinfo**);
  static Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "getaddrinfo"));
  std::string answer;
  if (node != nullptr) {
    std::lock_guard<std::mutex> lock(g_dns_mu);
    auto it = g_dns.find(node);
    if (it != g_dns.end() && !it->second.answers.empty()) {
      ScriptedName& s = it->second;
      answer = s.answers[std::min<size_t>(s.lookups, s.answers.size() - 1)];
      ++s.lookups;
    }
  }
  if (answer.empty()) return real(node, service, hints, res);
  struct addrinfo h = hints != nullptr ? *hints : addrinfo{};
  h.ai_flags |= AI_NUMERICHOST;
  return real(answer.c_str(), service, &h, res);
}

namespace topicrawl {
namespace {

using ::testing::HasSubstr;
using testing::HtmlResponse;
using testing::TestHttpServer;
using testing::TextResponse;

namespace fs = std::filesystem;

// TEST-NET-2 (RFC 5737): a public-looking address that is never routed. The
// connection attempt to it fails or times out, which is all the first fetch
// needs: what matters is that the address policy let it through.
constexpr char kPublicAnswer[] = "198.51.100.7";

class DnsRebindingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    server_.Set("/secret", HtmlResponse("<p>internal</p>"));
    options_.allow_private = false;
    options_.connect_timeout_s = 1;
    options_.total_timeout_s = 3;
    port_ = std::to_string(server_.port());
  }

  // One fetch on a fetcher of its own: a fresh multi handle has an empty DNS
  // cache, as a crawl has once the name's cache entry expired.
  FetchResult Fetch(const std::string& url) {
    EXPECT_TRUE(ValidateFetcherOptions(options_).ok());
    auto fetcher = NewCurlFetcher(options_, SystemClock());
    CrawlTask task;
    task.url = url;
    fetcher->Submit(task, FetchKind::kPage);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      auto done = fetcher->Poll(std::chrono::milliseconds(500));
      if (!done.empty()) return done[0];
    }
    ADD_FAILURE() << "no result for " << url;
    return {};
  }

  TestHttpServer server_;
  FetcherOptions options_;
  std::string port_;
};

TEST_F(DnsRebindingTest, NameRebindingToLoopbackIsRefusedAtConnect) {
  const std::string name = "evil.rebind.test";
  ScriptDns(name, {kPublicAnswer, "127.0.0.1"});
  const std::string url = "http://" + name + ":" + port_ + "/secret";

  FetchResult first = Fetch(url);
  std::printf("first fetch (answer %s): %s: %s\n", kPublicAnswer,
              std::string(FetchStatusName(first.status)).c_str(), first.error.c_str());
  ASSERT_EQ(Lookups(name), 1) << "the scripted resolver was not used";
  EXPECT_NE(first.status, FetchStatus::kPrivateAddress) << first.error;
  EXPECT_THAT(first.error, ::testing::Not(HasSubstr("refused address")));

  FetchResult second = Fetch(url);
  EXPECT_EQ(Lookups(name), 2) << "one lookup per fetch: none of the fetcher's own";
  EXPECT_EQ(second.status, FetchStatus::kPrivateAddress) << second.error;
  EXPECT_THAT(second.error, HasSubstr("127.0.0.1"));
  EXPECT_THAT(second.error, HasSubstr("127.0.0.0/8 (loopback)"));
  EXPECT_TRUE(second.body.empty());
  EXPECT_EQ(server_.Connections(), 0) << "a connection reached the loopback server";
}

// The other private answers of a rebinding name: IPv6 loopback, the
// IPv4-mapped form, link-local (cloud metadata) and RFC 1918.
TEST_F(DnsRebindingTest, EveryPrivateAnswerIsRefused) {
  const std::vector<std::pair<std::string, std::string>> answers = {
      {"::1", "::1/128 (loopback)"},
      {"::ffff:127.0.0.1", "IPv4-mapped"},
      {"169.254.169.254", "169.254.0.0/16 (link-local)"},
      {"10.1.2.3", "10.0.0.0/8 (private)"},
      {"192.168.0.1", "192.168.0.0/16 (private)"}};
  int i = 0;
  for (const auto& [address, rule] : answers) {
    const std::string name = "r" + std::to_string(i++) + ".rebind.test";
    ScriptDns(name, {address});
    FetchResult r = Fetch("http://" + name + ":" + port_ + "/secret");
    EXPECT_EQ(Lookups(name), 1) << name;
    EXPECT_EQ(r.status, FetchStatus::kPrivateAddress) << address << ": " << r.error;
    EXPECT_THAT(r.error, HasSubstr(rule)) << address;
  }
  EXPECT_EQ(server_.Connections(), 0);
}

// --allow-private: the same rebinding name reaches the loopback server.
TEST_F(DnsRebindingTest, AllowPrivateStillConnects) {
  const std::string name = "allowed.rebind.test";
  ScriptDns(name, {"127.0.0.1"});
  options_.allow_private = true;
  FetchResult r = Fetch("http://" + name + ":" + port_ + "/secret");
  EXPECT_EQ(Lookups(name), 1);
  EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
  EXPECT_EQ(r.body, "<p>internal</p>");
}

// --connect-to: a mapped name is never looked up (curl connects to the
// mapping's address) and is allowed to be private, whatever DNS would say.
TEST_F(DnsRebindingTest, ConnectToMappedNameIsNotResolvedAndConnects) {
  const std::string name = "mapped.rebind.test";
  ScriptDns(name, {kPublicAnswer});
  options_.connect_to = {name + ":80:127.0.0.1:" + port_};
  FetchResult r = Fetch("http://" + name + "/secret");
  EXPECT_EQ(r.status, FetchStatus::kOk) << r.error;
  EXPECT_EQ(r.body, "<p>internal</p>");
  EXPECT_EQ(Lookups(name), 0);
}

// The same two escape hatches through the CLI flags of `topicrawl crawl`.
class CrawlFlagsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    server_.Set("/robots.txt", TextResponse("User-agent: *\nAllow: /\n"));
    server_.Set("/", HtmlResponse("<html><body><a href='/a.html'>a</a></body></html>"));
    server_.Set("/a.html", HtmlResponse("<html><body><p>a</p></body></html>"));
    base_ = ::testing::TempDir() + "/crawlflags-" + std::to_string(getpid());
    fs::remove_all(base_);
    fs::create_directories(base_);
  }
  void TearDown() override { fs::remove_all(base_); }

  // Runs `topicrawl crawl` on one seed; returns the exit code.
  int Crawl(const std::string& name, const std::string& seed,
            const std::vector<std::string>& flags) {
    std::ofstream(base_ + "/" + name + ".seeds") << seed << "\n";
    std::string cmd = std::string(TOPICRAWL_BINARY) + " crawl --seeds " + base_ + "/" + name +
                      ".seeds --out " + base_ + "/" + name + " --delay 0";
    for (const auto& f : flags) cmd += " " + f;
    cmd += " > " + base_ + "/" + name + ".log 2>&1";
    int rc = std::system(cmd.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }
  // status -> count of the crawl's pages rows.
  std::map<std::string, int> Statuses(const std::string& name) {
    std::map<std::string, int> out;
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2((base_ + "/" + name + "/crawl.db").c_str(), &db,
                              SQLITE_OPEN_READONLY, nullptr),
              SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT status FROM pages", -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW) {
      ++out[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))];
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
  }
  std::string Log(const std::string& name) {
    std::ifstream in(base_ + "/" + name + ".log");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  TestHttpServer server_;
  std::string base_;
};

TEST_F(CrawlFlagsTest, ConnectToAndAllowPrivateKeepWorking) {
  const std::string port = std::to_string(server_.port());
  // Default policy: the loopback seed is refused as what it is.
  ASSERT_EQ(Crawl("refused", "http://127.0.0.1:" + port + "/", {}), 0) << Log("refused");
  auto refused = Statuses("refused");
  EXPECT_EQ(refused["refused_address"], 1) << Log("refused");
  EXPECT_EQ(refused["ok"], 0);
  EXPECT_EQ(server_.Connections(), 0);
  // --allow-private: the same seed and its link are fetched.
  ASSERT_EQ(Crawl("allowed", "http://127.0.0.1:" + port + "/", {"--allow-private"}), 0)
      << Log("allowed");
  EXPECT_EQ(Statuses("allowed")["ok"], 2) << Log("allowed");
  // --connect-to: a mapped name works without --allow-private.
  ASSERT_EQ(
      Crawl("mapped", "http://site.test/", {"--connect-to", "site.test:80:127.0.0.1:" + port}), 0)
      << Log("mapped");
  auto mapped = Statuses("mapped");
  EXPECT_EQ(mapped["ok"], 2) << Log("mapped");
  EXPECT_EQ(mapped.size(), 1u) << Log("mapped");
}

}  // namespace
}  // namespace topicrawl
