// SDTP (seed 002 §4): eq. 8 tag and position weights on a fixture page,
// DSV expansion (eq. 9-10) on a toy corpus whose nearest words are known,
// and the contradiction rule of eq. 15.
#include "strategies/tda/sdtp_scorer.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "parse/html_parser.h"
#include "strategies/tda/sdtp_corpus.h"

namespace topicrawl {
namespace {

std::string ReadFixture(const std::string& name) {
  std::ifstream in(std::string(TOPICRAWL_SOURCE_DIR) + "/src/scoring/testdata/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::shared_ptr<SdtpScorer> Scorer(const Topic& topic, SdtpOptions o = {}) {
  auto s = SdtpScorer::Create(topic, o);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : nullptr;
}

// Sum of the factors a token got, split into reading order and extras.
std::pair<float, float> FactorOf(const WeightedTokens& w, const std::string& token) {
  float seq = 0, extra = 0;
  for (size_t i = 0; i < w.tokens.size(); ++i) {
    if (w.tokens[i] != token) continue;
    (i < w.sequence_end ? seq : extra) += w.factors[i];
  }
  return {seq, extra};
}

TEST(SdtpWeighTest, TagAndPositionFactorsOnAFixturePage) {
  ParsedPage page = ParseHtml(ReadFixture("sdtp_fixture.html"), "http://h/tcp.html");
  ASSERT_EQ(page.emphasis, std::vector<std::string>{"window"});
  SdtpOptions o;  // title 3, meta 2, heading 2, emphasis 1.5, anchor 1, boost 0.5
  o.tag_anchor = 1.25;
  auto s = Scorer(MakeTopic("net", {{"tcp", 1.0}}), o);
  WeightedTokens w = s->Weigh(page, "transport protocol");
  const size_t n = page.text_blocks.size();
  ASSERT_EQ(n, 4u);  // h1 + three paragraphs
  auto pos = [&](size_t j) { return static_cast<float>(1 + 0.5 * (1 - double(j) / n)); };
  // "tcp": once in the title (3) and once in the last block.
  EXPECT_FLOAT_EQ(FactorOf(w, "tcp").first, 3.0f + pos(3));
  // "socket": meta keywords and meta description (2 each); not visible.
  EXPECT_FLOAT_EQ(FactorOf(w, "socket").first, 4.0f);
  // "congestion": first block (pos 1.5), plus heading excess 2 - 1.
  EXPECT_FLOAT_EQ(FactorOf(w, "congestion").first, pos(0));
  EXPECT_FLOAT_EQ(FactorOf(w, "congestion").second, 1.0f);
  // "window": second block, plus emphasis excess 0.5.
  EXPECT_FLOAT_EQ(FactorOf(w, "window").first, pos(1));
  EXPECT_FLOAT_EQ(FactorOf(w, "window").second, 0.5f);
  // "datagram": third block, plus anchor excess 0.25.
  EXPECT_FLOAT_EQ(FactorOf(w, "datagram").second, 0.25f);
  // The anchor of the link that led here counts 2.
  EXPECT_FLOAT_EQ(FactorOf(w, "transport").first, 2.0f);
}

// Weigh tokenises the whole page in one call with marks between the
// fields; a page that holds the mark itself is tokenised field by field.
// Both give the same tokens and factors.
TEST(SdtpWeighTest, OneTokeniserCallGivesTheFieldsTheirFactors) {
  SdtpOptions joined;
  joined.join_fields = true;
  auto s = Scorer(MakeTopic("net", {{"tcp", 1.0}}), joined);
  for (const std::string mark : {"", " qxzsdtpsegqxz"}) {
    ParsedPage p;
    p.title = "tcp title";
    p.text_blocks = {"udp alpha", "network beta" + mark};
    p.headings = {"udp alpha"};
    WeightedTokens w = s->Weigh(p);
    std::vector<std::string> want = {"tcp", "title", "udp", "alpha", "network", "beta"};
    if (!mark.empty()) want.push_back("qxzsdtpsegqxz");
    const size_t seq = want.size();
    want.push_back("udp");
    want.push_back("alpha");
    EXPECT_EQ(w.tokens, want) << "mark '" << mark << "'";
    EXPECT_EQ(w.sequence_end, seq);
    // title 3; block 0 of 2: 1 + 0.5; block 1: 1 + 0.25; heading excess 1.
    std::vector<float> f = {3, 3, 1.5, 1.5, 1.25, 1.25};
    if (!mark.empty()) f.push_back(1.25);
    f.push_back(1);
    f.push_back(1);
    EXPECT_EQ(w.factors, f) << "mark '" << mark << "'";
  }
  // join_fields = false (one call a field, the default) gives the same on
  // a real page.
  SdtpOptions per_field;
  per_field.join_fields = false;
  auto t = Scorer(MakeTopic("net", {{"tcp", 1.0}}), per_field);
  ParsedPage page = ParseHtml(ReadFixture("sdtp_fixture.html"), "http://h/tcp.html");
  WeightedTokens a = s->Weigh(page, "tcp anchor"), b = t->Weigh(page, "tcp anchor");
  EXPECT_EQ(a.tokens, b.tokens);
  EXPECT_EQ(a.factors, b.factors);
  EXPECT_EQ(a.sequence_end, b.sequence_end);
  EXPECT_GT(a.sequence_end, 10u);
  EXPECT_EQ(s->Weigh(ParsedPage{}).tokens.size(), 0u);
  EXPECT_EQ(s->Weigh(ParsedPage{}).sequence_end, 0u);
}

TEST(SdtpWeighTest, ATermHigherUpAndInTheTitleWeighsMore) {
  auto s = Scorer(MakeTopic("net", {{"tcp", 1.0}, {"cooking", 1.0}}));
  ParsedPage top, bottom;
  top.title = "tcp";
  top.text_blocks = {"cooking tcp", "filler words here", "more filler words"};
  bottom.title = "filler";
  bottom.text_blocks = {"cooking filler", "filler words here", "more filler words tcp"};
  SdtpParts a = s->ScoreParts(top), b = s->ScoreParts(bottom);
  ASSERT_EQ(a.static_terms.size(), 2u);
  EXPECT_EQ(a.static_terms[0].term, "tcp");
  EXPECT_EQ(b.static_terms[0].term, "cooking");
  EXPECT_FALSE(a.has_vectors);
  EXPECT_DOUBLE_EQ(a.sim, a.static_sim);
}

TEST(SdtpContradictionTest, AContradictionWordZeroesTheScore) {
  Topic t = MakeTopic("security", {{"security", 1.0}, {"attack", 0.6}});
  t.contradiction_words = {"Football"};
  auto s = Scorer(t);
  ParsedPage clean, contra;
  clean.text_blocks = {"a security attack on the login form"};
  contra.text_blocks = {"a security attack by the football team's defence"};
  SdtpParts c = s->ScoreParts(clean);
  SdtpParts x = s->ScoreParts(contra);
  EXPECT_GT(c.sim, 0.5);
  EXPECT_TRUE(c.contradiction.empty());
  EXPECT_EQ(x.contradiction, "football");
  EXPECT_GT(x.static_sim, 0.5);  // the parts are still reported
  EXPECT_EQ(x.sim, 0.0);
  EXPECT_EQ(s->Score(contra).relevance, 0.0);
}

TEST(SdtpContradictionTest, ParsedPagesWithAndWithoutTheWord) {
  // Real HTML through the parser and the tokeniser (jieba for Chinese): the
  // word counts in the title or the body, and only as a whole word.
  Topic t = MakeTopic("zh-security", {{"安全", 1.0}, {"加密", 0.8}});
  t.contradiction_words = {"游戏"};
  auto s = Scorer(t);
  ParsedPage clean = ParseHtml(
      "<html><head><title>系统安全</title></head><body><p>使用加密保护服务器的安全。</p>"
      "</body></html>", "http://h/a.html");
  ParsedPage in_body = ParseHtml(
      "<html><head><title>系统安全</title></head><body><p>使用加密保护服务器的安全。</p>"
      "<p>这个游戏的账号安全</p></body></html>", "http://h/b.html");
  ParsedPage in_title = ParseHtml(
      "<html><head><title>游戏安全</title></head><body><p>加密</p></body></html>",
      "http://h/c.html");
  SdtpParts c = s->ScoreParts(clean);
  EXPECT_TRUE(c.contradiction.empty());
  EXPECT_GT(c.sim, 0.5);
  for (const ParsedPage* p : {&in_body, &in_title}) {
    SdtpParts x = s->ScoreParts(*p);
    EXPECT_EQ(x.contradiction, "游戏");
    EXPECT_GT(x.static_sim, 0.5);
    EXPECT_EQ(x.sim, 0.0);
  }
  // English: "football" inside another word is not the word.
  Topic e = MakeTopic("security", {{"security", 1.0}});
  e.contradiction_words = {"football"};
  auto es = Scorer(e);
  ParsedPage word = ParseHtml("<p>security of the football club</p>", "http://h/d.html");
  ParsedPage part = ParseHtml("<p>security of footballers</p>", "http://h/e.html");
  EXPECT_EQ(es->ScoreParts(word).sim, 0.0);
  EXPECT_GT(es->ScoreParts(part).sim, 0.5);
}

TEST(SdtpOntologyTest, SynonymsCountAsTheirTerm) {
  Topic t = MakeTopic("security", {{"security", 1.0}});
  t.ontology = {{"encryption", 1.0, {"cipher", "crypto"}}, {"attack", 0.5, {}}};
  auto s = Scorer(t);
  ASSERT_EQ(s->ontology().size(), 2u);  // [topic.ontology] replaces keywords
  ParsedPage p;
  p.text_blocks = {"cipher crypto"};
  SdtpParts parts = s->ScoreParts(p);
  ASSERT_EQ(parts.static_terms.size(), 1u);
  EXPECT_EQ(parts.static_terms[0].term, "encryption");
  EXPECT_EQ(parts.static_terms[0].count, 2);  // both synonyms count
  EXPECT_NEAR(parts.static_sim, 1.0 / std::sqrt(1.25), 1e-9);
}

// A toy corpus: networking lines mix {tcp, udp, network} with words the
// topic does not know {quic, packet, router}; cooking lines use their own
// words; {page, index} occur everywhere.
class SdtpDsvTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                     ("sdtp_dsv_test_" + std::to_string(::getpid())));
    std::filesystem::create_directories(*dir_);
    auto corpus = SdtpCorpus::Create((*dir_ / "corpus.txt").string());
    ASSERT_TRUE(corpus.ok());
    std::mt19937 rng(5);
    const std::vector<std::string> net = {"tcp", "udp", "network", "quic", "packet", "router"};
    const std::vector<std::string> cook = {"flour", "oven", "sugar", "butter", "bake", "recipe"};
    const std::vector<std::string> generic = {"page", "index"};
    // Topical pages come from two sites; those of "manual.test" (every
    // fourth page) also use "foreword", a word of that one manual's prose.
    for (int doc = 0; doc < 600; ++doc) {
      const bool topical = doc % 2 == 0;
      const bool manual = doc % 4 == 0;
      const auto& words = topical ? net : cook;
      WeightedTokens w;
      for (int i = 0; i < 40; ++i) {
        w.tokens.push_back(rng() % 5 == 0 ? generic[rng() % 2] : words[rng() % words.size()]);
        if (manual && i % 8 == 0) w.tokens.back() = "foreword";
      }
      w.factors.assign(w.tokens.size(), 1.0f);
      w.sequence_end = w.tokens.size();
      (*corpus)->Add(w, topical, topical ? (manual ? "manual.test" : "other.test") : "c.test");
    }
    ASSERT_TRUE((*corpus)->Flush().ok());
    stats_ = new StringMap<TermStats>((*corpus)->Stats());
    WordVectorOptions o;
    o.dim = 16;
    o.epoch = 10;
    o.threads = 1;
    auto v = WordVectors::Train((*corpus)->path(), o);
    ASSERT_TRUE(v.ok()) << v.status().message();
    vectors_ = new std::shared_ptr<const WordVectors>(*v);
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
    delete stats_;
    delete vectors_;
  }
  static std::filesystem::path* dir_;
  static StringMap<TermStats>* stats_;
  static std::shared_ptr<const WordVectors>* vectors_;
};
std::filesystem::path* SdtpDsvTest::dir_ = nullptr;
StringMap<TermStats>* SdtpDsvTest::stats_ = nullptr;
std::shared_ptr<const WordVectors>* SdtpDsvTest::vectors_ = nullptr;

