// Size and save/restore time of a crawl's saved strategy state
// (DIR/state/strategy.bin), e.g. before/after a change of a strategy's state
// encoding (issue #17: the wang-landau state of a 15,000-page crawl).
//
//   build/bench/state_size CRAWL_DIR TOPIC_FILE [OUT_DIR]
//
// Restores CRAWL_DIR's state (any version this build reads) into a fresh
// strategy of the same name, saves it with this build's encoding (timed,
// best of 3, CPU time), restores that again and checks that a second save gives the
// same bytes. With OUT_DIR the re-encoded file is written to
// OUT_DIR/state/strategy.bin. Not a test: timings depend on the machine.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "crawl/crawl_strategy.h"
#include "crawl/strategy_state.h"
#include "strategies/strategy_registry.h"

namespace {

// CPU time of this process (the machine may be shared: wall time would
// measure the other jobs too).
struct SteadyClock {
  static double now() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
  }
};
double Ms(double d) { return d; }

std::string StrategyName(const std::string& bytes) {
  // Envelope: "TRSTATE\n", u32 version, u64 length + name (state_blob Str).
  if (bytes.size() < 20) return "";
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= uint64_t{static_cast<uint8_t>(bytes[12 + i])} << (8 * i);
  return n <= bytes.size() - 20 ? bytes.substr(20, n) : "";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace topicrawl;
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s CRAWL_DIR TOPIC_FILE [OUT_DIR]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  std::ifstream in(StrategyStatePath(dir), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string file = ss.str();
  const std::string name = StrategyName(file);
  StrategyContext ctx;
  ctx.topic_file = argv[2];
  auto make = [&]() { return MakeCrawlStrategy(name, ctx); };
  auto a = make();
  if (!a.ok()) {
    std::fprintf(stderr, "strategy '%s': %s\n", name.c_str(), a.status().message().c_str());
    return 1;
  }
  auto t0 = SteadyClock::now();
  Status s = RestoreStrategyState(*a, dir);
  auto t1 = SteadyClock::now();
  if (!s.ok()) {
    std::fprintf(stderr, "restore: %s\n", s.message().c_str());
    return 1;
  }
  std::printf("strategy %s\nfile before %zu bytes (restore %.1f ms CPU)\n", name.c_str(),
              file.size(), Ms(t1 - t0));
  std::string blob;
  double best = 1e18;
  for (int i = 0; i < 3; ++i) {
    auto b0 = SteadyClock::now();
    if (Status e = a->learner->SaveState(&blob); !e.ok()) {
      std::fprintf(stderr, "save: %s\n", e.message().c_str());
      return 1;
    }
    best = std::min(best, Ms(SteadyClock::now() - b0));
  }
  const std::string packed = PackStrategyState(name, blob);
  std::printf("file after  %zu bytes (SaveState %.1f ms CPU, best of 3)\n", packed.size(), best);
  auto b = make();
  auto r0 = SteadyClock::now();
  s = b->learner->RestoreState(blob);
  auto r1 = SteadyClock::now();
  if (!s.ok()) {
    std::fprintf(stderr, "restore of the new encoding: %s\n", s.message().c_str());
    return 1;
  }
  std::string again;
  (void)b->learner->SaveState(&again);
  std::printf("restore of the new encoding %.1f ms CPU; save -> restore -> save %s\n",
              Ms(r1 - r0), again == blob ? "equal" : "DIFFERS");
  if (argc > 3) {
    if (Status w = SaveStrategyState(*b, argv[3]); !w.ok()) {
      std::fprintf(stderr, "write: %s\n", w.message().c_str());
      return 1;
    }
  }
  return again == blob ? 0 : 1;
}
