#include "eval/round_truth.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace topicrawl::eval {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class RoundTruthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("round_truth_test_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir_);
    fs::create_directories(dir_ + "/truth");
    Write("evolve.tsv", "# x\nformat\ttopicrawl-evolved-web-1\nrounds\t2\n");
    Write("truth/round-1.tsv", "url\tstate\nhttp://a.test/1.html\tnew\nhttp://a.test/2.html\tchanged\n"
                               "http://a.test/3.html\tunchanged\nhttp://a.test/4.html\tgone\n"
                               "http://a.test/5.html\tnew\n");
    Write("truth/hubs-1.tsv", "url\tnew_links\nhttp://a.test/2.html\t2\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ + "/" + name, std::ios::binary | std::ios::trunc) << text;
  }
  std::string dir_;
};

TEST_F(RoundTruthTest, ReadsStatesAndHubs) {
  auto t = ReadRoundTruth(dir_, 1);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->round, 1);
  EXPECT_EQ(t->Count(PageChange::kNew), 2u);
  EXPECT_EQ(t->Count(PageChange::kChanged), 1u);
  EXPECT_EQ(t->Count(PageChange::kUnchanged), 1u);
  EXPECT_EQ(t->Count(PageChange::kGone), 1u);
  EXPECT_EQ(t->state.at("http://a.test/4.html"), PageChange::kGone);
  ASSERT_EQ(t->hubs.size(), 1u);
  EXPECT_EQ(t->hubs.at("http://a.test/2.html"), 2u);
  EXPECT_EQ(*TruthRounds(dir_), 2);
}

TEST_F(RoundTruthTest, ClearErrors) {
  EXPECT_THAT(ReadRoundTruth(dir_, 3).status().message(), HasSubstr("out of range"));
  EXPECT_THAT(ReadRoundTruth(dir_, 2).status().message(), HasSubstr("cannot read"));
  Write("truth/round-0.tsv", "url\tstate\nhttp://a.test/1.html\tborn\n");
  Write("truth/hubs-0.tsv", "url\tnew_links\n");
  EXPECT_THAT(ReadRoundTruth(dir_, 0).status().message(), HasSubstr("round-0.tsv:2: unknown state 'born'"));
  Write("truth/round-0.tsv", "url\tstate\nhttp://a.test/1.html\tnew\nhttp://a.test/1.html\tnew\n");
  EXPECT_THAT(ReadRoundTruth(dir_, 0).status().message(), HasSubstr("listed twice"));
  Write("truth/round-0.tsv", "u\ts\n");
  EXPECT_THAT(ReadRoundTruth(dir_, 0).status().message(), HasSubstr("header"));
  Write("EVOLVING", "x\n");
  EXPECT_THAT(ReadRoundTruth(dir_, 1).status().message(), HasSubstr("interrupted"));
  EXPECT_THAT(ReadRoundTruth(dir_ + "/nope", 1).status().message(), HasSubstr("not an evolved web"));
}

}  // namespace
}  // namespace topicrawl::eval