// Training reports progress, and a cancel (set from another thread while
// fastText runs, as SIGTERM sets the crawl's stop flag) ends it with an
// error that says so, long before the epochs would have run out.
TEST_F(SdtpDsvTest, TrainingReportsProgressAndStopsWhenCancelled) {
  const std::string corpus = (*dir_ / "corpus.txt").string();
  WordVectorOptions o;
  o.dim = 16;
  o.epoch = 2;
  o.threads = 1;
  std::vector<double> shares;
  o.progress = [&shares](double done, double) { shares.push_back(done); };
  ASSERT_TRUE(WordVectors::Train(corpus, o).ok());
  ASSERT_GE(shares.size(), 2u);
  EXPECT_TRUE(std::is_sorted(shares.begin(), shares.end()));
  EXPECT_LT(shares.back(), 1.0);

  std::atomic<bool> cancel{false};
  o.cancel = &cancel;
  o.epoch = 1000000;  // hours of training unless cancelled
  size_t calls = 0;
  o.progress = [&](double, double) {
    if (++calls == 3) cancel = true;  // mid-training, from fastText's thread
  };
  auto v = WordVectors::Train(corpus, o);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().message().find("cancelled"), std::string::npos) << v.status().message();
  EXPECT_EQ(calls, 3u);  // no callback after the cancel: training ended there
  // Cancelled before it starts: no training at all.
  auto early = WordVectors::Train(corpus, o);
  ASSERT_FALSE(early.ok());
  EXPECT_NE(early.status().message().find("cancelled"), std::string::npos);
}

