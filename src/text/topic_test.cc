#include "text/topic.h"

#include <fstream>
#include <map>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "text/strategy_params_recorder.h"

namespace topicrawl {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TopicTest, ParsesKeywordListFromSharedCorpus) {
  auto topic = LoadTopicFile(TOPICRAWL_SHARED_DIR "/corpus/topics/zh-networking.txt");
  ASSERT_TRUE(topic.ok()) << topic.status().message();
  EXPECT_EQ(topic->name, "zh-networking");
  ASSERT_GE(topic->keywords.size(), 10u);
  EXPECT_EQ(topic->keywords[0].term, "网络");
  EXPECT_DOUBLE_EQ(topic->keywords[0].weight, 1.0);
  EXPECT_DOUBLE_EQ(topic->alpha, 0.3);
}

TEST(TopicTest, KeywordListSkipsCommentsAndAcceptsSpaces) {
  auto topic = ParseKeywordList("# typhoon\n\n台风\t0.8\nstorm surge  0.5\n", "t.txt");
  ASSERT_TRUE(topic.ok()) << topic.status().message();
  ASSERT_EQ(topic->keywords.size(), 2u);
  EXPECT_EQ(topic->keywords[1].term, "storm surge");
  EXPECT_EQ(topic->keywords[1].line, 4);
}

TEST(TopicTest, KeywordListRejectsBadWeightWithLine) {
  auto topic = ParseKeywordList("台风\t0.8\n暴雨\theavy\n", "t.txt");
  ASSERT_FALSE(topic.ok());
  EXPECT_THAT(topic.status().message(), HasSubstr("t.txt:2: bad weight `heavy`"));
  topic = ParseKeywordList("台风\t-1\n", "t.txt");
  ASSERT_FALSE(topic.ok());
  EXPECT_THAT(topic.status().message(), HasSubstr("t.txt:1:"));
  topic = ParseKeywordList("台风\n", "t.txt");
  ASSERT_FALSE(topic.ok());
  EXPECT_THAT(topic.status().message(), HasSubstr("t.txt:1: expected"));
}

TEST(TopicTest, KeywordListRejectsDuplicateAfterCaseFolding) {
  auto topic = ParseKeywordList("TCP\t0.5\nnetwork\t1\ntcp\t0.3\n", "t.txt");
  ASSERT_FALSE(topic.ok());
  EXPECT_THAT(topic.status().message(),
              HasSubstr("t.txt:3: duplicate keyword `tcp` (first on line 1)"));
}

constexpr char kTyphoon[] = R"(# seed 000 typhoon topic
[topic]
name = "typhoon"
keywords = { "台风" = 0.8, "风暴潮" = 0.5, "暴雨" = 0.3, "气压" = 0.2, "风力" = 0.2 }
beta = 0.67
alpha = 0.3
dictionary = ["热带气旋", "风暴潮"]
on_topic_prefixes = ["www.cma.gov.cn/"]
off_topic_prefixes = ["ads.example.com"]
ontology_terms = ["气象灾害"]
contradiction_words = ["游戏"]

[topic.examples]
positive = ["http://a.example/typhoon.html"]
negative = ["pages/neg.html"]

[strategy.shark-search]
delta = 0.5
beta = 0.8
depth = 3

[strategy.wang-landau]
bins = 50
flatness = { k = 0.8 }
)";

