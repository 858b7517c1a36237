// Internal to render/: one worker of a RenderPool (a thread, one Chromium,
// several pages at once). See render_pool.h for what a render does.
#ifndef TOPICRAWL_RENDER_RENDER_WORKER_H_
#define TOPICRAWL_RENDER_RENDER_WORKER_H_

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.h"
#include "render/browser_process.h"
#include "render/render_pool.h"
#include "render/subresource_gate.h"

namespace topicrawl {

struct QueuedJob {
  RenderJob job;
  RenderDone done;
};

class RenderWorker;

// What the workers of one pool share.
struct RenderPool::Shared {
  RenderOptions options;
  Clock* clock = nullptr;
  std::unique_ptr<SubresourceGate> gate;

  std::mutex mu;
  std::condition_variable idle_cv;
  std::deque<QueuedJob> queue;  // guarded by mu
  int64_t unfinished = 0;       // submitted, done() not called yet
  bool stopping = false;
  std::atomic<bool> cut_short{false};  // RenderPool::CutShort()
  std::atomic<bool> background{false};  // RenderPool::SetBackground()
  RenderPoolStats stats;
  std::vector<std::unique_ptr<RenderWorker>> workers;

  void WakeWorkers();
  void Finish(QueuedJob* job, RenderResult result);  // calls done, counts
};

class RenderWorker {
 public:
  RenderWorker(RenderPool::Shared* shared, int index,
               std::unique_ptr<BrowserProcess> first_browser);
  ~RenderWorker();  // joins the thread
  void Start();
  void Wake();
  // Has a browser and renders as many pages as it has tabs (thread-safe).
  bool Saturated() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Text helpers (unit-tested).
std::string Base64Encode(std::string_view bytes);
// Response headers of a raw head for Fetch.fulfillRequest: name/value pairs
// of its last block, without the status line and without the headers that
// describe the transfer rather than the (decoded) entity: Content-Encoding,
// Transfer-Encoding, Content-Length; also Set-Cookie (pages render without
// cookies).
std::vector<std::pair<std::string, std::string>> ReplayHeaders(std::string_view head);

}  // namespace topicrawl

#endif  // TOPICRAWL_RENDER_RENDER_WORKER_H_
