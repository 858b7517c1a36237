#include "export/text_export.h"
#include "export/optout.h"
#include "export/host_optout.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/hash.h"
#include "nlohmann/json.hpp"
#include "store/crawl_store.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using testing::MakeTempDir;
using testing::MakeTestPage;
using testing::RemoveTree;

constexpr char kArticle[] =
    "<html lang=en><head><title>Firewall rules</title></head><body>"
    "<nav><a href=/a>Home</a> <a href=/b>Blog</a></nav>"
    "<article><h1>Firewall rules</h1><p>A firewall compares every packet with an ordered "
    "list of rules, and the first rule that matches decides whether it passes.</p>"
    "<p>Specific rules belong above general ones, so that they match first.</p></article>"
    "<footer>Copyright footer text</footer></body></html>";

class TextExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    auto store = CrawlStore::Open(dir_ + "/crawl", OpenMode::kCreate);
    ASSERT_TRUE(store.ok());
    PageRecord a = MakeTestPage(1);  // article
    a.body = kArticle;
    PageRecord b = MakeTestPage(2);  // navigation only
    b.body = "<html><body><nav><a href=/x>x</a></nav><p>Hi.</p></body></html>";
    PageRecord c = MakeTestPage(3);  // not HTML
    c.content_type = "application/pdf";
    c.body = "%PDF-1.4";
    PageRecord d = MakeTestPage(4);  // Chinese article
    d.body = "<html><head><meta charset=utf-8><title>防火墙</title></head><body>"
             "<div class=menu><a href=/>首页</a></div><div class=content><p>防火墙根据预先"
             "设定的规则检查进出网络的数据包，并决定允许、丢弃还是拒绝这些数据包。</p></div>"
             "</body></html>";
    for (PageRecord* p : {&a, &b, &c, &d}) ASSERT_TRUE((*store)->AddPage(std::move(*p)).ok());
    ASSERT_TRUE((*store)->Close().ok());
  }
  void TearDown() override { RemoveTree(dir_); }
  std::string dir_;
};

std::vector<nlohmann::ordered_json> ReadJsonl(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::ordered_json> out;
  for (std::string l; std::getline(in, l);) out.push_back(nlohmann::ordered_json::parse(l));
  return out;
}

TEST_F(TextExportTest, TextLinesHaveExactlyTheDocumentedFields) {
  std::ostringstream unused;
  const std::string out = dir_ + "/text.jsonl";
  auto stats = WriteTextExport(dir_ + "/crawl", out, unused, {});
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  EXPECT_EQ(stats->pages, 4);
  EXPECT_EQ(stats->written, 2);
  EXPECT_EQ(stats->no_main_content, 1);
  EXPECT_EQ(stats->not_html, 1);
  EXPECT_EQ(TextExportSummary(*stats),
            "exported 2 of 4 pages; left out: 1 without main content, 1 not HTML");
  auto lines = ReadJsonl(out);
  ASSERT_EQ(lines.size(), 2u);
  std::vector<std::string> keys;
  for (auto& [k, v] : lines[0].items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"url", "title", "lang", "text"}));
  EXPECT_EQ(lines[0]["url"], "http://h1.test/p1");
  EXPECT_EQ(lines[0]["title"], "Firewall rules");
  EXPECT_EQ(lines[0]["lang"], "en");
  const std::string text = lines[0]["text"];
  EXPECT_NE(text.find("the first rule that matches decides"), std::string::npos);
  EXPECT_EQ(text.find("Copyright"), std::string::npos);
  EXPECT_EQ(text.find("Blog"), std::string::npos);
  EXPECT_EQ(lines[1]["lang"], "zh");
  EXPECT_EQ(lines[1]["text"].get<std::string>().find("首页"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));
}

TEST_F(TextExportTest, MarkdownField) {
  std::ostringstream out;
  TextExportOptions options;
  options.markdown = true;
  auto stats = WriteTextExport(dir_ + "/crawl", "", out, options);
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  std::istringstream in(out.str());
  std::string first;
  std::getline(in, first);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(first);
  EXPECT_FALSE(j.contains("text"));
  EXPECT_EQ(j["markdown"].get<std::string>().rfind("# Firewall rules\n\nA firewall", 0), 0u)
      << j["markdown"];
}

}  // namespace
}  // namespace topicrawl

