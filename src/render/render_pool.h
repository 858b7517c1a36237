// RenderPool: renders fetched HTML pages in headless Chromium and returns
// the DOM the page's scripts built.
//
// N workers, each a thread owning one Chromium (BrowserProcess) driven over
// the DevTools protocol (CdpConnection), each rendering up to
// `tabs_per_worker` pages at once. A tab (a target in its own browser
// context) is set up once and navigated from page to page: the per-page
// cost is one navigation, not a context, a target and a renderer process.
// Between two pages of a tab the site data of the page's origin (cookies,
// storage, caches) is cleared; a tab gets a fresh context after
// `pages_per_context` pages and after any page that misbehaved (failed,
// reached its time cap, opened a dialog, tried to navigate away).
//
// Every request a page makes is intercepted (DevTools Fetch domain, request
// stage) and answered by the worker, never by Chromium's network stack:
//   * the page's own document: the bytes the crawler already fetched
//     (RenderJob::body), no second download;
//   * a later navigation of the main frame (location = ..., a form, a meta
//     refresh) and every subframe document: refused (the page is rendered
//     where the crawler fetched it);
//   * images, media, fonts, pings, prefetches, non-GET methods: refused;
//   * scripts, stylesheets, XHR/fetch and the rest: through SubresourceGate
//     (robots.txt, per-host delay, a shared cache) and then this worker's
//     own Fetcher (fetch/fetcher.h) with the crawl's FetcherOptions, so the
//     private/loopback address refusal (with its --allow-private and
//     --connect-to exemptions), the redirect rules, size and time limits are
//     the crawler's own. Refusals are reported in RenderResult::refusals.
// Chromium itself is started with a dead proxy and an empty host resolver
// (render/browser_process.h): what escapes interception goes nowhere.
//
// A page is done when it has loaded and no intercepted request was pending
// for `quiet_ms` (network idle), after scrolling to the bottom while the
// document grows (at most `max_scrolls` times, for lazy content), or when
// `page_timeout_s` has passed (then whatever DOM exists is taken; a page
// that does not even answer then -- a script in an endless loop -- fails as
// hung). Dialogs (alert, confirm, beforeunload) are answered at once.
// window.open and navigator.serviceWorker are removed before any script of
// the page runs. A browser that crashes, stops answering, has rendered
// `pages_per_browser` pages or whose processes use more than
// `max_browser_mb` is replaced (its pages fail, the next ones go on):
// peak memory is about workers x max_browser_mb plus one page's growth.
//
// Every submitted job completes exactly once (done() on a worker thread),
// failures as RenderResult::ok == false with `error`.
#ifndef TOPICRAWL_RENDER_RENDER_POOL_H_
#define TOPICRAWL_RENDER_RENDER_POOL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "fetch/fetcher.h"

namespace topicrawl {

// --render: never (static HTML only), auto (per host, render_decider.h),
// always (every HTML page).
enum class RenderMode { kNever, kAuto, kAlways };
std::optional<RenderMode> ParseRenderMode(std::string_view name);
const char* RenderModeName(RenderMode mode);

struct RenderOptions {
  std::string chromium;  // empty: FindChromium()
  int workers = 2;
  int tabs_per_worker = 6;
  double page_timeout_s = 10;
  int quiet_ms = 120;        // network idle: no pending request this long
  int max_scrolls = 4;
  int pages_per_browser = 1000;
  int pages_per_context = 50;  // pages one tab renders before a fresh context
  int64_t max_browser_mb = 1024;
  int js_heap_mb = 128;
  // All subresource bodies of one page together; beyond: refused.
  size_t max_page_bytes = size_t{20} << 20;
  // Subresources shared between pages (a site's script is fetched once).
  size_t cache_bytes = size_t{64} << 20;
  size_t cache_max_entry = size_t{2} << 20;
  FetcherOptions fetch;  // the crawl's; kind kResource for subresources
  bool respect_robots = true;
  std::string robots_agent = "topicrawl";
  double host_delay_s = 0;  // min seconds between subresource fetches per host
  // Browsers start when the first job arrives (Start() checks only that
  // Chromium exists): --render auto on a web that never needs a render
  // pays nothing. Otherwise Start() launches the first browser itself.
  bool lazy_start = false;
  int browser_nice = 0;        // BrowserLaunchOptions::nice
  // Browsers render in the idle scheduling class until SetBackground(false)
  // (they launch at their normal priority).
  bool browser_idle = false;
};

struct RenderJob {
  std::string url;           // the page's URL (final URL after redirects)
  int http_code = 200;
  std::string response_head;  // raw response head (headers are replayed)
  std::string content_type;
  std::string body;           // the fetched, decoded document
  double timeout_s = 0;       // > 0: this page's time cap instead of the pool's
  // May be cut short by RenderPool::CutShort() (an auto-mode sample: the
  // page has its static parse; the render only informs a decision).
  bool optional = false;
};

struct RenderResult {
  bool ok = false;
  std::string error;
  bool timed_out = false;  // the time cap ended the page (DOM taken anyway)
  bool cut_short = false;  // RenderPool::CutShort ended it (DOM taken if it had loaded)
  std::string html;        // document.documentElement.outerHTML
  std::string location;    // location.href when the DOM was taken
  std::vector<std::string> dom_links;  // document.links, as hrefs
  std::string inner_text;              // document.body.innerText
  int requests = 0;   // subresource requests the page made
  int fetched = 0;    // ... fetched over the network
  int cached = 0;     // ... answered from the cache
  int blocked = 0;    // ... refused by type or method (images, POST, ...)
  int refused = 0;    // ... refused by a rule (robots, address, size)
  int navigations_blocked = 0;
  int dialogs = 0;
  int scrolls = 0;
  std::vector<std::string> refusals;  // "URL: why", the first 20
  double seconds = 0;
};

struct RenderPoolStats {
  int64_t submitted = 0, rendered = 0, failed = 0, timed_out = 0;
  int64_t browser_starts = 0, browser_recycles = 0, browser_crashes = 0;
  int64_t tabs_opened = 0;  // targets created (each in a fresh browser context)
  int64_t subrequests = 0, fetched = 0, cache_hits = 0, refused = 0, blocked = 0;
  uint64_t peak_browser_memory = 0;  // largest RSS of one browser's processes
};

using RenderDone = std::function<void(RenderResult)>;

class RenderPool {
 public:
  // Finds Chromium ("--render needs Chromium ..." when missing) and, unless
  // lazy_start, starts the first browser (its failure is the error); the
  // other workers start theirs.
  static StatusOr<std::unique_ptr<RenderPool>> Start(const RenderOptions& options);
  ~RenderPool();  // pending jobs fail with "render pool closed"

  void Submit(RenderJob job, RenderDone done);  // thread-safe, never blocks
  void WaitIdle();                              // every job done
  // From now on optional jobs end early: a queued or later submitted one
  // fails with "render cut short", a running one is taken as it is now (as
  // at its time cap). For the crawl's close: a sample no page waits for
  // does not hold it up. Thread-safe, idempotent.
  void CutShort();
  // Every browser's processes into (true) or out of (false) the idle
  // scheduling class: rendering as a side job that takes only spare CPU, or
  // as the crawl's own work. Thread-safe.
  void SetBackground(bool background);
  bool Idle() const;                            // no job pending
  RenderPoolStats Stats() const;                // thread-safe
  const RenderOptions& options() const;

  struct Shared;

 private:
  RenderPool() = default;
  std::shared_ptr<Shared> shared_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_RENDER_RENDER_POOL_H_
