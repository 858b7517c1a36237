#include "classify/naive_bayes.h"

#include <cmath>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "gtest/gtest.h"

namespace topicrawl {
namespace {

// The toy corpus of the binary (seed 001 eq. 2) tests:
//   +: {tcp, socket}  {tcp, http}
//   -: {c++, template}  {template, http}  {boost}
// P(+) = 2/5, P(-) = 3/5; P(F|+) = (n+1)/(2+2), P(F|-) = (n+1)/(3+2).
NaiveBayes ToyBinary() {
  NaiveBayes nb(NbModelKind::kLink, NbEventModel::kBinary);
  nb.Add({"tcp", "socket"}, true);
  nb.Add({"tcp", "http", "tcp"}, true);  // the repeated tcp counts once
  nb.Add({"c++", "template"}, false);
  nb.Add({"template", "http"}, false);
  nb.Add({"boost"}, false);
  return nb;
}

TEST(NaiveBayesTest, BinaryCountsSamplesNotOccurrences) {
  NaiveBayes nb = ToyBinary();
  EXPECT_DOUBLE_EQ(nb.FeatureProbability("tcp", true), 3.0 / 4);
  EXPECT_DOUBLE_EQ(nb.FeatureProbability("tcp", false), 1.0 / 5);
  EXPECT_EQ(nb.feature_total(true), 4);   // 2 + 2 distinct features
  EXPECT_EQ(nb.feature_total(false), 5);
}

TEST(NaiveBayesTest, BinaryKnownAnswer) {
  NaiveBayes nb = ToyBinary();
  // +: 2/5 * 3/4 * 2/4 = 0.15;  -: 3/5 * 1/5 * 2/5 = 0.048  -> 25/33.
  NbScore s = nb.Score({"tcp", "http"});
  EXPECT_NEAR(s.p_positive, 25.0 / 33.0, 1e-12);
  EXPECT_NEAR(s.log_positive, std::log(0.15), 1e-12);
  EXPECT_NEAR(s.log_negative, std::log(0.048), 1e-12);
  EXPECT_EQ(s.known, 2);
  EXPECT_TRUE(s.positive());
}

TEST(NaiveBayesTest, LaplaceSmoothingGivesUnseenInClassFeaturesMass) {
  NaiveBayes nb = ToyBinary();
  // "template" never occurs in +: (0+1)/(2+2), not 0.
  EXPECT_DOUBLE_EQ(nb.FeatureProbability("template", true), 1.0 / 4);
  // +: 2/5 * 1/4 = 0.1;  -: 3/5 * 3/5 = 0.36  -> 5/23.
  NbScore s = nb.Score({"template"});
  EXPECT_NEAR(s.p_positive, 5.0 / 23.0, 1e-12);
  EXPECT_FALSE(s.positive());
}

TEST(NaiveBayesTest, FeaturesNeverSeenInTrainingAreIgnored) {
  NaiveBayes nb = ToyBinary();
  NbScore only_unknown = nb.Score({"zzz", "qqq"});
  EXPECT_NEAR(only_unknown.p_positive, 2.0 / 5.0, 1e-12);  // the prior
  EXPECT_EQ(only_unknown.unknown, 2);
  EXPECT_EQ(only_unknown.known, 0);
  EXPECT_NEAR(nb.Score({"template", "zzz"}).p_positive, 5.0 / 23.0, 1e-12);
}

TEST(NaiveBayesTest, MultinomialKnownAnswer) {
  // +: [tcp tcp socket] [http tcp]   -: [template template boost] [http]
  // N+ = 5, N- = 4, |V| = 5; P(w|+) = (n+1)/10, P(w|-) = (n+1)/9.
  NaiveBayes nb(NbModelKind::kPage, NbEventModel::kMultinomial);
  nb.Add({"tcp", "tcp", "socket"}, true);
  nb.Add({"http", "tcp"}, true);
  nb.Add({"template", "template", "boost"}, false);
  nb.Add({"http"}, false);
  EXPECT_DOUBLE_EQ(nb.FeatureProbability("tcp", true), 4.0 / 10);
  EXPECT_DOUBLE_EQ(nb.FeatureProbability("tcp", false), 1.0 / 9);
  // Occurrences count: +: 1/2 * 4/10 * (2/10)^2 = 1/125;
  // -: 1/2 * 1/9 * (2/9)^2 = 2/729  ->  729/979.
  NbScore s = nb.Score({"tcp", "http", "http"});
  EXPECT_NEAR(s.p_positive, 729.0 / 979.0, 1e-12);
  EXPECT_EQ(s.known, 3);
}

TEST(NaiveBayesTest, LogSpaceSurvivesLongDocuments) {
  NaiveBayes nb(NbModelKind::kPage, NbEventModel::kMultinomial);
  nb.Add({"a", "b"}, true);
  nb.Add({"c", "d"}, false);
  std::vector<std::string> doc(5000, "a");  // (2/6)^5000 underflows a double
  NbScore s = nb.Score(doc);
  EXPECT_TRUE(std::isfinite(s.log_positive));
  EXPECT_GT(s.p_positive, 0.999);
  std::vector<std::string> neg(5000, "c");
  EXPECT_LT(nb.Score(neg).p_positive, 1e-3);
}

class NaiveBayesFileTest : public ::testing::Test {
 protected:
  std::string Path(const std::string& name) {
    return ::testing::TempDir() + "/nb_" + std::to_string(::getpid()) + "_" + name;
  }
};

TEST_F(NaiveBayesFileTest, SaveLoadRoundTripScoresIdentically) {
  NaiveBayes nb = ToyBinary();
  nb.feature_group = 2;
  nb.dictionary = {"tcp", "网络"};
  nb.Add({"网络", "协议"}, true);
  const std::string path = Path("roundtrip.json");
  ASSERT_TRUE(nb.Save(path).ok());
  auto loaded = NaiveBayes::Load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->feature_group, 2);
  EXPECT_EQ(loaded->dictionary, nb.dictionary);
  EXPECT_EQ(loaded->kind(), NbModelKind::kLink);
  EXPECT_EQ(loaded->event_model(), NbEventModel::kBinary);
  EXPECT_EQ(loaded->vocabulary_size(), nb.vocabulary_size());
  for (const auto& x : std::vector<std::vector<std::string>>{
           {"tcp", "http"}, {"template"}, {"网络"}, {"boost", "socket", "zzz"}}) {
    EXPECT_EQ(loaded->Score(x).p_positive, nb.Score(x).p_positive);
  }
  EXPECT_EQ(loaded->ToJson(), nb.ToJson());
  std::filesystem::remove(path);
}

TEST_F(NaiveBayesFileTest, LoadRejectsOtherFormatVersionWithClearMessage) {
  std::string json = ToyBinary().ToJson();
  const std::string from = "\"version\":1";
  ASSERT_NE(json.find(from), std::string::npos);
  json.replace(json.find(from), from.size(), "\"version\":2");
  auto r = NaiveBayes::FromJson(json, "m.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("version 2 is not supported"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("reads version 1"), std::string::npos);
}

TEST_F(NaiveBayesFileTest, LoadRejectsBadFiles) {
  EXPECT_FALSE(NaiveBayes::Load(Path("missing.json")).ok());
  EXPECT_FALSE(NaiveBayes::FromJson("not json", "x").ok());
  EXPECT_FALSE(NaiveBayes::FromJson("{\"format\":\"other\",\"version\":1}", "x").ok());
  // Counts that do not add up.
  std::string json = ToyBinary().ToJson();
  const std::string from = "\"feature_totals\":[5,4]";
  ASSERT_NE(json.find(from), std::string::npos) << json;
  json.replace(json.find(from), from.size(), "\"feature_totals\":[5,9]");
  auto r = NaiveBayes::FromJson(json, "x");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("do not add up"), std::string::npos);
}

TEST_F(NaiveBayesFileTest, SaveRefusesOneClassModel) {
  NaiveBayes nb(NbModelKind::kLink, NbEventModel::kBinary);
  nb.Add({"x"}, true);
  EXPECT_FALSE(nb.Trainable());
  EXPECT_FALSE(nb.Save(Path("oneclass.json")).ok());
}

}  // namespace
}  // namespace topicrawl