TEST_F(SdtpDsvTest, NearestWordsFollowTheCorpus) {
  const WordVectors& v = **vectors_;
  const std::set<std::string> cook = {"flour", "oven", "sugar", "butter", "bake", "recipe"};
  for (const char* w : {"quic", "tcp"}) {
    for (auto [id, sim] : v.Nearest(v.Id(w), 4)) {
      EXPECT_FALSE(cook.contains(v.Word(id))) << w << " near " << v.Word(id);
    }
  }
  for (auto [id, sim] : v.Nearest(v.Id("flour"), 4)) {
    EXPECT_TRUE(cook.contains(v.Word(id)) || v.Word(id) == "page" || v.Word(id) == "index")
        << "flour near " << v.Word(id);
  }
  // IDF: "page" is in nearly every line, "quic" in half of them.
  EXPECT_LT(v.Idf(v.Id("page")), v.Idf(v.Id("quic")));
}

TEST_F(SdtpDsvTest, TheDsvGainsTheTopicsNewWordsOnly) {
  auto s = Scorer(MakeTopic("net", {{"tcp", 1.0}, {"udp", 0.8}, {"network", 0.6}}));
  Dsv dsv = s->BuildDsv(**vectors_, *stats_);
  std::set<std::string> fresh;
  for (const DsvTerm& t : dsv.terms) {
    if (!t.is_static) fresh.insert(t.term);
  }
  EXPECT_EQ(fresh, (std::set<std::string>{"quic", "packet", "router"}));
  EXPECT_EQ(dsv.NewTerms(), 3u);
  // "foreword" is as topical as quic (every occurrence in a topical page)
  // but all on one site: min_term_sites = 2 (default) keeps it out, 1 lets
  // it in.
  const TermStats& fw = stats_->at("foreword");
  EXPECT_EQ(fw.topical_sites, 1u);
  EXPECT_EQ(fw.topical_pages, 150u);
  EXPECT_EQ(stats_->at("quic").topical_sites, 2u);
  SdtpOptions one_site;
  one_site.min_term_sites = 1;
  Dsv loose = Scorer(MakeTopic("net", {{"tcp", 1.0}, {"udp", 0.8}, {"network", 0.6}}), one_site)
                  ->BuildDsv(**vectors_, *stats_);
  std::set<std::string> loose_fresh;
  for (const DsvTerm& t : loose.terms) {
    if (!t.is_static) loose_fresh.insert(t.term);
  }
  EXPECT_EQ(loose_fresh, (std::set<std::string>{"quic", "packet", "router", "foreword"}));
  // min_term_pages: no word is in more than the 300 topical pages.
  SdtpOptions many_pages;
  many_pages.min_term_pages = 301;
  EXPECT_EQ(Scorer(MakeTopic("net", {{"tcp", 1.0}}), many_pages)
                ->BuildDsv(**vectors_, *stats_)
                .NewTerms(),
            0u);
  // With vectors installed, a networking page made only of the NEW words
  // (no static term at all) is found by DynamicSim; a cooking page is not.
  s->InstallModel(*vectors_, dsv);
  ParsedPage net, cook;
  net.text_blocks = {"quic packet router quic"};
  cook.text_blocks = {"flour sugar oven butter"};
  SdtpParts a = s->ScoreParts(net), b = s->ScoreParts(cook);
  EXPECT_TRUE(a.has_vectors);
  EXPECT_EQ(a.static_sim, 0.0);
  EXPECT_GT(a.dynamic_sim, 0.5);
  EXPECT_LT(b.dynamic_sim, a.dynamic_sim - 0.3);
  // combine = "gated" (default): no static support, no Sim; as a link
  // text (linear eq. 15) the same words score alpha * DynamicSim.
  EXPECT_EQ(a.sim, 0.0);
  SdtpParts text = s->ScoreText("quic packet router quic");
  EXPECT_NEAR(text.dynamic_sim, a.dynamic_sim, 1e-6);
  EXPECT_NEAR(text.sim, 0.5 * text.dynamic_sim, 1e-12);  // alpha = 0.5
}

