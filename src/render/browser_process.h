// BrowserProcess: one headless Chromium, started in its own process group
// with a throw-away profile directory, listening for DevTools on a port it
// picks itself (written to DevToolsActivePort in the profile).
//
// The command line shuts every network path the DevTools Fetch domain does
// not see: all traffic goes to a dead proxy (127.0.0.1:9, loopback not
// exempt) and every host name resolves to NOTFOUND, so a request that the
// render worker did not fulfil itself (WebSocket, WebRTC, DNS prefetch,
// preconnect) goes nowhere. Images are off, the V8 heap is capped.
#ifndef TOPICRAWL_RENDER_BROWSER_PROCESS_H_
#define TOPICRAWL_RENDER_BROWSER_PROCESS_H_

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl {

// The Chromium to use: $TOPICRAWL_CHROMIUM when set, else the first of
// /usr/bin/chromium, /usr/bin/chromium-browser that is executable. A clear
// error naming the package when none is.
StatusOr<std::string> FindChromium();

struct BrowserLaunchOptions {
  std::string chromium;  // executable; empty: FindChromium()
  int js_heap_mb = 128;  // V8 old-space cap per renderer
  int start_timeout_ms = 20000;
  // Added to the crawler's niceness for the browser and its renderers: > 0
  // where rendering is a side job that must not take the CPU from the crawl.
  int nice = 0;
  // When set and true, a launch still waiting for the DevTools port gives up.
  const std::atomic<bool>* cancel = nullptr;
};

class BrowserProcess {
 public:
  static StatusOr<std::unique_ptr<BrowserProcess>> Launch(const BrowserLaunchOptions& options);
  ~BrowserProcess();  // SIGKILL to the process group, reaps, deletes the profile

  const std::string& ws_url() const { return ws_url_; }
  pid_t pid() const { return pid_; }
  // Memory of every process of the browser (its process group: browser,
  // renderers, utility processes): the sum of their proportional set sizes
  // (/proc/PID/smaps_rollup Pss), so shared pages count once.
  uint64_t MemoryBytes() const;
  // False once the browser process has exited.
  bool Alive();
  // Moves every thread of the browser's processes into (or out of) the idle
  // scheduling class; processes started later inherit it from their parent.
  // False when a thread refused (leaving SCHED_IDLE needs RLIMIT_NICE room
  // or CAP_SYS_NICE).
  bool SetIdleClass(bool idle);

 private:
  BrowserProcess() = default;
  std::vector<pid_t> GroupPids() const;  // the processes of its group
  pid_t pid_ = -1;
  bool reaped_ = false;
  bool idle_ = false;  // SetIdleClass(true) was the last call
  std::string profile_dir_;
  std::string ws_url_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_RENDER_BROWSER_PROCESS_H_
