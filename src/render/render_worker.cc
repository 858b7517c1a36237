#include "render/render_worker.h"

#include <pthread.h>
#include <strings.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <thread>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "fetch/fetcher.h"
#include "render/cdp_connection.h"
#include "url/url.h"

namespace topicrawl {

using nlohmann::json;

std::string Base64Encode(std::string_view in) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < in.size()) {
    uint32_t v = uint8_t(in[i]) << 16;
    if (i + 1 < in.size()) v |= uint8_t(in[i + 1]) << 8;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> ReplayHeaders(std::string_view head) {
  std::vector<std::pair<std::string, std::string>> block;
  bool status_line = true;
  while (!head.empty()) {
    size_t nl = head.find('\n');
    std::string_view line = head.substr(0, nl);
    head = nl == std::string_view::npos ? std::string_view() : head.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {  // end of a block: a later block replaces it
      status_line = true;
      continue;
    }
    if (status_line) {
      block.clear();
      status_line = false;
      continue;
    }
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) continue;
    std::string name(line.substr(0, colon));
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    bool skip = false;
    for (const char* drop : {"content-encoding", "transfer-encoding", "content-length",
                             "set-cookie"}) {
      if (strcasecmp(name.c_str(), drop) == 0) skip = true;
    }
    if (!skip) block.emplace_back(std::move(name), std::string(value));
  }
  return block;
}

namespace {

// Runs before any script of the page (Page.addScriptToEvaluateOnNewDocument):
// no service workers, no pop-ups; and a count of the page's own network work
// in progress -- fetch() and XMLHttpRequest until their answer is handed to
// the page, and a Response body being read (json(), text(), ...) until its
// promise settles and one more task has run -- that the idle check reads
// (a request answered over DevTools is not yet a DOM built from it).
constexpr char kPrelude[] = R"JS(
try { delete Navigator.prototype.serviceWorker; } catch (e) {}
try { Object.defineProperty(navigator, 'serviceWorker', {get: () => undefined}); } catch (e) {}
window.open = function() { return null; };
(() => {
  let busy = 0;
  const done = () => setTimeout(() => { busy--; }, 0);
  const track = p => { busy++; p.then(done, done); return p; };
  const fetch0 = window.fetch;
  if (fetch0) window.fetch = function(...a) { return track(fetch0.apply(this, a)); };
  for (const m of ['json', 'text', 'arrayBuffer', 'blob', 'formData']) {
    const f = Response.prototype[m];
    if (f) Response.prototype[m] = function(...a) { return track(f.apply(this, a)); };
  }
  const send0 = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function(...a) {
    busy++; this.addEventListener('loadend', done, {once: true});
    try { return send0.apply(this, a); } catch (e) { done(); throw e; } };
  Object.defineProperty(window, '__topicrawlBusy', {get: () => busy});
})();
)JS";

// Lets the page's queued tasks run (a fetch chained on another's answer is
// issued by then), then scrolls to the bottom: the document height, -1 when
// nothing scrolls, -2 while the document has not finished loading (a load
// event can be lost when the renderer process is swapped; readyState is
// asked instead of a wall-clock guess) or while the page's own requests and
// body reads are in progress (kPrelude).
constexpr char kScroll[] = R"JS((async () => {
  await new Promise(r => setTimeout(r, 30));
  if (document.readyState !== 'complete' || window.__topicrawlBusy > 0) return -2;
  const d = document.documentElement; if (!d) return -1;
  const h = Math.max(d.scrollHeight, document.body ? document.body.scrollHeight : 0);
  if (h <= window.innerHeight + 8) return -1;
  window.scrollTo(0, h); return h; })())JS";

constexpr char kExtract[] = R"JS(JSON.stringify({
  html: document.documentElement ? document.documentElement.outerHTML : '',
  href: location.href,
  links: Array.from(document.links, a => a.href),
  text: document.body ? document.body.innerText : ''}))JS";

bool BlockedType(const std::string& type) {
  static const char* kBlocked[] = {"Image", "Media", "Font", "Ping", "Prefetch",
                                   "CSPViolationReport", "SignedExchange", "TextTrack",
                                   "Manifest", "WebSocket"};
  for (const char* t : kBlocked) {
    if (type == t) return true;
  }
  return false;
}

// "scheme://host[:port]" of an absolute URL, "" for anything else.
std::string PageOrigin(const std::string& url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return "";
  const size_t end = url.find_first_of("/?#", scheme + 3);
  return url.substr(0, end);
}

