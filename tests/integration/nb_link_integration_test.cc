// Seed 001 end to end on a small marked site (127.0.0.1, port 0): collect
// labelled links with a BFS crawl, export and train the Naive Bayes link and
// page classifiers, then crawl with the "nb-link" strategy and check that it
// fetches the on-topic section first.
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "crawl/crawl_config.h"
#include "crawl/crawl_strategy.h"
#include "crawl/crawler.h"
#include "gtest/gtest.h"
#include "strategies/naive_bayes/crawl_export.h"
#include "strategies/naive_bayes/link_dataset.h"
#include "strategies/naive_bayes/nb_evaluation.h"
#include "strategies/strategy_registry.h"
#include "support/test_http_server.h"
#include "text/topic.h"

namespace topicrawl {
namespace {

using testing::HtmlResponse;
using testing::TestHttpServer;
namespace fs = std::filesystem;

const std::vector<std::pair<std::string, std::string>> kNet = {
    {"/net/tcp.html", "TCP socket options"},
    {"/net/udp.html", "UDP datagram sockets"},
    {"/net/http.html", "HTTP client protocol"},
    {"/net/dns.html", "DNS resolver and network names"}};
const std::vector<std::pair<std::string, std::string>> kCpp = {
    {"/cpp/vector.html", "vector template container"},
    {"/cpp/map.html", "map associative container"},
    {"/cpp/string.html", "string algorithms"},
    {"/cpp/iter.html", "iterator traits template"}};

std::string Page(const std::string& title, const std::string& body) {
  return "<!doctype html><html><head><title>" + title + "</title></head><body><h1>" + title +
         "</h1>" + body + "</body></html>";
}

// Links in document order, cpp and net interleaved (so BFS cannot win).
std::string LinkList() {
  std::string s = "<ul>";
  for (size_t i = 0; i < kNet.size(); ++i) {
    s += "<li><a href='" + kCpp[i].first + "'>" + kCpp[i].second + "</a></li>";
    s += "<li><a href='" + kNet[i].first + "'>" + kNet[i].second + "</a></li>";
  }
  return s + "</ul>";
}

std::vector<std::string> OkUrlsInOrder(const std::string& dir) {
  std::vector<std::string> out;
  sqlite3* db = nullptr;
  sqlite3_open_v2((dir + "/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "SELECT url FROM pages WHERE status = 'ok' ORDER BY id", -1, &st,
                     nullptr);
  while (sqlite3_step(st) == SQLITE_ROW) {
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

class NbLinkIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    dir_ = ::testing::TempDir() + "/nb-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
           std::to_string(getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    server_.Set("/", HtmlResponse(Page("Developer documentation", LinkList())));
    for (const auto& [path, title] : kNet) {
      server_.Set(path, HtmlResponse(Page(title, "<p>The network stack: sockets, packets, "
                                                 "TCP and UDP ports, protocol headers.</p>" +
                                                     LinkList())));
    }
    for (const auto& [path, title] : kCpp) {
      server_.Set(path, HtmlResponse(Page(title, "<p>Generic containers, templates and "
                                                 "iterators of the standard library.</p>" +
                                                     LinkList())));
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  CrawlConfig Config(const std::string& out, const std::string& strategy) {
    CrawlConfig c;
    c.seeds = {"http://site.test/"};
    c.out_dir = out;
    c.strategy = strategy;
    c.topic_file = dir_ + "/topic.toml";
    c.delay_s = 0;
    c.concurrency = 1;
    c.per_host_connections = 1;
    c.parse_threads = 1;
    c.connect_to = {"site.test:80:127.0.0.1:" + std::to_string(server_.port())};
    c.total_timeout_s = 5;
    c.progress_interval_ms = 0;
    c.respect_robots = false;
    c.store_link_details = true;  // the export reads link contexts (as collect-links sets)
    return c;
  }

  void WriteTopic(const std::string& strategy_table) {
    std::ofstream out(dir_ + "/topic.toml");
    out << "[topic]\nname = \"networking\"\n"
           "keywords = { \"tcp\" = 0.8, \"socket\" = 0.6, \"network\" = 0.5 }\n"
           "dictionary = [\"udp\", \"protocol\"]\n"
           "on_topic_prefixes = [\"site.test/net/\"]\n"
           "off_topic_prefixes = [\"site.test/cpp/\"]\n"
        << strategy_table;
  }

  TestHttpServer server_;
  std::string dir_;
};

TEST_F(NbLinkIntegrationTest, CollectTrainThenCrawlFetchesOnTopicLinksFirst) {
  WriteTopic("");
  // 1. The generic crawl of §3.2.2.
  Crawler bfs(Config(dir_ + "/bfs", "bfs"), nullptr, MakeCrawlStrategy);
  ASSERT_TRUE(bfs.Run().ok());
  auto bfs_order = OkUrlsInOrder(dir_ + "/bfs");
  ASSERT_EQ(bfs_order.size(), 9u);
  EXPECT_EQ(bfs_order[1], "http://site.test/cpp/vector.html");  // document order

  // 2. Export: every link labelled by its target's prefix, split 7:3.
  auto topic = LoadTopicFile(dir_ + "/topic.toml");
  ASSERT_TRUE(topic.ok()) << topic.status().message();
  auto sum = ExportLabelledData(dir_ + "/bfs", *topic, dir_ + "/data");
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  // 9 pages x 8 links; the home page and each section page list the same
  // links with the same contexts, so dedup keeps one of each (8 unique).
  EXPECT_EQ(sum->links_read, 72);
  EXPECT_EQ(sum->links_positive, 4);
  EXPECT_EQ(sum->links_negative, 4);
  EXPECT_EQ(sum->links_unlabelled, 0);
  EXPECT_EQ(sum->train_positive, 3);  // round(0.7 * 4)
  EXPECT_EQ(sum->test_positive, 1);
  EXPECT_EQ(sum->pages_positive, 4);
  EXPECT_EQ(sum->pages_negative, 4);
  EXPECT_EQ(sum->pages_unlabelled, 1);  // the home page
  auto links = ReadLinkTsv(dir_ + "/data/links.tsv");
  ASSERT_TRUE(links.ok()) << links.status().message();
  for (const auto& l : *links) {
    if (l.to_url == "http://site.test/net/udp.html") {
      EXPECT_EQ(l.label, 1);
      EXPECT_EQ(l.anchor, "UDP datagram sockets");
      EXPECT_TRUE(l.tokens.anchor_has_dict);  // udp is a dictionary word
      EXPECT_FALSE(l.context.empty());
    }
  }
  auto pages = ReadPageTsv(dir_ + "/data/pages.tsv");
  ASSERT_TRUE(pages.ok());
  ASSERT_EQ(pages->size(), 9u);

  // 3. Train on every labelled example and crawl with the models.
  auto dict = ReadDatasetDictionary(dir_ + "/data");
  ASSERT_TRUE(dict.ok()) << dict.status().message();
  // Keywords (in the order the topic file gives them), then the dictionary.
  ASSERT_EQ(dict->size(), 5u);
  EXPECT_EQ((*dict)[3], "udp");
  EXPECT_EQ((*dict)[4], "protocol");
  ASSERT_TRUE(TrainLinkModel(*links, 2, Split::kNone, *dict).Save(dir_ + "/link.json").ok());
  ASSERT_TRUE(TrainPageModel(*pages, Split::kNone, *dict).Save(dir_ + "/page.json").ok());
  WriteTopic("[strategy.nb-link]\nmodel = \"link.json\"\npage_model = \"page.json\"\n");
  CrawlConfig nb = Config(dir_ + "/nb", "nb-link");
  nb.max_pages = 5;
  Crawler crawler(nb, nullptr, MakeCrawlStrategy);
  Status s = crawler.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  auto order = OkUrlsInOrder(dir_ + "/nb");
  ASSERT_EQ(order.size(), 5u);
  EXPECT_EQ(order[0], "http://site.test/");
  for (size_t i = 1; i < order.size(); ++i) {
    EXPECT_EQ(order[i].rfind("http://site.test/net/", 0), 0u) << i << ": " << order[i];
  }
  // The page judge's verdict is in the explanation; links carry P(+).
  sqlite3* db = nullptr;
  sqlite3_open_v2((dir_ + "/nb/crawl.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db,
                     "SELECT explanation FROM pages WHERE url = 'http://site.test/net/tcp.html'",
                     -1, &st, nullptr);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  std::string expl = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  EXPECT_NE(expl.find("\"nb_page\":"), std::string::npos) << expl;
  sqlite3_finalize(st);
  sqlite3_prepare_v2(db, "SELECT min(score), max(score) FROM links", -1, &st, nullptr);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_LT(sqlite3_column_double(st, 0), 0.5);
  EXPECT_GT(sqlite3_column_double(st, 1), 0.5);
  sqlite3_finalize(st);
  sqlite3_close(db);

  // 4. The judge applied to the stored crawl: home unlabelled, net pages +.
  NaiveBayes page_model = TrainPageModel(*pages, Split::kNone, *dict);
  int judged = 0, n = 0;
  auto words = LinkFeatureExtractor::Create(*dict);
  ASSERT_TRUE(words.ok());
  ASSERT_TRUE(ForEachStoredPage(dir_ + "/nb", [&](const StoredPage& p) {
    ++n;
    judged += page_model.Score((*words)->PageWords(p.title + "\n" + p.text)).positive();
  }, nullptr).ok());
  EXPECT_EQ(n, 5);
  EXPECT_GE(judged, 4);
}

TEST_F(NbLinkIntegrationTest, StrategyFailsAtStartUpWithoutUsableModel) {
  WriteTopic("");
  StrategyContext ctx;
  ctx.topic_file = dir_ + "/topic.toml";
  auto s = MakeCrawlStrategy("nb-link", ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("model = \"FILE\""), std::string::npos)
      << s.status().message();

  WriteTopic("[strategy.nb-link]\nmodel = \"absent.json\"\n");
  s = MakeCrawlStrategy("nb-link", ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("absent.json"), std::string::npos) << s.status().message();

  // A page model where a link model belongs.
  NaiveBayes page(NbModelKind::kPage, NbEventModel::kMultinomial);
  page.Add({"a"}, true);
  page.Add({"b"}, false);
  ASSERT_TRUE(page.Save(dir_ + "/page.json").ok());
  WriteTopic("[strategy.nb-link]\nmodel = \"page.json\"\n");
  s = MakeCrawlStrategy("nb-link", ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("expected a link model"), std::string::npos);

  WriteTopic("[strategy.nb-link]\nmodle = \"x.json\"\n");
  s = MakeCrawlStrategy("nb-link", ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("unknown key 'modle'"), std::string::npos);

  NaiveBayes link(NbModelKind::kLink, NbEventModel::kBinary);
  link.feature_group = 2;
  link.Add({"a:tcp"}, true);
  link.Add({"a:vector"}, false);
  ASSERT_TRUE(link.Save(dir_ + "/link.json").ok());
  WriteTopic("[strategy.nb-link]\nmodel = \"link.json\"\n");
  s = MakeCrawlStrategy("nb-link", ctx);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_TRUE(s->traits.keep_max_on_duplicate);  // the seed's update rule
  EXPECT_FALSE(MakeCrawlStrategy("bfs", ctx)->traits.keep_max_on_duplicate);
}

}  // namespace
}  // namespace topicrawl