TEST_F(SdtpDsvTest, MinTermCharsAndNewTermsMass) {
  const Topic topic = MakeTopic("net", {{"tcp", 1.0}, {"udp", 0.8}, {"network", 0.6}});
  const Dsv plain = Scorer(topic)->BuildDsv(**vectors_, *stats_);
  // min_term_chars counts characters: "quic" has 4, "packet" and "router" 6.
  SdtpOptions chars;
  chars.min_term_chars = 5;
  std::set<std::string> fresh;
  for (const DsvTerm& t : Scorer(topic, chars)->BuildDsv(**vectors_, *stats_).terms) {
    if (!t.is_static) fresh.insert(t.term);
  }
  EXPECT_EQ(fresh, (std::set<std::string>{"packet", "router"}));
  // new_terms_mass = 0.1: the new terms' weights sum to a tenth of the ontology's
  // (2.4), in the same ratios, with the same RDs; the static terms keep theirs.
  SdtpOptions mass;
  mass.new_terms_mass = 0.1;
  const Dsv capped = Scorer(topic, mass)->BuildDsv(**vectors_, *stats_);
  ASSERT_EQ(capped.terms.size(), plain.terms.size());
  double new_sum = 0, plain_new_sum = 0;
  for (size_t i = 0; i < capped.terms.size(); ++i) {
    EXPECT_EQ(capped.terms[i].term, plain.terms[i].term);
    EXPECT_DOUBLE_EQ(capped.terms[i].rd, plain.terms[i].rd);
    if (capped.terms[i].is_static) {
      EXPECT_EQ(capped.terms[i].weight, plain.terms[i].weight);
    } else {
      new_sum += capped.terms[i].weight;
      plain_new_sum += plain.terms[i].weight;
    }
  }
  ASSERT_GT(plain_new_sum, 0.45);  // 3 terms of RD > mu = 0.15: the cap (0.24) binds
  EXPECT_NEAR(new_sum, 0.1 * 2.4, 1e-9);
  EXPECT_NEAR(capped.terms[4].weight / capped.terms[3].weight,
              plain.terms[4].weight / plain.terms[3].weight, 1e-9);
}

