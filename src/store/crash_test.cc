// kill -9 at random moments, then resume: no committed page lost, none
// stored twice, WARC files parse fully, frontier states consistent.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <random>
#include <string>

#include "store/crawl_store.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using testing::CheckCrawlDir;
using testing::CrawlDirReport;
using testing::MakeTestPage;

// Reports why the child gives up, then exits with `code`: the parent's
// "exited early" failure then says which step failed and how.
[[noreturn]] void ChildFails(int code, const char* step, const Status& s) {
  std::fprintf(stderr, "writer child %d: %s failed: %s\n",
               static_cast<int>(::getpid()), step, s.message().c_str());
  std::fflush(stderr);
  _exit(code);
}

// The child: what a crawler does. It resumes (or creates) the store, asks it
// how many pages are stored, and continues with the next page numbers, as
// a crawler continues with the queued frontier rows. Never returns.
[[noreturn]] void WriterChild(const std::string& dir, bool create, int seed) {
  CrawlStoreOptions options;
  options.commit_interval = std::chrono::milliseconds(5);  // many commits
  options.commit_max_pages = 1 + seed % 50;
  options.warc.max_file_bytes = 200000;  // many rotations
  options.frontier_merge_rows = seed % 3 == 0 ? 300 : 0;  // mid-crawl merges
  auto store = CrawlStore::Open(dir, create ? OpenMode::kCreate : OpenMode::kResume,
                                options);
  if (!store.ok()) ChildFails(3, create ? "Open(kCreate)" : "Open(kResume)", store.status());
  StatusOr<PageStats> stats = (*store)->LoadPageStats();
  if (!stats.ok()) ChildFails(4, "LoadPageStats", stats.status());
  for (int64_t k = stats->pages + 1;; ++k) {
    // 0-70 links: pages without links, small and large link lists.
    PageRecord page = MakeTestPage(k, static_cast<int>(k % 71), 3,
                                   1000 + (k * 7919) % 20000);
    for (FrontierRecord& row : page.admitted) row.parent_id = k;
    StatusOr<PageId> id = (*store)->AddPage(std::move(page));
    if (!id.ok()) ChildFails(5, "AddPage", id.status());
    if (k % 97 == 0) {
      if (Status s = (*store)->AddEvent("progress", std::to_string(k)); !s.ok()) {
        ChildFails(6, "AddEvent", s);
      }
    }
  }
}

// The forked child must never return into the test body: an exception
// caught by gtest there would run the rest of the test program in the child
// and exit with gtest's code, which the parent could only report as "exited
// early" without a reason. Any exception ends the child with its text.
[[noreturn]] void RunWriterChild(const std::string& dir, bool create, int seed,
                                 pid_t parent) {
  // If the test process dies (a ctest timeout, ^C) before its SIGKILL, the
  // writer would go on filling the temp directory forever: die with it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) _exit(9);
  try {
    WriterChild(dir, create, seed);
  } catch (const std::exception& e) {
    ChildFails(7, "exception", Status::Error(e.what()));
  } catch (...) {
    ChildFails(7, "exception", Status::Error("not a std::exception"));
  }
}

// Describes a wait status for the failure message.
std::string DescribeWaitStatus(int wstatus) {
  if (WIFEXITED(wstatus)) {
    return "exited early with code " + std::to_string(WEXITSTATUS(wstatus)) +
           " (its stderr above says which step failed)";
  }
  if (WIFSIGNALED(wstatus)) {
    return std::string("died of signal ") + strsignal(WTERMSIG(wstatus)) +
           " before the SIGKILL";
  }
  return "wait status " + std::to_string(wstatus);
}

