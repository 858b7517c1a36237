#include "eval/process_runner.h"

#include <gtest/gtest.h>

#include "eval/labels.h"
#include "support/fake_crawl_db.h"

namespace topicrawl::eval {
namespace {

TEST(ProcessRunnerTest, CapturesOutputAndExitStatus) {
  std::string dir = testing::MakeTempDir("proc");
  std::string log = dir + "/run.log";
  EXPECT_TRUE(RunProcess({"/bin/sh", "-c", "echo out; echo err >&2"}, log).ok());
  std::string text;
  ASSERT_TRUE(ReadWholeFile(log, &text).ok());
  EXPECT_EQ(text, "out\nerr\n");
  Status failed = RunProcess({"/bin/sh", "-c", "exit 3"}, log);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.message().find("exit code 3"), std::string::npos);
  Status killed = RunProcess({"/bin/sh", "-c", "kill -9 $$"}, log);
  ASSERT_FALSE(killed.ok());
  EXPECT_NE(killed.message().find("signal 9"), std::string::npos);
}

TEST(ProcessRunnerTest, ReportsMissingProgramAndBadLog) {
  std::string dir = testing::MakeTempDir("proc_missing");
  EXPECT_FALSE(RunProcess({"/nonexistent/program"}, dir + "/log").ok());
  EXPECT_FALSE(RunProcess({"/bin/true"}, dir + "/no/such/dir/log").ok());
  EXPECT_FALSE(RunProcess({}, dir + "/log").ok());
}

TEST(SplitShellWordsTest, HonoursQuotesAndEscapes) {
  StatusOr<std::vector<std::string>> w =
      SplitShellWords(R"(--a 1  --b "two words" --c 'it''s' --d a\ b "")");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, (std::vector<std::string>{"--a", "1", "--b", "two words", "--c", "its",
                                          "--d", "a b", ""}));
  EXPECT_TRUE(SplitShellWords("   ")->empty());
  EXPECT_FALSE(SplitShellWords("--a 'open").ok());
}

}  // namespace
}  // namespace topicrawl::eval