// The same document request: equal without the fragment, and an http URL
// equal to its https form (Chromium's built-in HSTS list upgrades some).
bool SameDocumentUrl(std::string_view a, std::string_view b) {
  auto strip = [](std::string_view u) {
    u = u.substr(0, u.find('#'));
    for (std::string_view scheme : {"https://", "http://"}) {
      if (u.starts_with(scheme)) return u.substr(scheme.size());
    }
    return u;
  };
  return strip(a) == strip(b);
}

}  // namespace

struct RenderWorker::Impl {
  // Members of Impl, not of the anonymous namespace: Impl's linkage is the
  // header's, and a unity build sees its fields' types (-Wsubobject-linkage).
  enum class Stage { kContext, kTarget, kAttach, kLoading, kScrolling, kExtracting, kDone };
  enum class Reply { kContext, kTarget, kAttach, kSetUp, kNavigate, kScroll, kExtract, kIgnore };
  // A target in its own browser context, attached and set up once (request
  // interception, page events, the prelude), navigated from page to page.
  struct Tab {
    std::string context_id, target_id, session_id;
    uint64_t page = 0;  // the page it renders; 0: free
    int pages = 0;      // pages navigated in this context
  };
  struct Page {
    QueuedJob job;
    uint64_t serial = 0;
    uint64_t tab = 0;  // 0 until its tab is set up
    Stage stage = Stage::kContext;
    std::string context_id, target_id, session_id;
    TimePoint started{}, deadline{}, last_activity{};
    // doc_served: this page's document request was answered; committed: the
    // main frame then committed a document (the served one), so what the
    // page is asked about is no longer a previous page's document.
    bool loaded = false, doc_served = false, committed = false;
    int pending = 0;  // intercepted requests not answered yet
    uint64_t activity = 0;     // requests seen and answered, ever
    uint64_t scroll_mark = 0;  // `activity` when the scroll check was sent
    int setup_replies = 0;
    int64_t last_height = -2;
    size_t bytes = 0;
    RenderResult result;
  };
  // An intercepted subresource request waiting for the gate or a fetch.
  struct Sub {
    uint64_t page = 0;
    std::string request_id, url;
    TimePoint retry_at{};
  };
  struct Outstanding {
    uint64_t page;
    Reply reply;
    TimePoint sent;
  };

  RenderPool::Shared* shared;
  const RenderOptions& opt;
  int index;
  std::unique_ptr<BrowserProcess> browser;
  std::unique_ptr<CdpConnection> cdp;
  std::unique_ptr<Fetcher> fetcher;
  std::thread thread;
  std::atomic<bool> quit{false};

  std::map<uint64_t, Page> pages;
  std::map<uint64_t, Tab> tabs;                          // by tab id
  std::unordered_map<std::string, uint64_t> by_session;  // session -> tab id
  std::unordered_map<int64_t, Outstanding> outstanding;
  std::vector<Sub> parked;
  std::unordered_map<uint64_t, Sub> fetching;  // fetch task url_id -> sub
  std::unordered_map<uint64_t, std::string> robots_fetching;  // url_id -> host key
  uint64_t next_serial = 1, next_task = 1, next_tab = 1;
  std::atomic<bool> saturated{false};  // a browser, every tab busy
  int pages_on_browser = 0;
  bool idle_class = false;  // the browser's scheduling class (Shared::background)
  TimePoint class_changed{};
  TimePoint next_launch{};
  // TOPICRAWL_CDP_TRACE=1: every DevTools message to stderr (debugging).
  const bool trace = std::getenv("TOPICRAWL_CDP_TRACE") != nullptr;

  Impl(RenderPool::Shared* s, int i, std::unique_ptr<BrowserProcess> first)
      : shared(s), opt(s->options), index(i), browser(std::move(first)) {
    FetcherOptions fo = opt.fetch;
    fo.total_timeout_s = std::min(fo.total_timeout_s, opt.page_timeout_s);
    fetcher = NewCurlFetcher(fo, shared->clock);
  }