// Runs `iterations` rounds of: a writer child killed at a random moment,
// then a resume and a full check. `created`: `dir` already holds a crawl.
void KillAndResume(const std::string& dir, bool created, int iterations,
                   uint32_t seed) {
  std::mt19937 rng(seed);
  int64_t committed_before = 0;
  // The pages a child commits before its kill depend on the CPU it gets
  // (ASan on a loaded 2-core machine: a third of an idle one): past
  // `iterations`, go on (up to 10x) until the directory holds enough pages
  // for the final check to mean something, instead of failing on speed.
  for (int iteration = 0;
       iteration < iterations || (committed_before <= 100 && iteration < 10 * iterations);
       ++iteration) {
    const pid_t parent = ::getpid();
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) RunWriterChild(dir, !created, iteration, parent);
    // Kill anywhere: during Open/repair (0-5 ms), mid-batch, mid-commit.
    const int delay_us = std::uniform_int_distribution<int>(0, 250000)(rng);
    ::usleep(delay_us);
    ::kill(pid, SIGKILL);
    int wstatus = 0;
    ASSERT_EQ(::waitpid(pid, &wstatus, 0), pid);
    // Only our SIGKILL is a valid end: a crash (SIGSEGV, SIGABRT) or an
    // error exit of the writer is a failure of the store.
    ASSERT_TRUE(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL)
        << "iteration " << iteration << ": writer child "
        << DescribeWaitStatus(wstatus);

    // Resume the way a crawler does, then check everything.
    auto store = CrawlStore::Open(dir, OpenMode::kResume);
    if (!created && !store.ok() && !std::filesystem::exists(dir)) {
      // Killed before it made the directory: on a loaded machine (or under
      // ASan, whose fork copies a large shadow mapping) a new child may not
      // run at all within the first kill's 31 ms. Nothing was written, so
      // resume must refuse (it did) and kCreate starts from scratch.
      EXPECT_NE(store.status().message().find("no crawl directory"), std::string::npos)
          << store.status().message();
      std::printf("iteration %d: killed before creating the directory\n", iteration);
      continue;
    }
    if (!created && !store.ok() &&
        store.status().message().find("holds no crawl") != std::string::npos) {
      // Killed before the creating transaction committed: kCreate again
      // (which must accept the leftovers).
      std::printf("iteration %d: killed during creation\n", iteration);
      continue;
    }
    created = true;
    ASSERT_TRUE(store.ok()) << store.status().message();
    StatusOr<PageStats> stats = (*store)->LoadPageStats();
    ASSERT_TRUE(stats.ok());
    EXPECT_GE(stats->pages, committed_before) << "committed pages were lost";
    int64_t done = 0;
    ASSERT_TRUE((*store)->LoadFrontier([&](const FrontierRecord& f) {
                  done += f.state == 1;
                  return true;
                }).ok());
    EXPECT_EQ(done, stats->pages);
    // Every stored page k admitted p2k and p2k+1 (the child's pages).
    int64_t rows = 0, queued = 0;
    ASSERT_TRUE((*store)->CountFrontier(&rows, &queued).ok());
    EXPECT_GE(rows, 2 * stats->pages);
    ASSERT_TRUE((*store)->Close().ok());
    CrawlDirReport report;
    Status s = CheckCrawlDir(dir, &report);
    ASSERT_TRUE(s.ok()) << "iteration " << iteration << ": " << s.message();
    EXPECT_EQ(report.pages, stats->pages);
    committed_before = stats->pages;
    std::printf("iteration %d: killed after %d us, %lld pages, %lld WARC files\n",
                iteration, delay_us, static_cast<long long>(report.pages),
                static_cast<long long>(report.warc_files));
  }
  EXPECT_GT(committed_before, 100);
}

TEST(CrashTest, KillNineAtRandomMomentsLosesNothingAndStoresNothingTwice) {
  const std::string root = testing::MakeTempDir();
  KillAndResume(root + "/crawl", false, 12, 20240501);
  testing::RemoveTree(root);
}

// The same promise for a directory of the previous schema (links as a rowid
// table + index), which a new build resumes without converting.
TEST(CrashTest, KillNineOnASchemaV1DirectoryLosesNothingAndStoresNothingTwice) {
  const std::string root = testing::MakeTempDir();
  ASSERT_TRUE(testing::CreateSchemaV1CrawlDir(root + "/crawl").ok());
  KillAndResume(root + "/crawl", true, 8, 20240502);
  testing::RemoveTree(root);
}

}  // namespace
}  // namespace topicrawl
