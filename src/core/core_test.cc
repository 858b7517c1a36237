#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <thread>

#include "core/clock.h"
#include "core/fetch_status.h"
#include "core/hash.h"
#include "core/number_text.h"
#include "core/status.h"
#include "core/thread_cpu.h"
#include "core/thread_pool.h"
#include "core/tsv.h"
#include "gtest/gtest.h"

namespace topicrawl {
namespace {

// CPU seconds the calling thread has used.
double ThreadCpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

TEST(TsvTest, SplitTabsKeepsEmptyFields) {
  using V = std::vector<std::string_view>;
  EXPECT_EQ(SplitTabs(""), V{""});
  EXPECT_EQ(SplitTabs("a"), V{"a"});
  EXPECT_EQ(SplitTabs("a\t\tb"), (V{"a", "", "b"}));
  EXPECT_EQ(SplitTabs("\tx\t"), (V{"", "x", ""}));
  EXPECT_EQ(SplitTabs("url with space\t1"), (V{"url with space", "1"}));
}

TEST(FetchStatusTest, NamesRoundTrip) {
  for (int i = 0; i <= static_cast<int>(FetchStatus::kTrapRefused); ++i) {
    auto s = static_cast<FetchStatus>(i);
    auto back = FetchStatusFromName(FetchStatusName(s));
    ASSERT_TRUE(back.has_value()) << FetchStatusName(s);
    EXPECT_EQ(*back, s);
  }
  EXPECT_FALSE(FetchStatusFromName("no_such_status").has_value());
  // Databases written before the rename still read.
  EXPECT_EQ(FetchStatusFromName("private_address"), FetchStatus::kPrivateAddress);
  EXPECT_EQ(FetchStatusName(FetchStatus::kPrivateAddress), "refused_address");
}

TEST(FetchStatusTest, TransientOnlyForRetryableFailures) {
  EXPECT_TRUE(IsTransient(FetchStatus::kTimeout, 0));
  EXPECT_TRUE(IsTransient(FetchStatus::kHttpError, 429));
  EXPECT_TRUE(IsTransient(FetchStatus::kHttpError, 503));
  EXPECT_FALSE(IsTransient(FetchStatus::kHttpError, 404));
  EXPECT_FALSE(IsTransient(FetchStatus::kOk, 200));
}

TEST(HashTest, StableAndHex) {
  EXPECT_EQ(Hash64("http://a/"), Hash64("http://a/"));
  EXPECT_NE(Hash64("http://a/"), Hash64("http://b/"));
  EXPECT_EQ(Hash64Hex("x").size(), 16u);
}

TEST(NumberTextTest, ShortestFormReadsBack) {
  EXPECT_EQ(ShortestDouble(0.1), "0.1");
  EXPECT_EQ(ShortestDouble(0.62), "0.62");
  EXPECT_EQ(ShortestDouble(1.0), "1");
  EXPECT_EQ(ShortestDouble(1e-5), "1e-05");
  EXPECT_EQ(ShortestDouble(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(ShortestDouble(-2.5), "-2.5");
}

TEST(NumberTextTest, TomlNumberIsAFloat) {
  EXPECT_EQ(TomlNumber(0.1), "0.1");
  EXPECT_EQ(TomlNumber(10.0), "10.0");
  EXPECT_EQ(TomlNumber(-1.0), "-1.0");
  EXPECT_EQ(TomlNumber(1e-5), "1e-05");
  EXPECT_EQ(TomlNumber(1e300), "1e+300");
  EXPECT_EQ(TomlNumber(std::numeric_limits<double>::infinity()), "inf");
}

TEST(StatusTest, ErrorCarriesMessage) {
  Status s = Status::Error("bad line 3");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "bad line 3");
  StatusOr<int> v(7);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 7);
  StatusOr<int> e(Status::Error("nope"));
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(), "nope");
}

TEST(FakeClockTest, Advances) {
  FakeClock clock;
  TimePoint t0 = clock.Now();
  clock.Advance(Seconds(1.5));
  EXPECT_EQ(clock.Now() - t0, Seconds(1.5));
}

TEST(ThreadPoolTest, RunsEverySubmittedClosure) {
  std::atomic<int> sum{0};
  {
    ThreadPool pool(2);
    for (int i = 1; i <= 100; ++i) pool.Submit([&sum, i] { sum += i; });
    pool.WaitIdle();
    EXPECT_EQ(sum.load(), 5050);
    EXPECT_EQ(pool.Pending(), 0u);
  }
}

TEST(ThreadPoolTest, DestructorDrainsQueue) {
  std::atomic<int> n{0};
  {
    ThreadPool pool(1);
    for (int i = 0; i < 50; ++i) pool.Submit([&n] { ++n; });
  }
  EXPECT_EQ(n.load(), 50);
}

// Named pool threads show up under their name with the CPU they burnt.
// Each thread spins until its own CPU clock shows 100 ms, so the amount
// does not depend on how busy the machine is; /proc counts whole ticks.
TEST(ThreadCpuTest, NamedPoolThreadsAreCounted) {
  std::atomic<bool> stop{false};
  {
    ThreadPool pool(2, "tr-cputest");
    std::atomic<int> burnt{0};
    for (int i = 0; i < 2; ++i) {
      pool.Submit([&] {
        volatile double x = 0;
        while (ThreadCpuNow() < 0.1) x = x + 1;
        ++burnt;
        while (!stop.load()) std::this_thread::yield();
      });
    }
    while (burnt.load() < 2) std::this_thread::yield();
    auto cpu = ThreadCpuSecondsByName();
    stop = true;
    ASSERT_TRUE(cpu.count("tr-cputest")) << FormatThreadCpu(cpu);
    // 2 x 100 ms, less at most one tick of truncation per thread and field.
    EXPECT_GE(cpu["tr-cputest"], 0.2 - 4.0 / static_cast<double>(sysconf(_SC_CLK_TCK)))
        << FormatThreadCpu(cpu);
    EXPECT_NE(FormatThreadCpu(cpu).find("tr-cputest "), std::string::npos);
  }
}

}  // namespace
}  // namespace topicrawl
