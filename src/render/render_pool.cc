#include "render/render_pool.h"

#include "render/render_worker.h"

namespace topicrawl {
namespace {

constexpr char kCutShort[] = "render cut short (the crawl is closing)";

}  // namespace

std::optional<RenderMode> ParseRenderMode(std::string_view name) {
  if (name == "never") return RenderMode::kNever;
  if (name == "auto") return RenderMode::kAuto;
  if (name == "always") return RenderMode::kAlways;
  return std::nullopt;
}

const char* RenderModeName(RenderMode mode) {
  switch (mode) {
    case RenderMode::kNever: return "never";
    case RenderMode::kAuto: return "auto";
    case RenderMode::kAlways: return "always";
  }
  return "never";
}

void RenderPool::Shared::WakeWorkers() {
  for (auto& w : workers) w->Wake();
}

void RenderPool::Shared::Finish(QueuedJob* job, RenderResult result) {
  {
    std::lock_guard<std::mutex> lock(mu);
    RenderPoolStats& s = stats;
    ++(result.ok ? s.rendered : s.failed);
    if (result.timed_out) ++s.timed_out;
    s.subrequests += result.requests;
    s.fetched += result.fetched;
    s.cache_hits += result.cached;
    s.refused += result.refused;
    s.blocked += result.blocked;
  }
  if (job->done) job->done(std::move(result));
  std::lock_guard<std::mutex> lock(mu);
  if (--unfinished == 0) idle_cv.notify_all();
}

StatusOr<std::unique_ptr<RenderPool>> RenderPool::Start(const RenderOptions& options) {
  if (options.workers < 1 || options.tabs_per_worker < 1) {
    return Status::Error("render: workers and tabs per worker must be >= 1");
  }
  if (options.page_timeout_s <= 0) return Status::Error("render: page timeout must be > 0");
  RenderOptions o = options;
  if (o.chromium.empty()) {
    auto found = FindChromium();
    if (!found.ok()) return found.status();
    o.chromium = *found;
  }
  std::unique_ptr<BrowserProcess> first;
  if (!o.lazy_start) {
    BrowserLaunchOptions lo;
    lo.chromium = o.chromium;
    lo.js_heap_mb = o.js_heap_mb;
    lo.nice = o.browser_nice;
    auto launched = BrowserProcess::Launch(lo);
    if (!launched.ok()) return Status::Error("--render: " + launched.status().message());
    first = std::move(launched).value();
  }

  std::unique_ptr<RenderPool> pool(new RenderPool());
  auto shared = std::make_shared<Shared>();
  shared->options = std::move(o);
  shared->background = shared->options.browser_idle;
  shared->clock = SystemClock();
  GateOptions go;
  go.respect_robots = shared->options.respect_robots;
  go.robots_agent = shared->options.robots_agent;
  go.host_delay_s = shared->options.host_delay_s;
  go.cache_bytes = shared->options.cache_bytes;
  go.cache_max_entry = shared->options.cache_max_entry;
  shared->gate = std::make_unique<SubresourceGate>(shared->clock, go);
  shared->stats.browser_starts = first ? 1 : 0;
  for (int i = 0; i < shared->options.workers; ++i) {
    shared->workers.push_back(std::make_unique<RenderWorker>(
        shared.get(), i, i == 0 ? std::move(first) : nullptr));
  }
  for (auto& w : shared->workers) w->Start();
  pool->shared_ = std::move(shared);
  return pool;
}

RenderPool::~RenderPool() {
  std::deque<QueuedJob> left;
  {
    std::lock_guard<std::mutex> lock(shared_->mu);
    shared_->stopping = true;
    left.swap(shared_->queue);
  }
  for (QueuedJob& j : left) {
    RenderResult r;
    r.error = "render pool closed";
    shared_->Finish(&j, std::move(r));
  }
  shared_->workers.clear();  // each joins after its running pages
}

void RenderPool::Submit(RenderJob job, RenderDone done) {
  const char* refused = nullptr;
  {
    std::lock_guard<std::mutex> lock(shared_->mu);
    ++shared_->stats.submitted;
    ++shared_->unfinished;
    if (shared_->stopping) {
      refused = "render pool closed";
    } else if (job.optional && shared_->cut_short) {
      refused = kCutShort;
    } else {
      shared_->queue.push_back({std::move(job), std::move(done)});
    }
  }
  if (refused != nullptr) {
    QueuedJob j{std::move(job), std::move(done)};
    RenderResult r;
    r.error = refused;
    r.cut_short = refused == kCutShort;
    shared_->Finish(&j, std::move(r));
    return;
  }
  shared_->WakeWorkers();
}

void RenderPool::CutShort() {
  std::deque<QueuedJob> cut;
  {
    std::lock_guard<std::mutex> lock(shared_->mu);
    if (shared_->cut_short) return;
    shared_->cut_short = true;
    std::deque<QueuedJob> keep;
    for (QueuedJob& j : shared_->queue) (j.job.optional ? cut : keep).push_back(std::move(j));
    shared_->queue.swap(keep);
  }
  for (QueuedJob& j : cut) {
    RenderResult r;
    r.error = kCutShort;
    r.cut_short = true;
    shared_->Finish(&j, std::move(r));
  }
  shared_->WakeWorkers();  // running optional pages are taken at their next tick
}

void RenderPool::WaitIdle() {
  std::unique_lock<std::mutex> lock(shared_->mu);
  shared_->idle_cv.wait(lock, [this] { return shared_->unfinished == 0; });
}

bool RenderPool::Idle() const {
  std::lock_guard<std::mutex> lock(shared_->mu);
  return shared_->unfinished == 0;
}

RenderPoolStats RenderPool::Stats() const {
  std::lock_guard<std::mutex> lock(shared_->mu);
  return shared_->stats;
}

void RenderPool::SetBackground(bool background) {
  if (shared_->background.exchange(background) != background) shared_->WakeWorkers();
}

const RenderOptions& RenderPool::options() const { return shared_->options; }

}  // namespace topicrawl
