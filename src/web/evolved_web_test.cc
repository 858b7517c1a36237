#include "web/evolved_web.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "web/version_rounds.h"

namespace topicrawl::web {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

class EvolvedWebTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("evolved_web_test_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Two rounds: round 0 hides b, round 1 publishes b, changes a (its
  // directory form too), makes c gone (410).
  void MakeTwoRounds() {
    ASSERT_TRUE(PrepareEvolvedDir(dir_, false, "test").ok());
    ASSERT_TRUE(WriteOverlay(dir_, 0, {{"http://h.test/b.html", OverlayAction::kHidden}}).ok());
    ASSERT_TRUE(WriteOverlay(dir_, 1, {{"http://h.test/d/index.html", OverlayAction::kPage},
                                       {"http://h.test/b.html", OverlayAction::kBase},
                                       {"http://h.test/c.html", OverlayAction::kGone410}})
                    .ok());
    ASSERT_TRUE(FinishEvolvedDir(dir_, {{"mode", "simulated"}, {"base", "/b"}, {"rounds", "1"}}).ok());
  }
  std::string dir_;
};

TEST_F(EvolvedWebTest, FoldTakesTheLastActionOfEachUrl) {
  MakeTwoRounds();
  auto web = OpenEvolvedWeb(dir_);
  ASSERT_TRUE(web.ok()) << web.status().message();
  EXPECT_EQ(web->rounds, 1);
  EXPECT_EQ(web->mode, "simulated");
  auto r0 = FoldOverlays(*web, 0);
  ASSERT_TRUE(r0.ok());
  EXPECT_EQ(r0->size(), 1u);
  EXPECT_EQ(r0->at("http://h.test/b.html").action, OverlayAction::kHidden);
  auto r1 = FoldOverlays(*web, 1);
  ASSERT_TRUE(r1.ok());
  EXPECT_EQ(r1->at("http://h.test/b.html").action, OverlayAction::kBase);
  EXPECT_EQ(r1->at("http://h.test/c.html").action, OverlayAction::kGone410);
  EXPECT_EQ(r1->at("http://h.test/d/index.html").round, 1);
}

TEST_F(EvolvedWebTest, NginxMapAnswersGoneHiddenAndOverlayFiles) {
  MakeTwoRounds();
  auto web = OpenEvolvedWeb(dir_);
  ASSERT_TRUE(web.ok());
  auto r0 = RenderRoundNginx(*web, 0);
  ASSERT_TRUE(r0.ok());
  EXPECT_THAT(r0->http, HasSubstr("\"h.test/b.html\" \"404\";"));
  EXPECT_EQ(r0->entries, 1u);
  auto r1 = RenderRoundNginx(*web, 1);
  ASSERT_TRUE(r1.ok());
  EXPECT_THAT(r1->http, Not(HasSubstr("h.test/b.html")));  // base again: no entry
  EXPECT_THAT(r1->http, HasSubstr("\"h.test/c.html\" \"410\";"));
  EXPECT_THAT(r1->http, HasSubstr("\"h.test/d/index.html\" \"/__topicrawl_round__/1/pages/h.test/d/index.html\";"));
  EXPECT_THAT(r1->http, HasSubstr("\"h.test/d/\" \"/__topicrawl_round__/1/pages/h.test/d/index.html\";"));
  EXPECT_EQ(r1->entries, 3u);
  EXPECT_THAT(r1->server, HasSubstr("if ($topicrawl_round = 410) { return 410; }"));
  EXPECT_THAT(r1->server, HasSubstr("alias \"" + web->dir + "/rounds/\";"));
}

TEST_F(EvolvedWebTest, OverlayFilePathsStayInsideTheRound) {
  EXPECT_EQ(OverlayFilePath("/e", 2, "http://h.test/a%20b/c.html"), "/e/rounds/2/pages/h.test/a b/c.html");
  EXPECT_EQ(OverlayFilePath("/e", 2, "http://h.test/a/../../x.html"), "");
  EXPECT_EQ(OverlayFilePath("/e", 2, "http://h.test/a/%2E%2E/x.html"), "");
  EXPECT_EQ(OverlayFilePath("/e", 2, "https://h.test/x.html"), "");
  EXPECT_EQ(OverlayFilePath("/e", 2, "http://h.test/dir/"), "");
}

TEST_F(EvolvedWebTest, MarkersMakeInterruptedAndRepeatedRunsClearErrors) {
  EXPECT_THAT(OpenEvolvedWeb(dir_).status().message(), HasSubstr("not an evolved web"));
  ASSERT_TRUE(PrepareEvolvedDir(dir_, false, "web evolve --seed 3").ok());
  ASSERT_TRUE(WriteOverlay(dir_, 0, {}).ok());
  // Interrupted here: EVOLVING stays.
  EXPECT_THAT(OpenEvolvedWeb(dir_).status().message(), HasSubstr("interrupted evolution (web evolve --seed 3"));
  EXPECT_THAT(PrepareEvolvedDir(dir_, false, "again").message(), HasSubstr("interrupted"));
  EXPECT_TRUE(fs::exists(dir_ + "/rounds/0/overlay.tsv")) << "refusing must not delete anything";
  fs::create_directories(dir_ + "/keep");
  ASSERT_TRUE(PrepareEvolvedDir(dir_, true, "forced").ok());
  EXPECT_FALSE(fs::exists(dir_ + "/rounds"));
  EXPECT_TRUE(fs::exists(dir_ + "/keep")) << "--force removes only the evolution's own files";
  ASSERT_TRUE(WriteOverlay(dir_, 0, {}).ok());
  ASSERT_TRUE(FinishEvolvedDir(dir_, {{"mode", "simulated"}, {"base", "/b"}, {"rounds", "0"}}).ok());
  EXPECT_TRUE(OpenEvolvedWeb(dir_).ok());
  EXPECT_THAT(PrepareEvolvedDir(dir_, false, "again").message(), HasSubstr("already holds an evolved web"));
  auto web = OpenEvolvedWeb(dir_);
  EXPECT_THAT(CheckRound(*web, 1).message(), HasSubstr("round 1 is out of range"));
  EXPECT_THAT(CheckRound(*web, -1).message(), HasSubstr("0..0"));
  EXPECT_THAT(ReadOverlay(*web, 3).status().message(), HasSubstr("out of range"));
}

TEST_F(EvolvedWebTest, ForeignOrDamagedFilesAreErrors) {
  MakeTwoRounds();
  WriteWholeFile(dir_ + "/rounds/1/overlay.tsv", "url\taction\nhttp://h.test/x.html\tmaybe\n");
  auto web = OpenEvolvedWeb(dir_);
  ASSERT_TRUE(web.ok());
  EXPECT_THAT(FoldOverlays(*web, 1).status().message(), HasSubstr("overlay.tsv:2"));
  WriteWholeFile(dir_ + "/evolve.tsv", "format\tsomething-else\nrounds\t1\n");
  EXPECT_THAT(OpenEvolvedWeb(dir_).status().message(), HasSubstr("format"));
}

TEST_F(EvolvedWebTest, LoadBaseWebNamesWhatIsMissing) {
  fs::create_directories(dir_);
  EXPECT_THAT(LoadBaseWeb(dir_).status().message(), HasSubstr("is not a built web"));
  EXPECT_THAT(LoadBaseWeb(dir_).status().message(), HasSubstr("manifest.tsv"));
  EXPECT_THAT(LoadBaseWeb(dir_ + "/nope").status().message(), HasSubstr("no such directory"));
}

TEST(VersionRoundsTest, ParsesMadisonKeepingOrderAndDroppingDuplicates) {
  std::string out =
      "linux-doc-6.1 |  6.1.192-2 | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages\n"
      "linux-doc-6.1 |  6.1.192-1 | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages\n"
      "linux-doc-6.1 |  6.1.192-1 | http://deb.debian.org/debian-security bookworm-security/main Sources\n"
      "git-doc | 1:2.39.5-0+deb12u3 | http://deb.debian.org/debian bookworm/main amd64 Packages\n"
      "garbage line\n";
  EXPECT_THAT(ParseMadison(out), ElementsAre("6.1.192-2", "6.1.192-1", "1:2.39.5-0+deb12u3"));
  EXPECT_TRUE(ParseMadison("").empty());
}

TEST(TruthLabelCountsTest, CountsEveryStateWithItsRelevantAndUnlabelledPages) {
  const std::string truth =
      "url\tstate\nhttp://a/1\tnew\nhttp://a/2\tnew\nhttp://a/3\tchanged\nhttp://a/4\tgone\n"
      "http://a/5\tunchanged\nno tab here\n";
  auto label = [](const std::string& url) -> std::optional<bool> {
    if (url == "http://a/1" || url == "http://a/3") return true;
    if (url == "http://a/2") return std::nullopt;
    return false;
  };
  EXPECT_EQ(TruthLabelCounts(truth, 2, label),
            "round 2: new 2 (relevant 1, unlabelled 1) changed 1 (relevant 1) unchanged 1 (relevant 0) "
            "gone 1 (relevant 0)");
  EXPECT_EQ(TruthLabelCounts("url\tstate\n", 0, label),
            "round 0: new 0 (relevant 0) changed 0 (relevant 0) unchanged 0 (relevant 0) gone 0 (relevant 0)");
}

}  // namespace
}  // namespace topicrawl::web