namespace topicrawl {
namespace {

TEST(OptOutTest, EachSignal) {
  auto head = [](const std::string& fields) { return "HTTP/1.1 200 OK\r\n" + fields + "\r\n"; };
  OptOutSignals s = DetectOptOut(head("X-Robots-Tag: noai, noimageai\r\n"), {});
  EXPECT_TRUE(s.reserved);
  EXPECT_EQ(s.signals, (std::vector<std::string>{"x-robots-tag: noai", "x-robots-tag: noimageai"}));
  s = DetectOptOut(head("x-robots-tag: googlebot: noindex\r\n"), {});
  EXPECT_EQ(s.signals, (std::vector<std::string>{"x-robots-tag: noindex"}));
  s = DetectOptOut(head("X-Robots-Tag: nofollow\r\n"), {});
  EXPECT_FALSE(s.reserved);
  EXPECT_TRUE(s.signals.empty());
  s = DetectOptOut(head("tdm-reservation: 1\r\ntdm-policy: https://p.test/policy.json\r\n"), {});
  EXPECT_TRUE(s.reserved);
  EXPECT_EQ(s.signals, (std::vector<std::string>{"tdm-reservation: 1",
                                                 "tdm-policy: https://p.test/policy.json"}));
  s = DetectOptOut(head("tdm-reservation: 0\r\n"), {});
  EXPECT_FALSE(s.reserved);
  s = DetectOptOut(head(""), {{"robots", "NoArchive, follow"}});
  EXPECT_TRUE(s.reserved);
  EXPECT_EQ(s.signals, (std::vector<std::string>{"meta robots: noarchive"}));
  s = DetectOptOut(head(""), {{"tdm-reservation", "1"}});
  EXPECT_EQ(s.signals, (std::vector<std::string>{"meta tdm-reservation: 1"}));
  EXPECT_TRUE(s.reserved);
  s = DetectOptOut(head(""), {{"robots", "index, follow"}});
  EXPECT_FALSE(s.reserved);
  s = DetectOptOut(head("Content-Usage: train-ai=n, search=y\r\n"), {});
  EXPECT_TRUE(s.reserved);
  EXPECT_EQ(s.signals, (std::vector<std::string>{"content-usage: train-ai=n, search=y"}));
  s = DetectOptOut(head("Content-Usage: train-ai=y\r\n"), {});
  EXPECT_FALSE(s.reserved);
}

// draft-ietf-aipref-vocab values y/n and Content-Signal's yes/no.
TEST(OptOutTest, UsagePreferences) {
  EXPECT_TRUE(UsageReserves("train-ai=n"));
  EXPECT_TRUE(UsageReserves("search=y, train-genai=N"));
  EXPECT_TRUE(UsageReserves("search=yes, ai-train=no, ai-input=no"));
  EXPECT_TRUE(UsageReserves("ai-train=\"no\""));
  EXPECT_TRUE(UsageReserves("train-ai=n;exp=1"));
  EXPECT_FALSE(UsageReserves("train-ai=y, search=y"));
  EXPECT_FALSE(UsageReserves("search=yes, ai-train=yes"));
  EXPECT_FALSE(UsageReserves("bots"));
  EXPECT_FALSE(UsageReserves("nonsense=never, =n"));
  EXPECT_FALSE(UsageReserves(""));
}

// TDMRep §3.3's example shape: an array of rules in file order.
TEST(OptOutTest, TdmRepJson) {
  auto rules = ParseTdmRepJson(R"([
    {"location": "/news/*", "tdm-reservation": 1, "tdm-policy": "https://p.test/policy.json"},
    {"location": "/", "tdm-reservation": 0},
    {"tdm-reservation": 1},
    {"location": "/x", "tdm-reservation": "1"}])");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  ASSERT_EQ(rules->size(), 3u);
  EXPECT_EQ((*rules)[0].location, "/news/*");
  EXPECT_EQ((*rules)[0].reservation, 1);
  EXPECT_EQ((*rules)[0].policy, "https://p.test/policy.json");
  EXPECT_EQ((*rules)[1].reservation, 0);
  EXPECT_EQ((*rules)[2].reservation, 1);
  EXPECT_FALSE(ParseTdmRepJson("<html>not found</html>").ok());
  EXPECT_FALSE(ParseTdmRepJson(R"({"location": "/"})").ok());
  EXPECT_TRUE(ParseTdmRepJson("[]")->empty());
}

TEST(OptOutTest, HostSignalsApplyByHostAndPath) {
  HostOptOut hosts("topicrawl");
  hosts.SetRobots("http://a.test",
                  "User-agent: *\nContent-Usage: /open/ train-ai=y\nContent-Usage: train-ai=n\n"
                  "User-agent: otherbot\nContent-Signal: ai-train=yes\n");
  hosts.SetTdmRep("http://a.test", R"([{"location": "/news/*", "tdm-reservation": 1},
                                      {"location": "/", "tdm-reservation": 0}])");
  hosts.SetRobots("http://b.test", "User-agent: *\nContent-Signal: search=yes, ai-train=yes\n");
  hosts.SetTdmRep("http://b.test", "<html>404</html>");
  auto apply = [&](const std::string& url) {
    OptOutSignals s;
    hosts.Apply(url, &s);
    return s;
  };
  OptOutSignals s = apply("http://a.test/page");
  EXPECT_TRUE(s.reserved);
  EXPECT_EQ(s.signals, (std::vector<std::string>{
                           "robots.txt content-usage: train-ai=n",
                           "tdmrep.json: tdm-reservation 0 (location /)"}));
  s = apply("http://a.test/open/page");
  EXPECT_FALSE(s.reserved);
  EXPECT_EQ(s.signals[0], "robots.txt content-usage: train-ai=y");
  s = apply("http://a.test/news/today");
  EXPECT_TRUE(s.reserved);
  EXPECT_EQ(s.signals[1], "tdmrep.json: tdm-reservation 1 (location /news/*)");
  s = apply("http://b.test/p");
  EXPECT_FALSE(s.reserved);
  EXPECT_EQ(s.signals, (std::vector<std::string>{
                           "robots.txt content-signal: search=yes, ai-train=yes",
                           "tdmrep.json: unreadable (tdmrep.json is not JSON)"}));
  EXPECT_TRUE(apply("http://c.test/p").signals.empty());
  EXPECT_TRUE(apply("https://a.test/page").signals.empty());  // another origin
}

// Pages with each signal, stored as a crawl stores them: left out and
// counted by default, written with their "optout" array when not respected.
TEST(OptOutExportTest, RespectOptOutLeavesPagesOutAndCountsThem) {
  const std::string dir = MakeTempDir();
  {
    auto store = CrawlStore::Open(dir + "/crawl", OpenMode::kCreate);
    ASSERT_TRUE(store.ok());
    const std::string article =
        "<p>A firewall compares every packet with an ordered list of rules, and the first "
        "rule that matches decides.</p>";
    const std::vector<std::pair<std::string, std::string>> variants = {
        {"X-Robots-Tag: noai\r\n", ""},
        {"", "<meta name=robots content=noindex>"},
        {"tdm-reservation: 1\r\n", ""},
        {"", "<meta name=tdm-reservation content=1>"},
        {"X-Robots-Tag: nofollow\r\n", ""},  // not an opt-out
        {"", ""},
        {"", ""},  // page 8 (7 is a refusal), host h3.test: robots.txt train-ai=n
        {"", ""},  // page 9, host h4.test: tdmrep.json reserves /p9
    };
    int k = 1;
    for (const auto& [header, meta] : variants) {
      if (k == 7) ++k;  // MakeTestPage(7) is a robots refusal
      PageRecord p = MakeTestPage(k++);
      p.response_head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + header + "\r\n";
      p.body = "<html><head><title>t</title>" + meta + "</head><body>" + article + "</body></html>";
      ASSERT_TRUE((*store)->AddPage(std::move(p)).ok());
    }
    ASSERT_TRUE((*store)->AddHostFile("http://h3.test", "robots.txt", 200,
                                      "User-agent: *\nContent-Usage: train-ai=n\n").ok());
    ASSERT_TRUE((*store)->AddHostFile("http://h4.test", "tdmrep.json", 200,
                                      R"([{"location": "/p9", "tdm-reservation": 1}])").ok());
    ASSERT_TRUE((*store)->AddHostFile("http://h1.test", "robots.txt", 200,
                                      "User-agent: *\nContent-Usage: train-ai=n\n").ok());
    ASSERT_TRUE((*store)->AddHostFile("http://h1.test", "robots.txt", 200,  // refetched
                                      "User-agent: *\nContent-Usage: train-ai=y\n").ok());
    ASSERT_TRUE((*store)->Close().ok());
  }
  std::ostringstream out;
  std::string line_text;
  auto stats = WriteTextExport(dir + "/crawl", "", out, {});
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  EXPECT_EQ(stats->opted_out, 6);
  EXPECT_EQ(stats->written, 2);
  EXPECT_NE(TextExportSummary(*stats).find("6 opted out (--respect-optout)"), std::string::npos);
  TextExportOptions all;
  all.respect_optout = false;
  std::ostringstream out2;
  stats = WriteTextExport(dir + "/crawl", "", out2, all);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->written, 8);
  EXPECT_EQ(stats->with_signals, 7);  // page 6 (h1.test): robots.txt train-ai=y
  std::vector<nlohmann::json> lines;
  for (std::istringstream all(out2.str()); std::getline(all, line_text);) {
    lines.push_back(nlohmann::json::parse(line_text));
  }
  ASSERT_EQ(lines.size(), 8u);
  EXPECT_EQ(lines[5]["optout"], nlohmann::json::parse(R"(["robots.txt content-usage: train-ai=y"])"));
  EXPECT_EQ(lines[6]["optout"], nlohmann::json::parse(R"(["robots.txt content-usage: train-ai=n"])"));
  EXPECT_EQ(lines[6]["url"], "http://h3.test/p8");
  EXPECT_EQ(lines[7]["optout"],
            nlohmann::json::parse(R"j(["tdmrep.json: tdm-reservation 1 (location /p9)"])j"));
  std::istringstream in(out2.str());
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(nlohmann::json::parse(line)["optout"],
            nlohmann::json::parse(
                R"(["x-robots-tag: noai", "robots.txt content-usage: train-ai=y"])"));
  RemoveTree(dir);
}

}  // namespace
}  // namespace topicrawl