// dynamic_norm = "length" (docs/notebook/tda.md "SDTP vs VSM"): DynamicSim normalised by the
// page's word weight. The length form is the weighted mean cos(v_t, DSV) of
// the page's words, so generic words dilute it; the paper's cosine of the
// summed vector is the same for a page and for that page repeated.
TEST_F(SdtpDsvTest, LengthNormalisedDynamicSimIsTheMeanWordSimilarity) {
  const Topic topic = MakeTopic("net", {{"tcp", 1.0}, {"udp", 0.8}, {"network", 0.6}});
  SdtpOptions length;
  length.dynamic_norm = SdtpOptions::DynamicNorm::kLength;
  auto cos = Scorer(topic);
  auto len = Scorer(topic, length);
  const Dsv dsv = cos->BuildDsv(**vectors_, *stats_);
  cos->InstallModel(*vectors_, dsv);
  len->InstallModel(*vectors_, dsv);
  const WordVectors& v = **vectors_;
  // By hand: every token factor 1, IDF from the vectors.
  ParsedPage mixed;
  mixed.text_blocks = {"quic packet flour page"};
  double num = 0, den = 0, dsv_norm = 0;
  for (float x : dsv.vector) dsv_norm += double(x) * x;
  for (const char* w : {"quic", "packet", "flour", "page"}) {
    const uint32_t id = v.Id(w);
    ASSERT_NE(id, WordVectors::kNoWord) << w;
    double dot = 0;
    for (int k = 0; k < v.dim(); ++k) dot += double(v.Vector(id)[k]) * dsv.vector[k];
    num += v.Idf(id) / 4.0 * dot / std::sqrt(dsv_norm);
    den += v.Idf(id) / 4.0;
  }
  SdtpParts m = len->ScoreParts(mixed);
  EXPECT_NEAR(m.dynamic_sim, std::clamp(num / den, 0.0, 1.0), 1e-5);
  // Dilution: the same topical words among cooking words score lower by
  // length, while the cosine of the summed vector barely moves when a
  // page is its own words repeated.
  ParsedPage pure, diluted, twice;
  pure.text_blocks = {"quic packet router"};
  twice.text_blocks = {"quic packet router quic packet router"};
  diluted.text_blocks = {"quic packet router flour sugar oven butter bake recipe"};
  EXPECT_LT(len->ScoreParts(diluted).dynamic_sim, len->ScoreParts(pure).dynamic_sim - 0.1);
  EXPECT_NEAR(cos->ScoreParts(twice).dynamic_sim, cos->ScoreParts(pure).dynamic_sim, 1e-5);
  EXPECT_NEAR(len->ScoreParts(twice).dynamic_sim, len->ScoreParts(pure).dynamic_sim, 1e-5);
  // A networking page is still far above a cooking page.
  ParsedPage cook;
  cook.text_blocks = {"flour sugar oven butter"};
  EXPECT_GT(len->ScoreParts(pure).dynamic_sim, len->ScoreParts(cook).dynamic_sim + 0.3);
}

