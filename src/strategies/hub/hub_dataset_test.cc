#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "strategies/hub/hub_baselines.h"
#include "strategies/hub/hub_collect.h"
#include "strategies/hub/hub_dataset.h"

namespace topicrawl::hub {
namespace {

HubExample Row(std::string url, std::string host, int label) {
  HubExample e;
  e.url = std::move(url);
  e.host = std::move(host);
  e.label = label;
  return e;
}

TEST(HubDatasetTest, TsvRoundTrip) {
  HubExample a = Row("http://a.cn/news/", "a.cn", 1);
  a.anchor = "新闻\t中心";  // the tab is cleaned on write
  a.crawl_depth = 1;
  a.page_size = 2048;
  a.text_chars = 100;
  a.anchor_chars = 80;
  a.punct = 3;
  a.links = 40;
  a.same_site_links = 35;
  a.list_items = 30;
  a.blocks = 12;
  HubExample b = Row("http://b.cn/x.html?id=2", "b.cn", 0);
  b.test = true;
  std::string path = std::filesystem::temp_directory_path() /
                     ("hub_tsv_" + std::to_string(::getpid()) + ".tsv");
  ASSERT_TRUE(WriteHubTsv(path, {a, b}).ok());
  auto back = ReadHubTsv(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->size(), 2u);
  const HubExample& r = (*back)[0];
  EXPECT_EQ(r.url, a.url);
  EXPECT_EQ(r.anchor, "新闻 中心");
  EXPECT_EQ(r.label, 1);
  EXPECT_FALSE(r.test);
  EXPECT_EQ(r.page_size, 2048);
  EXPECT_EQ(r.list_items, 30);
  EXPECT_EQ(r.blocks, 12);
  EXPECT_TRUE((*back)[1].test);
  EXPECT_EQ((*back)[1].label, 0);

  std::ofstream(path) << "url\tlabel\nhttp://x/\t1\n";
  auto bad = ReadHubTsv(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("not a hub data file"), std::string::npos);
  std::remove(path.c_str());
}

TEST(HubDatasetTest, SplitByHostKeepsHostsOnOneSide) {
  std::vector<HubExample> rows;
  for (int h = 0; h < 15; ++h) {
    for (int i = 0; i < 10 + h * 3; ++i) {
      rows.push_back(Row("http://h" + std::to_string(h) + "/" + std::to_string(i), "h" + std::to_string(h), i % 2));
    }
  }
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    auto test = SplitByHost(rows, 0.7, seed);
    std::set<std::string> tr, te;
    size_t n_test = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      (test[i] ? te : tr).insert(rows[i].host);
      n_test += test[i];
    }
    for (const auto& h : tr) EXPECT_EQ(te.count(h), 0u) << h;
    EXPECT_FALSE(te.empty());
    double share = static_cast<double>(n_test) / rows.size();
    EXPECT_GT(share, 0.15);
    EXPECT_LT(share, 0.4);
  }
  EXPECT_NE(SplitByHost(rows, 0.7, 1), SplitByHost(rows, 0.7, 2));
  // Two hosts: one on each side.
  std::vector<HubExample> two = {Row("http://a/", "a", 1), Row("http://b/", "b", 0)};
  auto t = SplitByHost(two, 0.7, 3);
  EXPECT_NE(t[0], t[1]);
}

TEST(HubDatasetTest, Subsample) {
  std::vector<size_t> idx = {3, 5, 7, 9, 11};
  EXPECT_EQ(Subsample(idx, -1, 1), idx);
  EXPECT_EQ(Subsample(idx, 10, 1), idx);
  auto s = Subsample(idx, 3, 1);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
  EXPECT_EQ(s, Subsample(idx, 3, 1));
}