TEST(TopicTest, ParsesTomlTopic) {
  auto topic = ParseTopicToml(kTyphoon, "typhoon.toml");
  ASSERT_TRUE(topic.ok()) << topic.status().message();
  EXPECT_EQ(topic->name, "typhoon");
  ASSERT_EQ(topic->keywords.size(), 5u);
  EXPECT_DOUBLE_EQ(topic->beta, 0.67);
  EXPECT_THAT(topic->dictionary, ElementsAre("热带气旋", "风暴潮"));
  EXPECT_THAT(topic->on_topic_prefixes, ElementsAre("www.cma.gov.cn/"));
  EXPECT_THAT(topic->negative_examples, ElementsAre("pages/neg.html"));
  EXPECT_THAT(topic->contradiction_words, ElementsAre("游戏"));
  const StrategyParams& shark = topic->Strategy("shark-search");
  EXPECT_DOUBLE_EQ(*shark.Number("delta", 0), 0.5);
  EXPECT_DOUBLE_EQ(*shark.Number("gamma", 0.8), 0.8);  // default
  EXPECT_EQ(*shark.Integer("depth", 0), 3);
  EXPECT_DOUBLE_EQ(*shark.Number("depth", 0), 3.0);  // integers are numbers
  EXPECT_FALSE(shark.String("delta", "").ok());     // wrong type
  EXPECT_EQ(*topic->Strategy("wang-landau").Integer("bins", 0), 50);
  EXPECT_DOUBLE_EQ(*topic->Strategy("wang-landau").Number("flatness.k", 0), 0.8);
  EXPECT_FALSE(topic->Strategy("absent").Has("x"));
  EXPECT_THAT(shark.UnknownKeys({"delta", "beta", "gamma"}), ElementsAre("depth"));
}

TEST(TopicTest, ParsesKeywordArrayOfTables) {
  auto topic = ParseTopicToml(R"([topic]
name = "net"
[[topic.keywords]]
term = "network"
weight = 1
[[topic.keywords]]
term = "socket"
weight = 0.9
)", "net.toml");
  ASSERT_TRUE(topic.ok()) << topic.status().message();
  ASSERT_EQ(topic->keywords.size(), 2u);
  EXPECT_EQ(topic->keywords[1].term, "socket");
  EXPECT_EQ(topic->keywords[1].line, 6);
}

TEST(TopicTest, TomlErrorsNameTheLine) {
  auto bad_weight = ParseTopicToml(
      "[topic]\nname = \"x\"\n[topic.keywords]\na = 0.5\nb = -2\n", "x.toml");
  ASSERT_FALSE(bad_weight.ok());
  EXPECT_THAT(bad_weight.status().message(), HasSubstr("x.toml:5: keyword `b` has weight -2"));
  auto text_weight = ParseTopicToml(
      "[topic]\n[topic.keywords]\na = \"high\"\n", "x.toml");
  ASSERT_FALSE(text_weight.ok());
  EXPECT_THAT(text_weight.status().message(), HasSubstr("x.toml:3: keyword `a` needs a numeric weight"));

  auto unknown = ParseTopicToml("[topic]\nkeywords = { a = 1 }\nbta = 0.6\n", "x.toml");
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("x.toml:3: unknown key `bta` in [topic]"));

  auto syntax = ParseTopicToml("[topic]\nkeywords = { a = }\n", "x.toml");
  ASSERT_FALSE(syntax.ok());
  EXPECT_THAT(syntax.status().message(), HasSubstr("x.toml:2:"));

  auto dup = ParseTopicToml("[topic]\n[[topic.keywords]]\nterm = \"TLS\"\nweight = 1\n"
                            "[[topic.keywords]]\nterm = \"tls\"\nweight = 2\n", "x.toml");
  ASSERT_FALSE(dup.ok());
  EXPECT_THAT(dup.status().message(), HasSubstr("duplicate keyword `tls`"));

  auto beta = ParseTopicToml("[topic]\nkeywords = { a = 1 }\nbeta = 1.5\n", "x.toml");
  ASSERT_FALSE(beta.ok());
  EXPECT_THAT(beta.status().message(), HasSubstr("x.toml:3: `beta` must be a number in [0, 1]"));

  auto none = ParseTopicToml("[topic]\nname = \"x\"\n", "x.toml");
  EXPECT_FALSE(none.ok());
  auto top = ParseTopicToml("[topic]\nkeywords = { a = 1 }\n[crawl]\nx = 1\n", "x.toml");
  ASSERT_FALSE(top.ok());
  EXPECT_THAT(top.status().message(), HasSubstr("unknown top-level key `crawl`"));
}

