#include "crawl/crawl_config.h"

#include <cstdio>
#include <fstream>

#include "gtest/gtest.h"

namespace topicrawl {
namespace {

std::string WriteTemp(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ReadSeedsFileTest, PlainListWithComments) {
  auto path = WriteTemp("seeds.txt",
                        "# my seeds\nhttp://a.test/\n\n  https://b.test/x  \n");
  auto seeds = ReadSeedsFile(path);
  ASSERT_TRUE(seeds.ok()) << seeds.status().message();
  EXPECT_EQ(*seeds, (std::vector<std::string>{"http://a.test/", "https://b.test/x"}));
}

TEST(ReadSeedsFileTest, TsvWithHomeUrlColumn) {
  auto path = WriteTemp("homes.tsv",
                        "host\thome_url\trole\na.test\thttp://a.test/i.html\thome\n"
                        "b.test\thttp://b.test/\thome\n");
  auto seeds = ReadSeedsFile(path);
  ASSERT_TRUE(seeds.ok()) << seeds.status().message();
  EXPECT_EQ(*seeds, (std::vector<std::string>{"http://a.test/i.html", "http://b.test/"}));
}

TEST(ReadSeedsFileTest, ErrorNamesTheLine) {
  auto path = WriteTemp("bad.txt", "http://a.test/\nftp://nope/\n");
  auto seeds = ReadSeedsFile(path);
  ASSERT_FALSE(seeds.ok());
  EXPECT_NE(seeds.status().message().find(":2:"), std::string::npos)
      << seeds.status().message();
}

TEST(ReadSeedsFileTest, TsvWithoutUrlColumnIsAnError) {
  auto path = WriteTemp("nourl.tsv", "host\trole\na\thome\n");
  EXPECT_FALSE(ReadSeedsFile(path).ok());
}

TEST(ReadSeedsFileTest, MissingFileIsAnError) {
  EXPECT_FALSE(ReadSeedsFile("/nonexistent/seeds.txt").ok());
}

TEST(CrawlConfigTomlTest, AppliesKnownKeys) {
  auto path = WriteTemp("c.toml",
                        "strategy = \"best-first\"\nmax_pages = 500\ndelay_s = 0\n"
                        "connect_to = [\":80:127.0.0.1:8080\"]\nrespect_robots = false\n");
  CrawlConfig c;
  Status s = LoadCrawlConfigToml(path, &c);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(c.strategy, "best-first");
  EXPECT_EQ(c.max_pages, 500);
  EXPECT_EQ(c.delay_s, 0.0);
  EXPECT_FALSE(c.respect_robots);
  ASSERT_EQ(c.connect_to.size(), 1u);
}

TEST(CrawlConfigTomlTest, UnknownKeyNamesKeyAndLine) {
  auto path = WriteTemp("u.toml", "max_pages = 5\nmax_pagez = 6\n");
  CrawlConfig c;
  Status s = LoadCrawlConfigToml(path, &c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("max_pagez"), std::string::npos);
  EXPECT_NE(s.message().find("line 2"), std::string::npos) << s.message();
}

TEST(CrawlConfigTomlTest, WrongTypeIsAnError) {
  auto path = WriteTemp("t.toml", "max_pages = \"many\"\n");
  CrawlConfig c;
  Status s = LoadCrawlConfigToml(path, &c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("integer"), std::string::npos) << s.message();
}

TEST(CrawlConfigTomlTest, SyntaxErrorNamesLine) {
  auto path = WriteTemp("s.toml", "a = 1\nb = [\n");
  CrawlConfig c;
  Status s = LoadCrawlConfigToml(path, &c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(":2:"), std::string::npos) << s.message();
}

TEST(CrawlConfigTomlTest, SnapshotRoundTrips) {
  CrawlConfig c;
  c.strategy = "wang-landau";
  c.max_pages = 1234;
  c.delay_s = 0.25;
  c.connect_to = {":80:127.0.0.1:1", ":443:127.0.0.1:2"};
  c.user_agent = "x \"quoted\" agent";
  auto path = WriteTemp("snap.toml", CrawlConfigToToml(c));
  CrawlConfig back;
  Status s = LoadCrawlConfigToml(path, &back);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(CrawlConfigToToml(back), CrawlConfigToToml(c));
}

TEST(ValidateCrawlConfigTest, RejectsBadConnectTo) {
  CrawlConfig c;
  c.out_dir = "/tmp/x";
  c.connect_to = {"127.0.0.1:8080"};
  EXPECT_FALSE(ValidateCrawlConfig(c).ok());
  c.connect_to = {":80:127.0.0.1:8080", "a.test:443:[::1]:8443"};
  EXPECT_TRUE(ValidateCrawlConfig(c).ok());
}

TEST(CrawlConfigTomlTest, ConnectionCacheIsReadAndChecked) {
  CrawlConfig c;
  EXPECT_EQ(c.connection_cache, 1024);
  auto path = WriteTemp("cc.toml", "connection_cache = 300\n");
  Status s = LoadCrawlConfigToml(path, &c);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(c.connection_cache, 300);
  c.out_dir = "/tmp/x";
  EXPECT_TRUE(ValidateCrawlConfig(c).ok());
  c.connection_cache = -1;
  Status bad = ValidateCrawlConfig(c);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("connection_cache"), std::string::npos) << bad.message();
}

TEST(CrawlConfigTomlTest, QueueInRamIsReadAndChecked) {
  CrawlConfig c;
  EXPECT_EQ(c.queue_in_ram, 1'000'000);
  EXPECT_EQ(c.queue_in_ram_per_host, 10'000);
  auto path = WriteTemp("q.toml", "queue_in_ram = 3000000\nqueue_in_ram_per_host = 50000\n");
  Status s = LoadCrawlConfigToml(path, &c);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(c.queue_in_ram, 3'000'000);
  EXPECT_EQ(c.queue_in_ram_per_host, 50'000);
  c.out_dir = "/tmp/x";
  EXPECT_TRUE(ValidateCrawlConfig(c).ok());
  c.queue_in_ram = 1;  // the frontier spills half a host at a time: >= 2
  Status bad = ValidateCrawlConfig(c);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("queue_in_ram"), std::string::npos) << bad.message();
  c.queue_in_ram = 2;
  c.queue_in_ram_per_host = 0;
  bad = ValidateCrawlConfig(c);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("queue_in_ram_per_host"), std::string::npos) << bad.message();
}

}  // namespace
}  // namespace topicrawl