  TimePoint Now() { return shared->clock->Now(); }
  void Loop();
  bool EnsureBrowser();
  void DropBrowser(const std::string& why, bool crashed);
  void TakeJobs();
  void StartPage(QueuedJob job);
  void Bind(Page& p, uint64_t tab_id);
  void Navigate(Page& p);
  void ReleaseTab(const Page& p);
  void DropTab(uint64_t tab_id);
  void OnFreeTabEvent(uint64_t tab_id, const std::string& method, const json& params);
  void OnMessage(const json& m);
  void OnReply(const Outstanding& o, const json& m);
  // The replies that move a page on: its tab attached, a scroll step, the DOM.
  void OnAttached(Page& p, const json& result);
  void OnScrolled(Page& p, const json& result);
  void OnExtracted(uint64_t page_id, Page& p, const json& result);
  void OnEvent(Page& p, const std::string& method, const json& params);
  void OnPaused(Page& p, const json& params);
  void Answer(Page& p, const std::string& request_id, const json* fulfil,
              const char* fail_reason);
  void Refuse(Page& p, const std::string& request_id, const std::string& url,
              const std::string& why);
  void TrySub(Sub sub);
  void OnFetched(FetchResult r);
  void Fulfil(Page& p, const std::string& request_id, const CachedResponse& r);
  void Tick();
  void Extract(Page& p);
  void Complete(uint64_t serial, const std::string& error);
  int64_t Send(Page& p, const std::string& method, json params, Reply reply, bool session);
  Page* Find(uint64_t serial) {
    auto it = pages.find(serial);
    return it == pages.end() ? nullptr : &it->second;
  }
};

RenderWorker::RenderWorker(RenderPool::Shared* shared, int index,
                           std::unique_ptr<BrowserProcess> first_browser)
    : impl_(std::make_unique<Impl>(shared, index, std::move(first_browser))) {}

RenderWorker::~RenderWorker() {
  impl_->quit = true;
  Wake();
  if (impl_->thread.joinable()) impl_->thread.join();
}

void RenderWorker::Start() {
  Impl* i = impl_.get();
  i->thread = std::thread([i] {
    pthread_setname_np(pthread_self(), ("tr-render" + std::to_string(i->index)).c_str());
    i->Loop();
  });
}

void RenderWorker::Wake() { impl_->fetcher->Wakeup(); }

bool RenderWorker::Saturated() const { return impl_->saturated; }

void RenderWorker::Impl::Loop() {
  while (true) {
    bool work = !pages.empty();
    if (!work) {
      std::lock_guard<std::mutex> lock(shared->mu);
      work = !shared->queue.empty();
    }
    // Lazily started pools (auto mode: a few samples) grow one browser at a
    // time: worker i launches only while worker i-1 has every tab busy.
    // In the background (samples on spare CPU) one browser is enough.
    if (work && !browser && opt.lazy_start && index > 0 &&
        (shared->background || !shared->workers[index - 1]->Saturated())) {
      work = false;
    }
    // A browser is started when there is something to render.
    const bool have_browser = (browser && cdp) || (work && EnsureBrowser());
    // The scheduling class follows the pool's (SetBackground), at most
    // one change every half second (a crawl may flip it often).
    if (have_browser && idle_class != shared->background &&
        Now() - class_changed >= std::chrono::milliseconds(500)) {
      idle_class = shared->background;
      class_changed = Now();
      browser->SetIdleClass(idle_class);
    }
    if (have_browser) TakeJobs();
    if (cdp) {
      for (const json& m : cdp->TakeMessages()) OnMessage(m);
      if (cdp->closed()) DropBrowser("the browser closed its DevTools connection", true);
    }
    Tick();
    saturated = browser && cdp && static_cast<int>(pages.size()) >= opt.tabs_per_worker;
    if (quit && pages.empty()) {
      std::lock_guard<std::mutex> lock(shared->mu);
      if (shared->queue.empty() || !have_browser) break;
    }
    Duration wait = std::chrono::milliseconds(pages.empty() ? 100 : 10);
    for (FetchResult& r : fetcher->Poll(wait)) OnFetched(std::move(r));
  }
  DropBrowser("render pool closed", false);
}

// A browser for this worker: the current one, or a new one (at most one
// launch attempt a second after a failure; meanwhile jobs wait in the queue
// unless no worker has a browser, then they fail with the launch error).
bool RenderWorker::Impl::EnsureBrowser() {
  if (browser && cdp) return true;
  if (Now() < next_launch) return false;
  next_launch = Now() + std::chrono::seconds(1);
  Status error;
  if (!browser) {
    BrowserLaunchOptions lo;
    lo.chromium = opt.chromium;
    lo.js_heap_mb = opt.js_heap_mb;
    lo.nice = opt.browser_nice;
    lo.cancel = &quit;
    auto b = BrowserProcess::Launch(lo);
    if (!b.ok()) {
      error = b.status();
    } else {
      browser = std::move(b).value();
      idle_class = false;  // launched at its normal priority
      std::lock_guard<std::mutex> lock(shared->mu);
      ++shared->stats.browser_starts;
    }
  }
  if (browser) {
    auto c = CdpConnection::Connect(browser->ws_url(), 5000,
                                    [f = fetcher.get()] { f->Wakeup(); });
    if (c.ok()) {
      cdp = std::move(c).value();
      pages_on_browser = 0;
      return true;
    }
    error = c.status();
    browser.reset();
  }
  // Without a browser the queued jobs fail rather than wait forever.
  std::deque<QueuedJob> failed;
  {
    std::lock_guard<std::mutex> lock(shared->mu);
    failed.swap(shared->queue);
  }
  for (QueuedJob& j : failed) {
    RenderResult r;
    r.error = "render: " + error.message();
    shared->Finish(&j, std::move(r));
  }
  return false;
}

