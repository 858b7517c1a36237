// Helpers shared by the frontier tests (not part of the library).
#ifndef TOPICRAWL_TESTS_SUPPORT_FRONTIER_TEST_UTIL_H_
#define TOPICRAWL_TESTS_SUPPORT_FRONTIER_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/clock.h"
#include "core/hash.h"
#include "frontier/frontier.h"

namespace topicrawl::testing {

inline LinkCandidate Link(const std::string& url, double score = 0.5,
                          uint32_t depth = 0) {
  LinkCandidate c;
  c.url = url;
  c.url_id = Hash64(url);
  c.score = score;
  c.depth = depth;
  c.anchor = "anchor of " + url;
  return c;
}

// Politeness off (no delay, many connections): pure ordering tests.
inline FrontierOptions NoPoliteness() {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.max_connections_per_host = 1000;
  o.max_in_flight = 1'000'000;
  return o;
}

inline std::unique_ptr<Frontier> MakeFrontier(const FrontierOptions& options,
                                              Clock* clock,
                                              std::unique_ptr<LinkSelector> selector) {
  auto f = Frontier::Create(options, clock, std::move(selector));
  EXPECT_TRUE(f.ok()) << f.status().message();
  return std::move(f).value();
}

// A frontier with a selector of the generic registry (frontier/link_selector.h).
inline std::unique_ptr<Frontier> MakeFrontier(const FrontierOptions& options,
                                              Clock* clock,
                                              const std::string& selector) {
  auto s = MakeLinkSelector(selector);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return MakeFrontier(options, clock, std::move(s).value());
}

// Next() until nullopt, completing each task successfully at once.
inline std::vector<std::string> Drain(Frontier& f) {
  std::vector<std::string> urls;
  while (auto task = f.Next()) {
    urls.push_back(task->url);
    f.Complete(*task, HostFeedback{});
  }
  return urls;
}

}  // namespace topicrawl::testing

#endif  // TOPICRAWL_TESTS_SUPPORT_FRONTIER_TEST_UTIL_H_
