// Full-text search latency over a crawl's index (not a Google Benchmark: the
// figure wanted is a latency distribution over a query set).
//
//   build/bench/search_latency DIR [QUERIES_FILE|""] [ROUNDS]
//
// QUERIES_FILE: one query a line, optionally followed by a TAB and filters
// (comma separated: relevant, host=HOST, round=N, offset=N); '#' lines are
// comments. Default: a built-in English + Chinese set (28 queries, some with
// the relevant filter). bench/testdata/search/dev-queries.tsv is the dev-web
// set (185 queries: frequent, mid and rare single words, 2-3 word queries,
// relevant and host filters, second result pages).
//
// Cold: the index files are evicted from the page cache
// (posix_fadvise DONTNEED, this index only: the machine is shared), the
// index is opened and every query runs once. Warm: then ROUNDS (default 5)
// more passes. Each query goes through SearchIndex::Search (parse, BM25 top
// 10, snippets). Prints p50, p95, p99 and max of wall and thread-CPU ms for
// both, plus the index size. Docs: docs/guides/api.md.
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "search/search_index.h"

namespace {

struct Sample {
  std::vector<double> wall_ms, cpu_ms;
  uint64_t matches = 0;
};

double ThreadCpuMs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double Pct(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

void Print(const char* name, const Sample& s) {
  std::printf("%-5s %5zu queries: wall p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms | "
              "thread CPU p50 %.2f ms, p95 %.2f ms, p99 %.2f ms | mean matches %.0f\n",
              name, s.wall_ms.size(), Pct(s.wall_ms, 0.5), Pct(s.wall_ms, 0.95),
              Pct(s.wall_ms, 0.99), Pct(s.wall_ms, 1.0), Pct(s.cpu_ms, 0.5), Pct(s.cpu_ms, 0.95),
              Pct(s.cpu_ms, 0.99), static_cast<double>(s.matches) / s.wall_ms.size());
}

void EvictFromPageCache(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(topicrawl::SearchIndexPath(dir), ec)) {
    int fd = open(e.path().c_str(), O_RDONLY);
    if (fd < 0) continue;
    fdatasync(fd);
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using topicrawl::SearchIndex;
  using topicrawl::SearchQuery;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [QUERIES_FILE] [ROUNDS]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<SearchQuery> queries;
  for (const char* q :
       {"firewall", "tcp congestion control", "dns", "routing table", "ipv6 address",
        "packet filter", "network", "socket", "ssh key", "http proxy", "vpn tunnel", "bandwidth",
        "nat", "load balancer", "tls certificate", "udp", "ethernet", "wifi", "防火墙", "网络",
        "路由", "墙", "协议", "数据库", "服务器", "安全", "配置文件", "内核"}) {
    SearchQuery query;
    query.q = q;
    query.relevant_only = query.q.size() % 2 == 0;  // the filter on some
    queries.push_back(query);
  }
  if (argc >= 3 && argv[2][0] != '\0') {  // "" = the built-in set
    std::ifstream in(argv[2]);
    if (!in) {
      std::fprintf(stderr, "cannot read %s\n", argv[2]);
      return 1;
    }
    queries.clear();
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      SearchQuery query;
      const size_t tab = line.find('\t');
      query.q = line.substr(0, tab);
      if (tab != std::string::npos) {
        std::stringstream filters(line.substr(tab + 1));
        std::string f;
        while (std::getline(filters, f, ',')) {
          if (f == "relevant") {
            query.relevant_only = true;
          } else if (f.rfind("host=", 0) == 0) {
            query.host = f.substr(5);
          } else if (f.rfind("round=", 0) == 0) {
            query.round = std::stoll(f.substr(6));
          } else if (f.rfind("offset=", 0) == 0) {
            query.offset = std::stoul(f.substr(7));
          } else {
            std::fprintf(stderr, "unknown filter '%s' in: %s\n", f.c_str(), line.c_str());
            return 1;
          }
        }
      }
      queries.push_back(query);
    }
  }
  const int rounds = argc >= 4 ? std::max(1, std::atoi(argv[3])) : 5;
  EvictFromPageCache(dir);
  auto index = SearchIndex::Open(dir);
  if (!index.ok()) {
    std::fprintf(stderr, "%s\n", index.status().message().c_str());
    return 1;
  }
  Sample cold, warm;
  for (int r = 0; r <= rounds; ++r) {
    Sample& s = r == 0 ? cold : warm;
    for (const SearchQuery& query : queries) {
      const double c0 = ThreadCpuMs();
      const auto t0 = std::chrono::steady_clock::now();
      auto res = (*index)->Search(query);
      const double t =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (!res.ok()) {
        std::fprintf(stderr, "query '%s': %s\n", query.q.c_str(), res.status().message().c_str());
        return 1;
      }
      s.wall_ms.push_back(t);
      s.cpu_ms.push_back(ThreadCpuMs() - c0);
      s.matches += res->estimated_matches;
    }
  }
  std::printf("%lld docs, index %.1f MB (%.1f KB a page); %zu queries, cold pass + %d warm\n",
              static_cast<long long>((*index)->doc_count()),
              topicrawl::SearchIndexBytes(dir) / 1e6,
              topicrawl::SearchIndexBytes(dir) / 1e3 / std::max<int64_t>(1, (*index)->doc_count()),
              queries.size(), rounds);
  // Wall time includes waiting for a CPU (and, cold, the disk) on a loaded
  // machine; thread CPU time is the work of a query.
  Print("cold", cold);
  Print("warm", warm);
  return 0;
}