void RenderWorker::Impl::DropBrowser(const std::string& why, bool crashed) {
  std::vector<uint64_t> serials;
  for (auto& [serial, p] : pages) serials.push_back(serial);
  for (uint64_t s : serials) Complete(s, why);
  cdp.reset();
  browser.reset();
  outstanding.clear();
  by_session.clear();
  tabs.clear();
  if (crashed) {
    std::lock_guard<std::mutex> lock(shared->mu);
    ++shared->stats.browser_crashes;
  }
}

void RenderWorker::Impl::TakeJobs() {
  const bool recycle = pages_on_browser >= opt.pages_per_browser;
  if (recycle) {
    if (!pages.empty()) return;  // let the running pages finish first
    const uint64_t rss = browser->MemoryBytes();
    DropBrowser("recycled", false);
    std::lock_guard<std::mutex> lock(shared->mu);
    ++shared->stats.browser_recycles;
    shared->stats.peak_browser_memory = std::max(shared->stats.peak_browser_memory, rss);
    return;
  }
  while (static_cast<int>(pages.size()) < opt.tabs_per_worker &&
         pages_on_browser < opt.pages_per_browser) {
    QueuedJob job;
    {
      std::lock_guard<std::mutex> lock(shared->mu);
      if (shared->queue.empty()) return;
      job = std::move(shared->queue.front());
      shared->queue.pop_front();
    }
    StartPage(std::move(job));
  }
}

int64_t RenderWorker::Impl::Send(Page& p, const std::string& method, json params, Reply reply,
                                 bool session) {
  if (trace) std::fprintf(stderr, "cdp> %s %s\n", method.c_str(), params.dump().substr(0, 200).c_str());
  int64_t id = cdp->Send(method, std::move(params), session ? p.session_id : "");
  outstanding[id] = {p.serial, reply, Now()};
  return id;
}

void RenderWorker::Impl::StartPage(QueuedJob job) {
  ++pages_on_browser;
  const uint64_t serial = next_serial++;
  Page& p = pages[serial];
  p.serial = serial;
  p.job = std::move(job);
  p.started = p.last_activity = Now();
  const double cap = p.job.job.timeout_s > 0 ? p.job.job.timeout_s : opt.page_timeout_s;
  p.deadline = p.started + std::chrono::duration_cast<Duration>(std::chrono::duration<double>(cap));
  for (auto& [id, tab] : tabs) {
    if (tab.page == 0) {
      Bind(p, id);
      Navigate(p);
      return;
    }
  }
  // No free tab: a new one (context, target, session, set-up), then navigate.
  Send(p, "Target.createBrowserContext", {{"disposeOnDetach", true}}, Reply::kContext, false);
}

void RenderWorker::Impl::Bind(Page& p, uint64_t tab_id) {
  Tab& t = tabs[tab_id];
  t.page = p.serial;
  ++t.pages;
  p.tab = tab_id;
  p.context_id = t.context_id;
  p.target_id = t.target_id;
  p.session_id = t.session_id;
}

void RenderWorker::Impl::Navigate(Page& p) {
  p.stage = Stage::kLoading;
  p.last_activity = Now();
  Send(p, "Page.navigate", {{"url", p.job.job.url}}, Reply::kNavigate, true);
}

// After a page: its tab goes back to the free tabs with the site data of
// the page's origin cleared, or, after a page that misbehaved or at the
// context's page budget, is closed with its context (a fresh one is made
// for a later page).
void RenderWorker::Impl::ReleaseTab(const Page& p) {
  auto it = tabs.find(p.tab);
  if (it == tabs.end()) return;
  Tab& t = it->second;
  const RenderResult& r = p.result;
  const bool reuse = cdp && r.ok && !r.timed_out && r.dialogs == 0 &&
                     r.navigations_blocked == 0 && t.pages < opt.pages_per_context;
  if (!reuse) {
    DropTab(p.tab);
    return;
  }
  t.page = 0;
  std::vector<std::string> origins = {PageOrigin(p.job.job.url), PageOrigin(r.location)};
  if (origins[1] == origins[0]) origins.pop_back();
  for (const std::string& origin : origins) {
    if (origin.empty()) continue;
    cdp->Send("Storage.clearDataForOrigin", {{"origin", origin}, {"storageTypes", "all"}},
              t.session_id);
  }
}

