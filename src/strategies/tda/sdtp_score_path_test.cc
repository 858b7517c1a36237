// SDTP's one-pass page scoring (ScoreParts / Score: tokens looked up as the
// tokeniser hands them over, an extra field equal to an earlier one
// replayed) against the two-pass path the tda strategy and `tda judge` use
// (Weigh, then ScoreWeighted): the same bits on the fixture pages; and the
// scores of a hand-sized page against an independent computation of the
// equations (testdata/sdtp_reference.py).
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "parse/html_parser.h"
#include "strategies/tda/sdtp_scorer.h"

namespace topicrawl {
namespace {

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Fixture {
  std::string name;
  ParsedPage page;
};

// The eq.-8 fixture, the two bench pages (debian-handbook, en and zh-cn),
// and hand-made pages for the corner cases of the replay: a heading that
// is not a block of its own, the same emphasis twice, a contradiction word.
std::vector<Fixture> Pages() {
  std::vector<Fixture> out;
  const std::string src = TOPICRAWL_SOURCE_DIR;
  out.push_back({"sdtp_fixture", ParseHtml(Read(src + "/src/scoring/testdata/sdtp_fixture.html"),
                                           "http://h/tcp.html")});
  for (const char* f : {"handbook-en-network-config.html", "handbook-zh-cn-network-config.html"}) {
    out.push_back({f, ParseHtml(Read(src + "/bench/testdata/text/" + f), "http://h/p.html")});
  }
  ParsedPage hand;
  hand.title = "网络 配置 tcp";
  hand.keywords = "tcp, 网络";
  hand.text_blocks = {"网络接口 tcp udp 配置", "以太网 网络 接口 the tcp window", "足球 比赛"};
  hand.headings = {"网络接口 tcp", "以太网 网络 接口 the tcp window"};  // the first is no block
  hand.emphasis = {"tcp window", "tcp window", "网络接口 tcp udp 配置"};
  Outlink a;
  a.anchor = "tcp 网络";
  hand.links = {a, a};
  out.push_back({"hand", hand});
  return out;
}

Topic SharedTopic(const char* file) {
  auto t = LoadTopicFile(std::string(TOPICRAWL_SHARED_DIR "/corpus/topics/") + file);
  EXPECT_TRUE(t.ok()) << file;
  Topic topic = t.ok() ? *t : Topic{};
  topic.contradiction_words.push_back("足球");
  return topic;
}

// Seeded random vectors for every word of the pages (dim 18: the 4-lane
// loop and its tail), the DSV of the static terms plus every 5th word (40)
// as new terms (as bench/sdtp_bench.cc does with the first 40).
void InstallSeededModel(SdtpScorer& s, const std::vector<Fixture>& pages) {
  std::vector<std::string> words;
  StringSet seen;
  for (const Fixture& f : pages) {
    for (const std::string& t : s.Weigh(f.page, "tcp 网络 anchor").tokens) {
      if (seen.insert(t).second) words.push_back(t);
    }
  }
  const int dim = 18;
  std::mt19937 rng(7);
  std::normal_distribution<float> g;
  std::vector<float> rows(words.size() * dim);
  for (float& x : rows) x = g(rng);
  std::vector<float> idf(words.size());
  for (size_t i = 0; i < idf.size(); ++i) idf[i] = 0.5f + static_cast<float>(i % 7);
  auto wv = WordVectors::FromRows(words, std::move(rows), dim, std::move(idf), 1000);
  Dsv dsv = s.BuildDsv(*wv, {});
  for (uint32_t i = 0, n = 0; n < 40 && i < words.size(); i += 5, ++n) {
    dsv.terms.push_back({words[i], i, 0.3, 0.3, false});
    auto v = wv->Vector(i);
    for (int k = 0; k < dim; ++k) dsv.vector[k] += 0.3f * v[k];
  }
  s.InstallModel(wv, std::move(dsv));
}

void ExpectSameParts(const SdtpParts& a, const SdtpParts& b, const std::string& what) {
  EXPECT_EQ(a.sim, b.sim) << what;
  EXPECT_EQ(a.static_sim, b.static_sim) << what;
  EXPECT_EQ(a.dynamic_sim, b.dynamic_sim) << what;
  EXPECT_EQ(a.has_vectors, b.has_vectors) << what;
  EXPECT_EQ(a.contradiction, b.contradiction) << what;
  EXPECT_EQ(a.tokens, b.tokens) << what;
  ASSERT_EQ(a.static_terms.size(), b.static_terms.size()) << what;
  for (size_t i = 0; i < a.static_terms.size(); ++i) {
    EXPECT_EQ(a.static_terms[i].term, b.static_terms[i].term) << what;
    EXPECT_EQ(a.static_terms[i].count, b.static_terms[i].count) << what;
    EXPECT_EQ(a.static_terms[i].weight, b.static_terms[i].weight) << what;
  }
}

// The option sets whose extras differ: the defaults (headings, emphasis),
// anchors as extras, a heading factor below 1 (negative extras), and the
// other eq. 14-15 forms.
std::vector<std::pair<std::string, SdtpOptions>> OptionSets() {
  std::vector<std::pair<std::string, SdtpOptions>> out;
  out.push_back({"default", SdtpOptions{}});
  SdtpOptions o;
  o.tag_anchor = 1.25;
  o.tag_heading = 0.5;
  o.combine = SdtpOptions::Combine::kLinear;
  out.push_back({"anchor-1.25-heading-0.5-linear", o});
  o = {};
  o.dynamic_norm = SdtpOptions::DynamicNorm::kLength;
  o.tag_emphasis = 1;
  out.push_back({"length-no-emphasis", o});
  return out;
}

TEST(SdtpScorePathTest, OnePassEqualsWeighThenScoreWeighted) {
  const std::vector<Fixture> pages = Pages();
  for (const char* topic_file : {"zh-networking.txt", "dev-networking.txt"}) {
    for (const auto& [name, options] : OptionSets()) {
      auto s = SdtpScorer::Create(SharedTopic(topic_file), options);
      ASSERT_TRUE(s.ok()) << s.status().message();
      for (bool vectors : {false, true}) {
        if (vectors) InstallSeededModel(**s, pages);
        for (const Fixture& f : pages) {
          for (std::string_view anchor : {std::string_view(), std::string_view("tcp 网络 anchor")}) {
            const std::string what = std::string(topic_file) + " " + name + " " + f.name +
                                     (vectors ? " vectors" : "") + (anchor.empty() ? "" : " anchor");
            ExpectSameParts((*s)->ScoreParts(f.page, anchor),
                            (*s)->ScoreWeighted((*s)->Weigh(f.page, anchor)), what);
          }
          EXPECT_EQ((*s)->Score(f.page).relevance, (*s)->ScoreParts(f.page).sim);
        }
      }
    }
  }
}

// Weigh still tokenises every field on its own (a replayed extra gets the
// tokens a separate Tokenize call gives): the eq.-8 occurrences, field by
// field, rebuilt here from the tokeniser.
TEST(SdtpScorePathTest, WeighEqualsTokenisingEachField) {
  for (const auto& [name, options] : OptionSets()) {
    auto s = SdtpScorer::Create(SharedTopic("zh-networking.txt"), options);
    ASSERT_TRUE(s.ok());
    const SdtpOptions& o = (*s)->options();
    for (const Fixture& f : Pages()) {
      const ParsedPage& p = f.page;
      WeightedTokens want;
      auto add = [&](std::string_view text, double factor) {
        if (text.empty() || factor == 0) return;
        (*s)->tokenizer().Tokenize(text, &want.tokens);
        want.factors.resize(want.tokens.size(), static_cast<float>(factor));
      };
      add(p.title, o.tag_title);
      add(p.keywords, o.tag_meta);
      add(p.description, o.tag_meta);
      add("tcp 网络 anchor", o.tag_parent_anchor);
      const size_t n = p.text_blocks.size();
      for (size_t j = 0; j < n; ++j) add(p.text_blocks[j], 1 + o.position_boost * (1 - double(j) / n));
      want.sequence_end = want.tokens.size();
      for (const std::string& t : p.headings) add(t, o.tag_heading - 1);
      for (const std::string& t : p.emphasis) add(t, o.tag_emphasis - 1);
      for (const Outlink& l : p.links) add(l.anchor, o.tag_anchor - 1);
      WeightedTokens got = (*s)->Weigh(p, "tcp 网络 anchor");
      EXPECT_EQ(got.tokens, want.tokens) << name << " " << f.name;
      EXPECT_EQ(got.factors, want.factors) << name << " " << f.name;
      EXPECT_EQ(got.sequence_end, want.sequence_end) << name << " " << f.name;
    }
  }
}

// A page and model small enough to follow by hand: the expected scores are
// the output of testdata/sdtp_reference.py, which computes the header's
// equations in float64 apart from the scorer (its docstring describes the
// same page, topic and model). By hand, without a model (idf 1): the page
// has 4 tokens in reading order; socket weighs (3 + 1.5) / 4, tcp 1.5 / 4,
// so StaticSim = (2 * 0.375 + 1.125) / (sqrt(5) * sqrt(0.375^2 + 1.125^2))
// = 1 / sqrt(2).
struct Reference {
  const char* name;
  double sim, static_sim, dynamic_sim;
};
constexpr Reference kReference[] = {
  {"no model", 0.707106781187, 0.707106781187, 0.000000000000},
  {"gated cosine", 0.909592908532, 0.868243142124, 0.979620735578},
  {"linear cosine", 0.923931938851, 0.868243142124, 0.979620735578},
  {"gated length", 0.832090543063, 0.868243142124, 0.819941448338},
  {"contradiction", 0.000000000000, 0.868243142124, 0.979620735578},
};

TEST(SdtpScorePathTest, ScoresOfAHandSizedPageMatchTheReferenceComputation) {
  Topic topic;
  topic.name = "hand";
  topic.keywords = {{"tcp", 2.0, 1}, {"socket", 1.0, 2}};
  topic.contradiction_words = {"football"};
  auto page = [](const char* second_block) {
    ParsedPage p;
    p.title = "socket";
    p.text_blocks = {"tcp socket", second_block};
    p.headings = {"router"};
    return p;
  };
  auto model = [](SdtpScorer& s) {
    auto wv = WordVectors::FromRows({"tcp", "socket", "router"}, {3, 4, 1, 0, 0, 2}, 2,
                                    {2.0f, 1.0f, 0.5f}, 10);
    Dsv dsv;
    dsv.terms = {{"tcp", 0, 2.0, 0, true}, {"socket", 1, 1.0, 0, true}, {"router", 2, 0.3, 0.3, false}};
    dsv.vector.assign(2, 0);
    for (const DsvTerm& t : dsv.terms) {
      for (int k = 0; k < 2; ++k) dsv.vector[k] += static_cast<float>(t.weight) * wv->Vector(t.id)[k];
    }
    s.InstallModel(wv, std::move(dsv));
  };
  struct Case {
    const char* name;
    const char* second_block;
    bool with_model;
    SdtpOptions options;
  };
  SdtpOptions linear, length;
  linear.combine = SdtpOptions::Combine::kLinear;
  length.dynamic_norm = SdtpOptions::DynamicNorm::kLength;
  const Case cases[] = {{"no model", "router", false, {}},
                        {"gated cosine", "router", true, {}},
                        {"linear cosine", "router", true, linear},
                        {"gated length", "router", true, length},
                        {"contradiction", "router football", true, {}}};
  ASSERT_EQ(std::size(cases), std::size(kReference));
  for (size_t i = 0; i < std::size(cases); ++i) {
    const Case& c = cases[i];
    const Reference& want = kReference[i];
    ASSERT_STREQ(c.name, want.name);
    auto s = SdtpScorer::Create(topic, c.options);
    ASSERT_TRUE(s.ok()) << s.status().message();
    if (c.with_model) model(**s);
    const SdtpParts got = (*s)->ScoreParts(page(c.second_block));
    // Vectors and the document vector are floats: 1e-6 of float rounding.
    EXPECT_NEAR(got.sim, want.sim, 1e-6) << c.name;
    EXPECT_NEAR(got.static_sim, want.static_sim, 1e-6) << c.name;
    EXPECT_NEAR(got.dynamic_sim, want.dynamic_sim, 1e-6) << c.name;
    EXPECT_EQ(got.has_vectors, c.with_model) << c.name;
    EXPECT_EQ(got.contradiction.empty(), i + 1 != std::size(cases)) << c.name;
  }
}

}  // namespace
}  // namespace topicrawl