TEST(TopicTest, DictionaryFileIsRelativeToTopicFile) {
  std::string dir = testing::TempDir();
  std::ofstream(dir + "/terms.txt") << "# domain terms\n风暴潮 100 n\n热带气旋\n";
  std::ofstream(dir + "/t.toml") << "[topic]\nkeywords = { \"台风\" = 1 }\ndictionary = \"terms.txt\"\n";
  auto topic = LoadTopicFile(dir + "/t.toml");
  ASSERT_TRUE(topic.ok()) << topic.status().message();
  EXPECT_THAT(topic->dictionary, ElementsAre("风暴潮", "热带气旋"));
  std::ofstream(dir + "/m.toml") << "[topic]\nkeywords = { \"台风\" = 1 }\ndictionary = \"missing.txt\"\n";
  auto missing = LoadTopicFile(dir + "/m.toml");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("m.toml:3: dictionary: cannot open"));
}

}  // namespace
}  // namespace topicrawl

namespace topicrawl {
namespace {

// Seed 002's static ontology: [topic.ontology] terms with weights and
// synonyms (docs/guides/define-a-topic.md).
TEST(TopicOntologyTest, ParsesWeightsAndSynonyms) {
  auto topic = ParseTopicToml(R"([topic]
keywords = { "安全" = 1.0 }
[topic.ontology]
"加密" = 0.8
"漏洞" = { weight = 0.7, synonyms = ["缺陷", "弱点"] }
"认证" = { synonyms = ["鉴别"] }
)", "o.toml");
  ASSERT_TRUE(topic.ok()) << topic.status().message();
  ASSERT_EQ(topic->ontology.size(), 3u);
  std::map<std::string, OntologyTerm> by;
  for (const auto& t : topic->ontology) by[t.term] = t;
  EXPECT_DOUBLE_EQ(by["加密"].weight, 0.8);
  EXPECT_TRUE(by["加密"].synonyms.empty());
  EXPECT_DOUBLE_EQ(by["漏洞"].weight, 0.7);
  EXPECT_EQ(by["漏洞"].synonyms, (std::vector<std::string>{"缺陷", "弱点"}));
  EXPECT_DOUBLE_EQ(by["认证"].weight, 1.0);
}

TEST(TopicOntologyTest, RejectsBadWeightsAndUnknownKeys) {
  EXPECT_FALSE(ParseTopicToml("[topic]\nkeywords = { a = 1.0 }\n[topic.ontology]\nb = -1\n", "x").ok());
  EXPECT_FALSE(ParseTopicToml("[topic]\nkeywords = { a = 1.0 }\n[topic.ontology]\nb = { wieght = 1 }\n", "x").ok());
  EXPECT_FALSE(ParseTopicToml("[topic]\nkeywords = { a = 1.0 }\nontology = [1]\n", "x").ok());
}

// The configuration reference lists what each strategy reads: the table,
// the key, its type and the default the code falls back to.
TEST(StrategyParamsRecorderTest, RecordsTableKeyTypeAndDefaultOfEveryRead) {
  auto topic = ParseTopicToml(
      "[topic]\nkeywords = { a = 1.0 }\n[strategy.x]\nrate = 2\n", "t.toml");
  ASSERT_TRUE(topic.ok()) << topic.status().message();
  std::vector<StrategyParamRead> reads;
  {
    StrategyParamsRecorder recorder;
    EXPECT_EQ(StrategyParamsRecorder::Current(), &recorder);
    const StrategyParams& x = topic->Strategy("x");
    (void)x.UnknownKeys({"rate", "model"});
    EXPECT_DOUBLE_EQ(*x.Number("rate", 0.5), 2.0);  // set: the default is still listed
    (void)x.Integer("depth", 3);
    (void)x.String("mode", "fast");
    (void)x.Bool("on", true);
    (void)topic->Strategy("y").Number("q", 1.25);  // an absent table
    reads = recorder.reads();
  }
  EXPECT_EQ(StrategyParamsRecorder::Current(), nullptr);
  std::vector<std::string> got;
  for (const auto& r : reads) got.push_back(r.table + " " + r.key + " " + r.type + " " + r.fallback);
  EXPECT_THAT(got, ElementsAre("x rate number 0.5", "x model known ", "x depth integer 3",
                               "x mode string 'fast'", "x on bool true", "y q number 1.25"));
  // Without a recorder nothing is recorded (and nothing breaks).
  EXPECT_DOUBLE_EQ(*topic->Strategy("x").Number("rate", 0.5), 2.0);
}

}  // namespace
}  // namespace topicrawl