void RenderWorker::Impl::DropTab(uint64_t tab_id) {
  auto it = tabs.find(tab_id);
  if (it == tabs.end()) return;
  if (cdp && !it->second.context_id.empty()) {
    cdp->Send("Target.disposeBrowserContext", {{"browserContextId", it->second.context_id}});
  }
  by_session.erase(it->second.session_id);
  tabs.erase(it);
}

// A free tab's previous document may still run: its requests are aborted,
// its dialogs answered; a tab that crashed or went away is forgotten.
void RenderWorker::Impl::OnFreeTabEvent(uint64_t tab_id, const std::string& method,
                                        const json& params) {
  const Tab& t = tabs[tab_id];
  if (method == "Fetch.requestPaused") {
    cdp->Send("Fetch.failRequest",
              {{"requestId", params.value("requestId", "")}, {"errorReason", "Aborted"}},
              t.session_id);
  } else if (method == "Page.javascriptDialogOpening") {
    cdp->Send("Page.handleJavaScriptDialog", {{"accept", true}}, t.session_id);
  } else if (method == "Inspector.targetCrashed" || method == "Target.detachedFromTarget") {
    DropTab(tab_id);
  }
}

void RenderWorker::Impl::OnMessage(const json& m) {
  if (trace) std::fprintf(stderr, "%lld cdp< %s\n", (long long)std::chrono::duration_cast<std::chrono::milliseconds>(Now().time_since_epoch()).count() % 100000, m.dump().substr(0, 1200).c_str());
  if (m.contains("id")) {
    auto it = outstanding.find(m["id"].get<int64_t>());
    if (it == outstanding.end()) return;
    Outstanding o = it->second;
    outstanding.erase(it);
    OnReply(o, m);
    return;
  }
  const std::string method = m.value("method", "");
  const json params = m.value("params", json::object());
  std::string session = m.value("sessionId", "");
  if (method == "Target.detachedFromTarget") session = params.value("sessionId", "");
  auto it = by_session.find(session);
  if (it == by_session.end()) return;
  const uint64_t tab_id = it->second;
  Page* p = Find(tabs[tab_id].page);
  if (p != nullptr) {
    OnEvent(*p, method, params);
  } else {
    OnFreeTabEvent(tab_id, method, params);
  }
}

void RenderWorker::Impl::OnReply(const Outstanding& o, const json& m) {
  Page* p = Find(o.page);
  if (p == nullptr || o.reply == Reply::kIgnore) return;
  const json result = m.value("result", json::object());
  if (m.contains("error")) {
    if (o.reply == Reply::kScroll) {  // a page busy or gone: take its DOM
      Extract(*p);
      return;
    }
    Complete(o.page, "DevTools: " + m["error"].value("message", std::string("error")));
    return;
  }
  switch (o.reply) {
    case Reply::kContext:
      p->context_id = result.value("browserContextId", "");
      p->stage = Stage::kTarget;
      Send(*p, "Target.createTarget",
           {{"url", "about:blank"}, {"browserContextId", p->context_id}}, Reply::kTarget, false);
      break;
    case Reply::kTarget:
      p->target_id = result.value("targetId", "");
      p->stage = Stage::kAttach;
      Send(*p, "Target.attachToTarget", {{"targetId", p->target_id}, {"flatten", true}},
           Reply::kAttach, false);
      break;
    case Reply::kAttach:
      OnAttached(*p, result);
      break;
    case Reply::kSetUp:
      if (--p->setup_replies == 0) Navigate(*p);
      break;
    case Reply::kNavigate:
      if (result.contains("errorText") && p->doc_served == false) {
        Complete(o.page, "navigation failed: " + result.value("errorText", std::string()));
      }
      break;
    case Reply::kScroll:
      OnScrolled(*p, result);
      break;
    case Reply::kExtract:
      OnExtracted(o.page, *p, result);
      break;
    default:
      break;
  }
}