TEST(HubBaselinesTest, SimpleRules) {
  HubExample home = Row("http://a.cn/", "a.cn", 0);
  home.crawl_depth = 3;
  EXPECT_EQ(SimpleRulesIsHub(home), 1);
  HubExample seed = Row("http://a.cn/docs/start.html", "a.cn", 0);
  EXPECT_EQ(SimpleRulesIsHub(seed), 1);  // crawl depth 0
  HubExample idx = Row("http://a.cn/a/b/index.html", "a.cn", 0);
  idx.crawl_depth = 2;
  EXPECT_EQ(SimpleRulesIsHub(idx), 1);
  HubExample list = Row("http://a.cn/a/newslist.php?p=2", "a.cn", 0);
  list.crawl_depth = 2;
  EXPECT_EQ(SimpleRulesIsHub(list), 1);
  HubExample art = Row("http://a.cn/a/socket.html", "a.cn", 0);
  art.crawl_depth = 2;
  EXPECT_EQ(SimpleRulesIsHub(art), 0);
}

TEST(HubBaselinesTest, HeuristicSeparatesLinkHeavyPages) {
  std::vector<HubExample> rows;
  for (int i = 0; i < 60; ++i) {
    HubExample e = Row("http://a/" + std::to_string(i), "a", i % 2);
    if (e.label) {  // hub: mostly link text, little punctuation
      e.text_chars = 1000 + i;
      e.anchor_chars = 900;
      e.punct = 5;
    } else {
      e.text_chars = 3000 + i * 10;
      e.anchor_chars = 100;
      e.punct = 150 + i;
    }
    rows.push_back(e);
  }
  std::vector<size_t> idx(rows.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  auto c = HeuristicHubClassifier::Train(rows, idx);
  int right = 0;
  for (const auto& r : rows) right += c.Predict(r) == r.label;
  EXPECT_EQ(right, 60);
  EXPECT_LT(c.TopicSupport(rows[1]), c.TopicSupport(rows[0]));
  EXPECT_GE(c.TopicSupport(rows[0]), -1);
  EXPECT_LE(c.TopicSupport(rows[0]), 1);
}

TEST(HubCollectTest, StructuralLabelsOnASmallSite) {
  // Page 0 links to 6 leaf pages (1..6); 7 links to 0 and 1 only; leaves
  // link back to 0 only. Median out-degree 1: leaves are content pages.
  std::vector<std::string> hosts(8, "a");
  std::vector<std::vector<size_t>> out(8);
  out[0] = {1, 2, 3, 4, 5, 6};
  for (size_t i = 1; i <= 6; ++i) out[i] = {0};
  out[7] = {0, 1};
  CollectOptions o;
  auto l = StructuralLabels(hosts, out, o);
  EXPECT_EQ(l, (std::vector<int>{1, 0, 0, 0, 0, 0, 0, 0}));
  o.min_content_links = 7;
  EXPECT_EQ(StructuralLabels(hosts, out, o)[0], 0);
}

TEST(HubCollectTest, CountContent) {
  std::string html =
      "<html><body><p>Hello, world. 你好，世界。</p><ul><li><a href=\"/a\">One</a></li>"
      "<LI><a href=\"http://other/b\">Two</a></li></ul><script>var x = 1;</script></body></html>";
  HubExample e;
  CountContent(html, "http://site/x.html", &e);
  EXPECT_EQ(e.links, 2);
  EXPECT_EQ(e.same_site_links, 1);
  EXPECT_EQ(e.list_items, 2);
  EXPECT_EQ(e.anchor_chars, 6);
  EXPECT_GE(e.punct, 4);  // , . ， 。
  EXPECT_GT(e.text_chars, e.anchor_chars);
  EXPECT_GE(e.blocks, 1);
}

}  // namespace
}  // namespace topicrawl::hub

namespace topicrawl::hub {
namespace {
TEST(HubDatasetTest, SplitByRowIsStratified) {
  std::vector<HubExample> rows;
  for (int i = 0; i < 100; ++i) rows.push_back(Row("http://a/" + std::to_string(i), "a", i < 20));
  auto test = SplitByRow(rows, 0.7, 1);
  int hubs = 0, n = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    n += test[i];
    hubs += test[i] && rows[i].label;
  }
  EXPECT_EQ(n, 30);
  EXPECT_EQ(hubs, 6);
}
}  // namespace
}  // namespace topicrawl::hub