// combine = "gated": DynamicSim counts in proportion to the
// static support min(1, StaticSim / gate): a page of new DSV words alone
// (StaticSim 0, high DynamicSim) is not relevant; a page with the expert
// terms gets the paper's linear eq. 15.
TEST_F(SdtpDsvTest, GatedCombinationNeedsStaticSupport) {
  const Topic topic = MakeTopic("net", {{"tcp", 1.0}, {"udp", 0.8}, {"network", 0.6}});
  SdtpOptions gated;
  gated.combine = SdtpOptions::Combine::kGated;
  gated.gate = 0.5;
  SdtpOptions linear;
  linear.combine = SdtpOptions::Combine::kLinear;
  auto lin = Scorer(topic, linear);
  auto gat = Scorer(topic, gated);
  const Dsv dsv = lin->BuildDsv(**vectors_, *stats_);
  lin->InstallModel(*vectors_, dsv);
  gat->InstallModel(*vectors_, dsv);
  ParsedPage fresh_only, weak, strong;
  fresh_only.text_blocks = {"quic packet router quic"};       // StaticSim 0
  weak.text_blocks = {"quic packet router quic packet network"};  // StaticSim 0.6 / |topic|
  strong.text_blocks = {"tcp udp network quic"};
  SdtpParts lf = lin->ScoreParts(fresh_only), gf = gat->ScoreParts(fresh_only);
  EXPECT_GT(lf.dynamic_sim, 0.5);
  EXPECT_NEAR(lf.sim, 0.5 * lf.dynamic_sim, 1e-12);  // linear: relevant on DynamicSim alone
  EXPECT_EQ(gf.static_sim, 0.0);
  EXPECT_EQ(gf.sim, 0.0);                             // gated: no static support, no Sim
  SdtpParts gw = gat->ScoreParts(weak);
  ASSERT_GT(gw.static_sim, 0.0);
  ASSERT_LT(gw.static_sim, gated.gate);
  EXPECT_NEAR(gw.sim, 0.5 * gw.dynamic_sim * gw.static_sim / gated.gate + 0.5 * gw.static_sim,
              1e-12);
  SdtpParts gs = gat->ScoreParts(strong), ls = lin->ScoreParts(strong);
  ASSERT_GE(gs.static_sim, gated.gate);
  EXPECT_DOUBLE_EQ(gs.sim, ls.sim);  // full support: eq. 15 as in the paper
  // gate 0 (default): the StaticSim of a page with the heaviest term alone,
  // 1 / |(1, 0.8, 0.6)| = 1 / sqrt(2); such a page gets full support.
  SdtpOptions auto_gate;
  auto_gate.combine = SdtpOptions::Combine::kGated;
  auto ag = Scorer(topic, auto_gate);
  EXPECT_NEAR(ag->gate(), 1 / std::sqrt(2.0), 1e-12);
  ag->InstallModel(*vectors_, dsv);
  ParsedPage top_term;
  top_term.text_blocks = {"tcp quic packet"};
  SdtpParts at = ag->ScoreParts(top_term), lt = lin->ScoreParts(top_term);
  EXPECT_NEAR(at.static_sim, ag->gate(), 1e-9);
  EXPECT_NEAR(at.sim, lt.sim, 1e-9);
  // The contradiction rule still wins over any combination.
  Topic contra = topic;
  contra.contradiction_words = {"oven"};
  SdtpOptions cg = gated;
  auto gc = Scorer(contra, cg);
  gc->InstallModel(*vectors_, dsv);
  ParsedPage with_word;
  with_word.text_blocks = {"tcp udp network quic oven"};
  SdtpParts x = gc->ScoreParts(with_word);
  EXPECT_GT(x.static_sim, 0.5);
  EXPECT_EQ(x.contradiction, "oven");
  EXPECT_EQ(x.sim, 0.0);
}