void RenderWorker::Impl::OnAttached(Page& p, const json& result) {
  const uint64_t tab_id = next_tab++;
  tabs[tab_id] = Tab{p.context_id, p.target_id, result.value("sessionId", ""), 0, 0};
  by_session[tabs[tab_id].session_id] = tab_id;
  Bind(p, tab_id);
  {
    std::lock_guard<std::mutex> lock(shared->mu);
    ++shared->stats.tabs_opened;
  }
  p.stage = Stage::kLoading;
  // Navigation waits for all three answers: the page's events and the
  // prelude must be in place before its document arrives.
  p.setup_replies = 3;
  Send(p, "Fetch.enable", {{"patterns", json::array({{{"urlPattern", "*"}}})}},
       Reply::kSetUp, true);
  Send(p, "Page.enable", json::object(), Reply::kSetUp, true);
  Send(p, "Page.addScriptToEvaluateOnNewDocument", {{"source", kPrelude}}, Reply::kSetUp,
       true);
}

void RenderWorker::Impl::OnScrolled(Page& p, const json& result) {
  const int64_t h = result.value("result", json::object()).value("value", int64_t{-1});
  if (h == -2 || p.pending > 0 || p.activity != p.scroll_mark) {
    // Still loading, or the page asked for more meanwhile: not idle.
    p.last_activity = Now();
    p.stage = Stage::kLoading;
  } else if (h < 0 || h == p.last_height || p.result.scrolls >= opt.max_scrolls) {
    Extract(p);
  } else {
    p.last_height = h;
    ++p.result.scrolls;
    p.last_activity = Now();
    p.stage = Stage::kLoading;
  }
}

void RenderWorker::Impl::OnExtracted(uint64_t page_id, Page& p, const json& result) {
  const std::string text =
      result.value("result", json::object()).value("value", std::string());
  json doc = json::parse(text, nullptr, false);
  if (!doc.is_object()) {
    Complete(page_id, "the page's DOM could not be read");
    return;
  }
  p.result.html = doc.value("html", "");
  p.result.location = doc.value("href", "");
  p.result.inner_text = doc.value("text", "");
  for (const auto& l : doc.value("links", json::array())) {
    if (l.is_string()) p.result.dom_links.push_back(l.get<std::string>());
  }
  p.result.ok = true;
  Complete(page_id, "");
}

void RenderWorker::Impl::OnEvent(Page& p, const std::string& method, const json& params) {
  if (method == "Fetch.requestPaused") {
    OnPaused(p, params);
  } else if (method == "Page.frameNavigated") {
    const json frame = params.value("frame", json::object());
    if (p.doc_served && !frame.contains("parentId")) p.committed = true;
  } else if (method == "Page.loadEventFired") {
    if (p.doc_served) p.loaded = p.committed = true;
    p.last_activity = Now();
  } else if (method == "Page.javascriptDialogOpening") {
    ++p.result.dialogs;
    Send(p, "Page.handleJavaScriptDialog", {{"accept", true}}, Reply::kIgnore, true);
  } else if (method == "Inspector.targetCrashed") {
    Complete(p.serial, "the renderer crashed");
  } else if (method == "Target.detachedFromTarget" && p.stage != Stage::kDone) {
    Complete(p.serial, "the page's target went away");
  }
}

void RenderWorker::Impl::Answer(Page& p, const std::string& request_id, const json* fulfil,
                                const char* fail_reason) {
  --p.pending;
  ++p.activity;
  p.last_activity = Now();
  if (fulfil != nullptr) {
    Send(p, "Fetch.fulfillRequest", *fulfil, Reply::kIgnore, true);
  } else {
    Send(p, "Fetch.failRequest", {{"requestId", request_id}, {"errorReason", fail_reason}},
         Reply::kIgnore, true);
  }
}

void RenderWorker::Impl::Refuse(Page& p, const std::string& request_id, const std::string& url,
                                const std::string& why) {
  ++p.result.refused;
  if (p.result.refusals.size() < 20) p.result.refusals.push_back(url + ": " + why);
  Answer(p, request_id, nullptr, "AccessDenied");
}

void RenderWorker::Impl::Fulfil(Page& p, const std::string& request_id,
                                const CachedResponse& r) {
  json headers = json::array();
  for (auto& [name, value] : ReplayHeaders(r.response_head)) {
    headers.push_back({{"name", name}, {"value", value}});
  }
  if (r.response_head.empty() && !r.content_type.empty()) {
    headers.push_back({{"name", "Content-Type"}, {"value", r.content_type}});
  }
  json f = {{"requestId", request_id},
            {"responseCode", r.http_code > 0 ? r.http_code : 200},
            {"responseHeaders", headers},
            {"body", Base64Encode(r.body)}};
  Answer(p, request_id, &f, nullptr);
}

