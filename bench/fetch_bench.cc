// Fetch loop throughput: how many small pages per second one Fetcher event
// loop completes on loopback with N transfers in flight.
//
//   build/bench/fetch_bench --benchmark_filter=Nginx
//
// Target (issue 2): >= 20k req/s against nginx with 64 concurrent transfers.
#include <filesystem>
#include <fstream>
#include <string>

#include <benchmark/benchmark.h>

#include "fetch/fetcher.h"
#include "support/nginx_server.h"
#include "support/test_http_server.h"

namespace topicrawl {
namespace {

constexpr int kRequestsPerIteration = 20000;

// Keeps `concurrency` transfers in flight until `total` have finished.
// Returns the number of non-ok results.
int RunLoop(Fetcher& fetcher, const std::string& url, int concurrency, int total) {
  int submitted = 0, finished = 0, failed = 0;
  auto submit = [&] {
    CrawlTask task;
    task.url = url;
    task.url_id = static_cast<UrlId>(submitted++);
    fetcher.Submit(std::move(task), FetchKind::kPage);
  };
  while (submitted < concurrency && submitted < total) submit();
  while (finished < total) {
    for (auto& r : fetcher.Poll(std::chrono::seconds(1))) {
      ++finished;
      if (r.status != FetchStatus::kOk) ++failed;
      if (submitted < total) submit();
    }
  }
  return failed;
}

std::string PageBody() {
  std::string body = "<html><head><title>bench</title></head><body>";
  while (body.size() < 2000) body += "<p>Lorem ipsum dolor sit amet <a href=/x>x</a></p>";
  return body + "</body></html>";
}

void Report(benchmark::State& state, int failed) {
  state.SetItemsProcessed(state.iterations() * kRequestsPerIteration);
  state.counters["req_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * kRequestsPerIteration),
      benchmark::Counter::kIsRate);
  state.counters["failed"] = failed;
}

void BM_FetchLoopNginx(benchmark::State& state) {
  std::string root = std::filesystem::temp_directory_path() / "topicrawl-fetch-bench";
  std::filesystem::create_directories(root);
  std::ofstream(root + "/index.html") << PageBody();
  testing::NginxServer nginx;
  testing::NginxOptions o;
  o.root = root;
  o.tls = state.range(1) != 0;
  o.worker_processes = 2;
  Status s = nginx.Start(o);
  if (!s.ok()) {
    state.SkipWithError(s.message().c_str());
    return;
  }
  FetcherOptions options;
  options.connect_to = {":80:127.0.0.1:" + std::to_string(nginx.http_port())};
  if (o.tls) {
    options.connect_to.push_back(":443:127.0.0.1:" + std::to_string(nginx.https_port()));
    options.cacert = nginx.cacert_path();
  }
  auto fetcher = NewCurlFetcher(options, SystemClock());
  std::string url = o.tls ? "https://site.test/index.html" : "http://site.test/index.html";
  int failed = 0;
  for (auto _ : state) {
    failed += RunLoop(*fetcher, url, static_cast<int>(state.range(0)), kRequestsPerIteration);
  }
  Report(state, failed);
  std::filesystem::remove_all(root);
}
BENCHMARK(BM_FetchLoopNginx)
    ->ArgNames({"concurrency", "tls"})
    ->Args({64, 0})
    ->Args({16, 0})
    ->Args({64, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_FetchLoopTestServer(benchmark::State& state) {
  testing::TestHttpServer server;
  if (!server.Start().ok()) {
    state.SkipWithError("server did not start");
    return;
  }
  server.Set("/index.html", testing::HtmlResponse(PageBody()));
  FetcherOptions options;
  options.allow_private = true;
  auto fetcher = NewCurlFetcher(options, SystemClock());
  int failed = 0;
  for (auto _ : state) {
    failed += RunLoop(*fetcher, server.Url("/index.html"), static_cast<int>(state.range(0)),
                      kRequestsPerIteration);
  }
  Report(state, failed);
}
BENCHMARK(BM_FetchLoopTestServer)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace topicrawl

BENCHMARK_MAIN();