// max_term_df: quic, packet and router are in about half of the
// 600 training lines (every topical one), foreword in a quarter.
TEST_F(SdtpDsvTest, DocumentFrequencyCeilingOnNewTerms) {
  const Topic topic = MakeTopic("net", {{"tcp", 1.0}, {"udp", 0.8}, {"network", 0.6}});
  const WordVectors& v = **vectors_;
  EXPECT_NEAR(std::exp(-v.Idf(v.Id("quic"))), 0.5, 0.05);
  auto fresh_of = [&](SdtpOptions o) {
    std::set<std::string> fresh;
    for (const DsvTerm& t : Scorer(topic, o)->BuildDsv(v, *stats_).terms) {
      if (!t.is_static) fresh.insert(t.term);
    }
    return fresh;
  };
  SdtpOptions loose;
  loose.max_term_df = 0.6;
  EXPECT_EQ(fresh_of(loose), (std::set<std::string>{"quic", "packet", "router"}));
  SdtpOptions tight;
  tight.max_term_df = 0.4;
  EXPECT_TRUE(fresh_of(tight).empty());
  tight.min_term_sites = 1;  // foreword (df 0.25) passes a 0.4 ceiling
  EXPECT_EQ(fresh_of(tight), (std::set<std::string>{"foreword"}));
}

TEST_F(SdtpDsvTest, VectorsSurviveSaveAndLoad) {
  const std::string path = (*dir_ / "v.bin").string();
  ASSERT_TRUE((*vectors_)->Save(path).ok());
  auto loaded = WordVectors::Load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  const WordVectors& a = **vectors_;
  const WordVectors& b = **loaded;
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.documents(), b.documents());
  const uint32_t id = b.Id("quic");
  ASSERT_NE(id, WordVectors::kNoWord);
  EXPECT_FLOAT_EQ(b.Similarity(id, b.Id("tcp")), a.Similarity(a.Id("quic"), a.Id("tcp")));
  std::ofstream(path) << "junk";
  EXPECT_FALSE(WordVectors::Load(path).ok());
}

TEST(WordVectorsTest, CenteringRemovesTheCommonDirection) {
  // Two groups of words around (1, 0, 0) and (0, 1, 0), all sharing a large
  // common component (0, 0, 4): raw, every pair looks alike; centred, the
  // groups point apart and each group stays together.
  std::vector<std::string> words = {"a1", "a2", "b1", "b2"};
  std::vector<float> rows = {1.0f, 0.1f, 4, 1.0f, -0.1f, 4,
                             0.1f, 1.0f, 4, -0.1f, 1.0f, 4};
  auto raw = WordVectors::FromRows(words, rows, 3, {1, 1, 1, 1}, 2);
  auto c = WordVectors::Centered(*raw);
  EXPECT_GT(raw->Similarity(0, 2), 0.9f);
  EXPECT_LT(c->Similarity(0, 2), -0.9f);
  EXPECT_GT(c->Similarity(0, 1), 0.9f);
  EXPECT_GT(c->Similarity(2, 3), 0.9f);
  // Unit rows, ids, IDFs and document count are kept.
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(Dot(c->Vector(i), c->Vector(i)), 1.0f, 1e-5);
    EXPECT_EQ(c->Id(words[i]), i);
  }
  EXPECT_EQ(c->documents(), 2u);
}