void RenderWorker::Impl::OnPaused(Page& p, const json& params) {
  ++p.pending;
  ++p.activity;
  p.last_activity = Now();
  const std::string id = params.value("requestId", "");
  const std::string type = params.value("resourceType", "");
  const json request = params.value("request", json::object());
  const std::string url = request.value("url", "");
  if (type == "Document") {
    if (!p.doc_served && params.value("frameId", "") == p.target_id &&
        SameDocumentUrl(url, p.job.job.url)) {
      p.doc_served = true;
      const RenderJob& j = p.job.job;
      Fulfil(p, id, CachedResponse{j.http_code, j.response_head, j.content_type, j.body});
    } else {
      ++p.result.navigations_blocked;
      Answer(p, id, nullptr, "Aborted");
    }
    return;
  }
  ++p.result.requests;
  if (BlockedType(type) || request.value("method", "GET") != "GET" ||
      url.ends_with("/favicon.ico")) {
    ++p.result.blocked;
    Answer(p, id, nullptr, "BlockedByClient");
    return;
  }
  std::optional<std::string> canonical = ResolveLink("", url);
  if (!canonical) {
    Refuse(p, id, url, "not a crawlable http(s) URL");
    return;
  }
  TrySub({p.serial, id, url, {}});
}

// Cache, gate, then this worker's fetcher.
void RenderWorker::Impl::TrySub(Sub sub) {
  Page* p = Find(sub.page);
  if (p == nullptr) return;

  if (auto hit = shared->gate->Lookup(sub.url)) {
    ++p->result.cached;
    Fulfil(*p, sub.request_id, *hit);
    return;
  }
  SubresourceGate::Decision d = shared->gate->Check(sub.url);
  switch (d.verdict) {
    case SubresourceGate::Verdict::kDeny:
      Refuse(*p, sub.request_id, sub.url, d.why);
      return;
    case SubresourceGate::Verdict::kFetchRobots: {
      CrawlTask t;
      t.url = d.robots_url;
      t.url_id = next_task++;
      robots_fetching[t.url_id] = d.robots_key;
      fetcher->Submit(std::move(t), FetchKind::kRobots);
      sub.retry_at = Now();
      parked.push_back(std::move(sub));
      return;
    }
    case SubresourceGate::Verdict::kWait:
      sub.retry_at = d.wait_until;
      parked.push_back(std::move(sub));
      return;
    case SubresourceGate::Verdict::kAllow: {
      CrawlTask t;
      t.url = sub.url;
      t.url_id = next_task++;
      fetching[t.url_id] = std::move(sub);
      fetcher->Submit(std::move(t), FetchKind::kResource);
      return;
    }
  }
}

void RenderWorker::Impl::OnFetched(FetchResult r) {
  if (auto rb = robots_fetching.find(r.task.url_id); rb != robots_fetching.end()) {
    shared->gate->OnRobots(rb->second, r.http_code, r.body, r.status, r.error);
    robots_fetching.erase(rb);
    return;
  }
  auto it = fetching.find(r.task.url_id);
  if (trace) {
    std::fprintf(stderr, "fetched %s: %s %d %zu bytes\n", r.task.url.c_str(),
                 std::string(FetchStatusName(r.status)).c_str(), r.http_code, r.body.size());
  }
  if (it == fetching.end()) return;
  Sub sub = std::move(it->second);
  fetching.erase(it);
  Page* p = Find(sub.page);
  if (p == nullptr) return;
  const bool answered = r.status == FetchStatus::kOk || r.status == FetchStatus::kHttpError;
  if (!answered || r.http_code <= 0) {
    Refuse(*p, sub.request_id, sub.url,
           std::string(FetchStatusName(r.status)) + (r.error.empty() ? "" : " (" + r.error + ")"));
    return;
  }
  if (p->bytes + r.body.size() > opt.max_page_bytes) {
    Refuse(*p, sub.request_id, sub.url, "the page's subresources exceed max_page_bytes");
    return;
  }
  p->bytes += r.body.size();
  ++p->result.fetched;
  auto response = std::make_shared<CachedResponse>(
      CachedResponse{r.http_code, std::move(r.response_head), std::move(r.content_type),
                     std::move(r.body)});
  Fulfil(*p, sub.request_id, *response);
  if (r.final_url.empty() || r.final_url == sub.url) shared->gate->Store(sub.url, response);
}

