// Full-text search latency over a crawl's index (not a Google Benchmark: the
// figure wanted is a latency distribution over a query set).
//
//   build/bench/search_latency DIR [QUERIES_FILE] [ROUNDS]
//
// Runs every query (one a line; default: a built-in English + Chinese set)
// ROUNDS times (default 5) through SearchIndex::Search (parse, BM25 top 10,
// snippets; the first round is warm-up and not counted) and prints p50, p95,
// p99 and max in ms, plus the index size. Docs: docs/api.md.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "search/search_index.h"

int main(int argc, char** argv) {
  using topicrawl::SearchIndex;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [QUERIES_FILE] [ROUNDS]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<std::string> queries = {
      "firewall", "tcp congestion control", "dns", "routing table", "ipv6 address",
      "packet filter", "network", "socket", "ssh key", "http proxy", "vpn tunnel",
      "bandwidth", "nat", "load balancer", "tls certificate", "udp", "ethernet", "wifi",
      "防火墙", "网络", "路由", "墙", "协议", "数据库", "服务器", "安全", "配置文件", "内核"};
  if (argc >= 3) {
    std::ifstream in(argv[2]);
    std::string line;
    queries.clear();
    while (std::getline(in, line)) {
      if (!line.empty()) queries.push_back(line);
    }
  }
  const int rounds = argc >= 4 ? std::max(2, std::atoi(argv[3])) : 5;
  auto index = SearchIndex::Open(dir);
  if (!index.ok()) {
    std::fprintf(stderr, "%s\n", index.status().message().c_str());
    return 1;
  }
  std::vector<double> ms, cpu_ms;
  auto thread_cpu_ms = [] {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
  };
  uint64_t matches = 0;
  for (int r = 0; r < rounds; ++r) {
    for (const std::string& q : queries) {
      topicrawl::SearchQuery query;
      query.q = q;
      query.relevant_only = (r % 2 == 1) && q.size() % 2 == 0;  // filters on some
      const double c0 = thread_cpu_ms();
      const auto t0 = std::chrono::steady_clock::now();
      auto res = (*index)->Search(query);
      const double t =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (!res.ok()) {
        std::fprintf(stderr, "query '%s': %s\n", q.c_str(), res.status().message().c_str());
        return 1;
      }
      if (r > 0) {
        ms.push_back(t);
        cpu_ms.push_back(thread_cpu_ms() - c0);
        matches += res->estimated_matches;
      }
    }
  }
  std::sort(ms.begin(), ms.end());
  std::sort(cpu_ms.begin(), cpu_ms.end());
  auto pct = [&](double p) { return ms[std::min(ms.size() - 1, static_cast<size_t>(p * ms.size()))]; };
  auto cpct = [&](double p) {
    return cpu_ms[std::min(cpu_ms.size() - 1, static_cast<size_t>(p * cpu_ms.size()))];
  };
  std::printf("%lld docs, index %.1f MB; %zu queries x %d rounds: p50 %.2f ms, p95 %.2f ms, "
              "p99 %.2f ms, max %.2f ms (mean matches %.0f)\n",
              static_cast<long long>((*index)->doc_count()),
              topicrawl::SearchIndexBytes(dir) / 1e6, queries.size(), rounds - 1, pct(0.5),
              pct(0.95), pct(0.99), ms.back(), static_cast<double>(matches) / ms.size());
  // Wall time includes waiting for a CPU on a loaded machine; thread CPU
  // time is the work of a query.
  std::printf("thread CPU per query: p50 %.2f ms, p95 %.2f ms, max %.2f ms\n", cpct(0.5),
              cpct(0.95), cpu_ms.back());
  return 0;
}