TEST(SdtpCorpusTest, CountsTopicalPagesAndSitesOncePerPage) {
  const std::string path = ::testing::TempDir() + "/sdtp_corpus_count.txt";
  auto corpus = SdtpCorpus::Create(path);
  ASSERT_TRUE(corpus.ok());
  auto page = [](std::vector<std::string> tokens, size_t extras) {
    WeightedTokens w;
    w.tokens = std::move(tokens);
    w.factors.assign(w.tokens.size(), 1.0f);
    w.sequence_end = w.tokens.size() - extras;
    return w;
  };
  (*corpus)->Add(page({"a", "a", "b", "c"}, 1), true, "x");   // c only as an extra
  (*corpus)->Add(page({"a", "b"}, 0), true, "x");
  (*corpus)->Add(page({"a", "c"}, 0), false, "y");             // not topical
  (*corpus)->Add(page({"a"}, 0), true, "z");
  for (int i = 0; i < 12; ++i) (*corpus)->Add(page({"d"}, 0), true, "s" + std::to_string(i));
  auto st = (*corpus)->Stats();
  EXPECT_EQ(st.at("a").topical_count, 4u);
  EXPECT_EQ(st.at("a").topical_pages, 3u);
  EXPECT_EQ(st.at("a").topical_sites, 2u);  // x, z
  EXPECT_EQ(st.at("b").topical_pages, 2u);
  EXPECT_EQ(st.at("b").topical_sites, 1u);
  EXPECT_EQ(st.at("c").topical_pages, 0u);   // extras add weight, not presence
  EXPECT_EQ(st.at("d").topical_pages, 12u);
  EXPECT_EQ(st.at("d").topical_sites, TermStats::kMaxSites);  // counted up to the cap
}

TEST(SdtpOptionsTest, ReadsTheStrategyTableAndRejectsTypos) {
  Topic t = MakeTopic("x", {{"a", 1.0}});
  t.strategies["tda"].name = "tda";
  t.strategies["tda"].Set("alpha", 0.7);
  t.strategies["tda"].Set("dim", int64_t{32});
  auto o = SdtpOptionsFromTopic(t);
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->alpha, 0.7);
  EXPECT_EQ(o->training.dim, 32);
  EXPECT_EQ(o->mu, SdtpOptions{}.mu);
  EXPECT_FALSE(o->training.center);
  EXPECT_EQ(o->combine, SdtpOptions::Combine::kGated);  // the default
  EXPECT_EQ(o->dynamic_norm, SdtpOptions::DynamicNorm::kCosine);
  EXPECT_EQ(o->gate, 0.0);                              // auto: w_max / |w|
  t.strategies["tda"].Set("center", true);
  EXPECT_TRUE(SdtpOptionsFromTopic(t)->training.center);
  t.strategies["tda"].Set("min_term_sites", int64_t{3});
  EXPECT_EQ(SdtpOptionsFromTopic(t)->min_term_sites, 3);
  t.strategies["tda"].Set("min_term_sites", int64_t{9});  // above TermStats::kMaxSites
  EXPECT_FALSE(SdtpOptionsFromTopic(t).ok());
  t.strategies["tda"].Set("min_term_sites", int64_t{2});
  t.strategies["tda"].Set("dynamic_norm", std::string("length"));
  t.strategies["tda"].Set("combine", std::string("gated"));
  t.strategies["tda"].Set("gate", 0.25);
  t.strategies["tda"].Set("max_term_df", 0.1);
  o = SdtpOptionsFromTopic(t);
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->dynamic_norm, SdtpOptions::DynamicNorm::kLength);
  EXPECT_EQ(o->combine, SdtpOptions::Combine::kGated);
  EXPECT_EQ(o->gate, 0.25);
  EXPECT_EQ(o->max_term_df, 0.1);
  t.strategies["tda"].Set("combine", std::string("product"));
  EXPECT_FALSE(SdtpOptionsFromTopic(t).ok());
  t.strategies["tda"].Set("combine", std::string("linear"));
  t.strategies["tda"].Set("dynamic_norm", std::string("l2"));
  EXPECT_FALSE(SdtpOptionsFromTopic(t).ok());
  t.strategies["tda"].Set("dynamic_norm", std::string("cosine"));
  t.strategies["tda"].Set("max_term_df", 1.5);
  EXPECT_FALSE(SdtpOptionsFromTopic(t).ok());
  t.strategies["tda"].Set("max_term_df", 1.0);
  t.strategies["tda"].Set("alpah", 0.7);
  EXPECT_FALSE(SdtpOptionsFromTopic(t).ok());
}

}  // namespace
}  // namespace topicrawl