// Parked requests, idle pages (scroll, then extract), deadlines, a browser
// that stopped answering.
void RenderWorker::Impl::Tick() {
  const TimePoint now = Now();
  if (!parked.empty()) {
    std::vector<Sub> again;
    again.swap(parked);
    for (Sub& s : again) {
      if (s.retry_at <= now) {
        TrySub(std::move(s));
      } else {
        parked.push_back(std::move(s));
      }
    }
  }
  std::vector<uint64_t> hung;
  std::vector<uint64_t> cut;
  const bool cutting = shared->cut_short;
  for (auto& [serial, p] : pages) {
    // CutShort: an optional page is taken now, as at its time cap; one
    // still waiting for its tab ends at once.
    if (cutting && p.job.job.optional && p.deadline > now) {
      p.deadline = now;
      p.result.cut_short = true;
      if (p.stage < Stage::kLoading) {
        cut.push_back(serial);
        continue;
      }
    }
    if (now >= p.deadline + std::chrono::seconds(2)) {
      p.result.timed_out = true;
      hung.push_back(serial);
    } else if (now >= p.deadline && p.stage < Stage::kExtracting) {
      p.result.timed_out = true;
      if (p.stage == Stage::kLoading || p.stage == Stage::kScrolling) {
        Extract(p);
      } else {  // not even loading yet: the browser is too slow or stuck
        hung.push_back(serial);
      }
    } else if (p.stage == Stage::kLoading && p.pending == 0 && p.committed &&
               now - p.last_activity >= std::chrono::milliseconds(opt.quiet_ms)) {
      // Network idle: ask the page (kScroll) whether it is loaded and stays
      // idle through one more turn of its event loop.
      p.stage = Stage::kScrolling;
      p.scroll_mark = p.activity;
      Send(p, "Runtime.evaluate",
           {{"expression", kScroll}, {"returnByValue", true}, {"awaitPromise", true}},
           Reply::kScroll, true);
    }
  }
  for (uint64_t s : hung) Complete(s, "the page did not answer within the time cap (hung)");
  for (uint64_t s : cut) Complete(s, "render cut short (the crawl is closing)");
  for (const auto& [id, o] : outstanding) {
    if (now - o.sent > std::chrono::seconds(15)) {
      DropBrowser("the browser stopped answering", true);
      return;
    }
  }
}

void RenderWorker::Impl::Extract(Page& p) {
  p.stage = Stage::kExtracting;
  Send(p, "Runtime.evaluate", {{"expression", kExtract}, {"returnByValue", true}},
       Reply::kExtract, true);
}

void RenderWorker::Impl::Complete(uint64_t serial, const std::string& error) {
  auto it = pages.find(serial);
  if (it == pages.end()) return;
  Page& p = it->second;
  if (trace) {
    std::fprintf(stderr, "page %llu %s: stage %d tab %llu pages %d served %d committed %d loaded %d pending %d navs %d dialogs %d to %d: %s\n",
                 (unsigned long long)serial, p.job.job.url.c_str(), (int)p.stage,
                 (unsigned long long)p.tab, tabs.count(p.tab) ? tabs[p.tab].pages : -1, p.doc_served,
                 p.committed, p.loaded, p.pending, p.result.navigations_blocked, p.result.dialogs, p.result.timed_out, error.c_str());
  }
  p.stage = Stage::kDone;
  if (!error.empty()) p.result.ok = false;
  p.result.error = error;
  p.result.seconds = std::chrono::duration<double>(Now() - p.started).count();
  if (p.tab != 0) {
    ReleaseTab(p);
  } else if (cdp && !p.context_id.empty()) {  // its tab was still being set up
    cdp->Send("Target.disposeBrowserContext", {{"browserContextId", p.context_id}});
  }
  for (auto o = outstanding.begin(); o != outstanding.end();) {
    o = o->second.page == serial ? outstanding.erase(o) : std::next(o);
  }
  QueuedJob job = std::move(p.job);
  RenderResult result = std::move(p.result);
  pages.erase(it);
  if (browser && pages_on_browser % 8 == 0) {
    const uint64_t rss = browser->MemoryBytes();
    {
      std::lock_guard<std::mutex> lock(shared->mu);
      shared->stats.peak_browser_memory = std::max(shared->stats.peak_browser_memory, rss);
    }
    // Over the memory cap: no new pages here; TakeJobs recycles when idle.
    if (rss > static_cast<uint64_t>(opt.max_browser_mb) << 20) {
      pages_on_browser = opt.pages_per_browser;
    }
  }
  shared->Finish(&job, std::move(result));
}

}  // namespace topicrawl
