// The SVM grid flags land in SvmGridOptions.
#include "cli/svm_grid_flags.h"

#include <gtest/gtest.h>

namespace topicrawl::cli {
namespace {

SvmGridOptions Parse(std::vector<std::string> args, bool* ok) {
  CLI::App app;
  SvmGridOptions g;
  AddSvmGridFlags(&app, &g);
  std::vector<std::string> rev(args.rbegin(), args.rend());
  try {
    app.parse(rev);
    *ok = true;
  } catch (const CLI::ParseError&) {
    *ok = false;
  }
  return g;
}

TEST(SvmGridFlagsTest, DefaultsAreTheSeeds) {
  bool ok = false;
  SvmGridOptions g = Parse({}, &ok);
  ASSERT_TRUE(ok);
  EXPECT_EQ(g.class_weight, SvmClassWeight::kNone);
  EXPECT_EQ(g.select, SvmSelection::kAccuracy);
  EXPECT_FALSE(g.tune_threshold);
  EXPECT_FALSE(g.group_folds);
}

TEST(SvmGridFlagsTest, ImbalancedAndGroupFolds) {
  bool ok = false;
  SvmGridOptions g = Parse({"--imbalanced", "--group-folds", "--log2c", "-1:5:3"}, &ok);
  ASSERT_TRUE(ok);
  EXPECT_EQ(g.class_weight, SvmClassWeight::kInverseFrequency);
  EXPECT_EQ(g.select, SvmSelection::kF1);
  EXPECT_TRUE(g.tune_threshold);
  EXPECT_TRUE(g.group_folds);
  EXPECT_EQ(g.log2c_min, -1);
  EXPECT_EQ(g.log2c_step, 3);
  g = Parse({"--class-weight", "balanced", "--select", "f1", "--threshold", "zero"}, &ok);
  ASSERT_TRUE(ok);
  EXPECT_EQ(g.class_weight, SvmClassWeight::kInverseFrequency);
  EXPECT_EQ(g.select, SvmSelection::kF1);
  EXPECT_FALSE(g.tune_threshold);
  Parse({"--select", "auc"}, &ok);
  EXPECT_FALSE(ok);
  Parse({"--class-weight", "2"}, &ok);
  EXPECT_FALSE(ok);
  Parse({"--threshold", "0.5"}, &ok);
  EXPECT_FALSE(ok);
}

}  // namespace
}  // namespace topicrawl::cli
