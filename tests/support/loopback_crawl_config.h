// The crawl configuration of the integration tests that serve one site,
// http://site.test/, from a TestHttpServer on 127.0.0.1: no delay, short
// timeouts, one retry, no progress line.
#ifndef TOPICRAWL_TESTS_SUPPORT_LOOPBACK_CRAWL_CONFIG_H_
#define TOPICRAWL_TESTS_SUPPORT_LOOPBACK_CRAWL_CONFIG_H_

#include <string>

#include "crawl/crawl_config.h"

namespace topicrawl::testing {

// Seeds http://site.test/ (resolved to 127.0.0.1:port) into out_dir.
inline CrawlConfig LoopbackCrawlConfig(int port, const std::string& out_dir) {
  CrawlConfig c;
  c.seeds = {"http://site.test/"};
  c.out_dir = out_dir;
  c.delay_s = 0;
  c.connect_to = {"site.test:80:127.0.0.1:" + std::to_string(port)};
  c.total_timeout_s = 2;
  c.connect_timeout_s = 2;
  c.progress_interval_ms = 0;
  c.max_retries = 1;
  return c;
}

}  // namespace topicrawl::testing

#endif  // TOPICRAWL_TESTS_SUPPORT_LOOPBACK_CRAWL_CONFIG_H_
