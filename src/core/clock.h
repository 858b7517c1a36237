// Time as a seam: production code asks a Clock, tests inject FakeClock.
#ifndef TOPICRAWL_CORE_CLOCK_H_
#define TOPICRAWL_CORE_CLOCK_H_

#include <chrono>
#include <cstdint>

namespace topicrawl {

using Duration = std::chrono::steady_clock::duration;
using TimePoint = std::chrono::steady_clock::time_point;

// Thread-safe in all implementations.
class Clock {
 public:
  virtual ~Clock() = default;
  // Monotonic time for scheduling (politeness, back-off, timeouts).
  virtual TimePoint Now() const = 0;
  // Wall-clock milliseconds since the Unix epoch, for records.
  virtual int64_t UnixMillis() const = 0;
};

// The real clock. The returned object lives forever.
Clock* SystemClock();

// Manually advanced clock for tests.
class FakeClock : public Clock {
 public:
  TimePoint Now() const override { return now_; }
  int64_t UnixMillis() const override {
    return 1'700'000'000'000 +
           std::chrono::duration_cast<std::chrono::milliseconds>(
               now_.time_since_epoch())
               .count();
  }
  void Advance(Duration d) { now_ += d; }

 private:
  TimePoint now_{};
};

inline Duration Seconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

}  // namespace topicrawl

#endif  // TOPICRAWL_CORE_CLOCK_H_
