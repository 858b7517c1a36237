// --render: fetched HTML pages through headless Chromium (render/).
//
// always: every fetched page is rendered before it is parsed; the rendered
//   DOM is what the parser, the strategy and the store's links see.
// auto: every page is parsed statically first; its HTML and static parse
//   say whether it looks like an application shell (ShellEvidence); only
//   shells are sampled, and RenderDecider says whether the page's host
//   renders (or samples): only those pages go to the pool. A sample compares the two parses (render/render_decider.h) and may
//   decide its host; the decision and its evidence become a
//   `render_decision` event (explain, dashboard events). While a host's
//   samples render, its other scripted pages are held (their static parse
//   kept, their links not yet offered) and go on when the samples are in:
//   rendered when the host was decided "render", so a script-built host
//   has no page whose links were taken from its static shell alone.
//   Samples and held pages wait outside the parse backlog (ActiveParsing):
//   the other hosts' pages are fetched and parsed meanwhile. When the page
//   budget is spent, samples still rendering are cut short.
// A failed render keeps the static parse (auto) or parses the fetched body
// (always): rendering never loses a page. The WARC keeps the fetched
// response and, for a rendered page, the DOM as a `conversion` record.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/hash.h"
#include "crawl/crawler_impl.h"
#include "robots/robots_cache.h"
#include "text/simhash.h"
#include "url/url.h"

namespace topicrawl {
namespace {

RenderOptions MakeRenderOptions(const CrawlConfig& c) {
  RenderOptions o;
  o.workers = c.render_workers;
  o.tabs_per_worker = c.render_tabs;
  o.page_timeout_s = c.render_timeout_s;
  o.max_browser_mb = c.render_browser_mb;
  o.pages_per_browser = c.render_pages_per_browser;
  o.fetch = MakeFetcherOptions(c);  // subresources obey the crawl's fetch limits
  o.respect_robots = c.respect_robots;
  o.robots_agent = c.robots_agent;
  o.host_delay_s = c.delay_s;
  // auto: a few samples on most webs, started when the first is due, one
  // browser at a time, and in the idle scheduling class while they are
  // only samples (TendRender): Chromium's many processes together
  // would otherwise outweigh the crawl's parse threads even niced.
  o.lazy_start = c.render == "auto";
  o.browser_idle = o.lazy_start;
  if (o.lazy_start) o.browser_nice = 5;
  return o;
}

std::vector<std::string> LinkUrls(const ParsedPage& page) {
  std::vector<std::string> out;
  out.reserve(page.links.size());
  for (const Outlink& l : page.links) {
    if (!l.url.empty()) out.push_back(l.url);
  }
  return out;
}

std::string Joined(const std::string& a, const std::string& b) {
  return a.empty() ? b : a + "; " + b;
}

size_t Words(const std::string& text) {
  size_t n = 0;
  bool in_word = false;
  for (unsigned char ch : text) {
    const bool space = ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r';
    if (!space && !in_word) ++n;
    in_word = !space;
  }
  return n;
}

// Pages held for their host's decision, in all: beyond, a page is parsed
// statically (a bound on the memory of held bodies and parses).
constexpr size_t kMaxHeldPages = 2000;

// auto: a page with at least this many links in its static parse has its
// navigation in the HTML: as a sample it goes on statically while its
// render decides, and it is never held.
constexpr size_t kContentLinks = ShellEvidence::kContentLinks;

// `html` and its static parse.
ShellEvidence EvidenceOf(std::string_view html, const ParsedPage& page) {
  return ReadShellEvidence(html,
                           StaticCounts{Words(page.text), page.links.size(), page.text.size()});
}

bool ThinOnly(const ShellEvidence& e) { return e.Thin() && !e.Strong(); }

// auto: the time cap of a sample whose page went on statically. It compares
// what the page's scripts built with the static parse; a page that keeps busy (timers, animation, late
// requests) has built its links by then and would only burn CPU.
constexpr double kSampleTimeoutS = 4;
// auto: a host whose sample is not rendered after this long holds no more
// pages, and samples with none finished for this long run at normal
// priority (TendRender).
constexpr auto kSamplePatience = std::chrono::seconds(5);

}  // namespace

Status Crawler::Impl::SetupRender() {
  render_mode_ = ParseRenderMode(config_.render).value_or(RenderMode::kNever);
  if (render_mode_ == RenderMode::kNever) return Status::Ok();
  auto pool = RenderPool::Start(MakeRenderOptions(config_));
  if (!pool.ok()) return pool.status();
  render_ = std::move(pool).value();
  if (render_mode_ == RenderMode::kAuto) {
    RenderDeciderOptions d;
    d.samples = config_.render_samples;
    d.max_share = config_.render_max_share;
    decider_ = std::make_unique<RenderDecider>(d);
  }
  return Status::Ok();
}

bool Crawler::Impl::MaybeRender(ProcessedPage* p) {
  if (!render_ || !p->parse_error.empty()) return false;
  const FetchResult& f = p->fetch;
  const std::string& url = f.final_url.empty() ? f.task.url : f.final_url;
  RenderDecider::Action action = RenderDecider::Action::kRender;
  if (decider_) {
    const std::string host = RobotsHostKey(url);
    std::lock_guard<std::mutex> lock(held_mu_);  // a decision releases held_ under it
    action = decider_->Consider(host, EvidenceOf(p->decoded.utf8, p->page));
    // Only a shell waits for its host's decision (kContentLinks).
    if (action == RenderDecider::Action::kHold && render_held_.load() < kMaxHeldPages &&
        p->page.links.size() < kContentLinks) {
      held_[host].push_back(std::make_shared<ProcessedPage>(std::move(*p)));
      ++render_held_;
      ++render_held_total_;
      return true;
    }
    if (action == RenderDecider::Action::kStatic || action == RenderDecider::Action::kHold) {
      return false;
    }
  }
  // A sample whose static parse already has many links goes on with it at
  // once (a shell has few or none); its render only decides the host.
  if (action == RenderDecider::Action::kSample && p->page.links.size() >= kContentLinks) {
    SubmitSample(*p, nullptr);
    return false;
  }
  SubmitRender(std::make_shared<ProcessedPage>(std::move(*p)), action);
  return true;
}

RenderJob Crawler::Impl::MakeRenderJob(const ProcessedPage& page) const {
  const FetchResult& f = page.fetch;
  RenderJob job;
  job.url = f.final_url.empty() ? f.task.url : f.final_url;
  job.http_code = f.http_code;
  job.response_head = f.response_head;
  job.content_type = f.content_type;
  job.body = f.body;
  return job;
}

void Crawler::Impl::SubmitRender(std::shared_ptr<ProcessedPage> page,
                                 RenderDecider::Action action) {
  if (action == RenderDecider::Action::kSample) {
    SubmitSample(*page, page);
    return;
  }
  render_->Submit(MakeRenderJob(*page), [this, page, action](RenderResult r) {
    pool_->Submit([this, page, action, r = std::move(r)]() mutable {
      FinishRender(std::move(*page), action, std::move(r));
    });
  });
}

void Crawler::Impl::SubmitSample(const ProcessedPage& p, std::shared_ptr<ProcessedPage> waiting) {
  RenderJob job = MakeRenderJob(p);
  job.optional = true;
  // A shell's render is its only content: the full cap. A page that went
  // on needs only enough for the comparison.
  if (!waiting) job.timeout_s = std::min(config_.render_timeout_s, kSampleTimeoutS);
  auto sample = std::make_shared<PendingSample>();
  sample->url = job.url;
  sample->host = RobotsHostKey(job.url);
  sample->submitted = clock_->Now();
  sample->page_waits = waiting != nullptr;
  sample->thin_only = ThinOnly(EvidenceOf(p.decoded.utf8, p.page));
  if (!waiting) {
    sample->static_links = LinkUrls(p.page);
    sample->static_words = Words(p.page.text);
  }
  if (sample->page_waits && render_sampling_++ == 0) sample_progress_ = clock_->Now();
  {
    std::lock_guard<std::mutex> lock(held_mu_);
    pending_samples_.push_back(sample);
  }
  render_->Submit(std::move(job), [this, waiting, sample](RenderResult r) {
    pool_->Submit([this, waiting, sample, r = std::move(r)]() mutable {
      {
        std::lock_guard<std::mutex> lock(held_mu_);
        std::erase(pending_samples_, sample);
      }
      if (!waiting) {
        DecideFromSample(*sample, std::move(r));
        return;
      }
      sample_progress_ = clock_->Now();
      --render_sampling_;
      FinishRender(std::move(*waiting), RenderDecider::Action::kSample, std::move(r));
    });
  });
}

// A sample whose page went on with its static parse: the render only
// decides the host (the decision's event is stored by TendRender).
void Crawler::Impl::DecideFromSample(const PendingSample& sample, RenderResult r) {
  std::string event;
  bool failed = !r.ok;
  if (!failed) {
    try {
      const bool moved = ResolveLink("", r.location).has_value() &&
                         RobotsHostKey(r.location) == sample.host;
      ParsedPage rendered = ParseHtml(r.html, moved ? r.location : sample.url, parse_options_);
      RenderSample s{sample.static_links, LinkUrls(rendered), sample.static_words,
                     Words(rendered.text), sample.thin_only};
      if (r.timed_out && !decider_->ShowsGain(s)) {
        failed = true;  // at its cap maybe before its scripts ran: no evidence
      } else {
        event = decider_->AddSample(sample.host, s);
      }
    } catch (const std::exception&) {
      failed = true;
    }
  }
  if (failed) decider_->RenderFailed(sample.host, true);
  if (!event.empty()) {
    std::lock_guard<std::mutex> lock(held_mu_);
    late_render_events_.push_back(std::move(event));
  }
  ReleaseHeld(sample.host);
}

void Crawler::Impl::ReleaseHeld(const std::string& host) {
  std::vector<std::pair<std::shared_ptr<ProcessedPage>, RenderDecider::Action>> go;
  {
    std::lock_guard<std::mutex> lock(held_mu_);
    auto it = held_.find(host);
    if (it == held_.end()) return;
    std::vector<std::shared_ptr<ProcessedPage>> keep;
    for (auto& page : it->second) {
      const RenderDecider::Action a =
          decider_->Reconsider(host, EvidenceOf(page->decoded.utf8, page->page));
      if (a == RenderDecider::Action::kHold) {
        keep.push_back(std::move(page));
      } else {
        go.emplace_back(std::move(page), a);
      }
    }
    render_held_ -= go.size();
    if (keep.empty()) {
      held_.erase(it);
    } else {
      it->second.swap(keep);
    }
  }
  for (auto& [page, action] : go) {
    page->render_note = "held for its host's render decision";
    if (action == RenderDecider::Action::kStatic) {
      AssessAndQueue(std::move(*page));
    } else {
      SubmitRender(std::move(page), action);
    }
  }
}

void Crawler::Impl::FinishRender(ProcessedPage p, RenderDecider::Action action, RenderResult r) {
  const FetchResult& f = p.fetch;
  const std::string& url = f.final_url.empty() ? f.task.url : f.final_url;
  char note[200];
  std::snprintf(note, sizeof(note),
                "%s in %.2f s: %d requests (%d fetched, %d cached, %d blocked, %d refused)%s",
                action == RenderDecider::Action::kSample ? "rendered as a sample" : "rendered",
                r.seconds, r.requests, r.fetched, r.cached, r.blocked, r.refused,
                r.cut_short   ? ", cut short at the crawl's close"
                : r.timed_out ? ", time cap reached"
                              : "");
  const bool sample = action == RenderDecider::Action::kSample;
  const std::string host = RobotsHostKey(url);  // `url` goes with p
  if (!r.ok) {
    if (decider_) decider_->RenderFailed(host, sample);
    if (render_mode_ == RenderMode::kAlways) ParseFetched(&p);
    p.render_note = Joined(p.render_note, "render failed: " + r.error);
    AssessAndQueue(std::move(p));
    if (sample) ReleaseHeld(host);  // another page samples, or the host is static
    return;
  }
  // document.links resolve against location.href (pushState may have moved
  // it within the site); the parser takes the same base. A location of
  // another origin is Chromium's HSTS upgrade of an http URL (navigation
  // away is refused): the links resolve against the fetched URL.
  const bool moved = ResolveLink("", r.location).has_value() &&
                     RobotsHostKey(r.location) == RobotsHostKey(url);
  ParsedPage rendered;
  try {
    rendered = ParseHtml(r.html, moved ? r.location : url, parse_options_);
  } catch (const std::exception& e) {
    p.render_note = Joined(p.render_note, std::string("rendered DOM did not parse: ") + e.what());
    if (decider_) decider_->RenderFailed(host, sample);
    if (render_mode_ == RenderMode::kAlways) ParseFetched(&p);
    AssessAndQueue(std::move(p));
    if (sample) ReleaseHeld(host);
    return;
  }
  if (sample) {
    RenderSample s{LinkUrls(p.page), LinkUrls(rendered), Words(p.page.text),
                   Words(rendered.text), ThinOnly(EvidenceOf(p.decoded.utf8, p.page))};
    // A sample at its time cap may not have run its scripts yet (a starved
    // browser): it can show a gain, never the lack of one.
    if (r.timed_out && !decider_->ShowsGain(s)) {
      decider_->RenderFailed(host, true);
    } else {
      p.render_event = decider_->AddSample(host, s);
    }
  }
  if (p.decoded.charset.empty()) p.decoded = DecodeToUtf8(f.body, f.content_type);
  p.page = std::move(rendered);
  p.rendered_html = std::move(r.html);
  p.render_note = Joined(p.render_note, note);
  AssessAndQueue(std::move(p));
  if (sample) ReleaseHeld(host);
}

void Crawler::Impl::RecordRender() {
  if (!render_) return;
  render_->WaitIdle();
  const RenderPoolStats s = render_->Stats();
  char buf[512];
  std::snprintf(buf, sizeof(buf),
                "mode=%s rendered=%lld failed=%lld timed_out=%lld subrequests=%lld "
                "fetched=%lld cache_hits=%lld refused=%lld blocked=%lld browsers=%lld "
                "recycled=%lld crashed=%lld peak_browser_mb=%.0f",
                RenderModeName(render_mode_), static_cast<long long>(s.rendered),
                static_cast<long long>(s.failed), static_cast<long long>(s.timed_out),
                static_cast<long long>(s.subrequests), static_cast<long long>(s.fetched),
                static_cast<long long>(s.cache_hits), static_cast<long long>(s.refused),
                static_cast<long long>(s.blocked), static_cast<long long>(s.browser_starts),
                static_cast<long long>(s.browser_recycles),
                static_cast<long long>(s.browser_crashes),
                static_cast<double>(s.peak_browser_memory) / (1 << 20));
  std::string detail = buf;
  if (decider_) {
    detail += " pages=" + std::to_string(decider_->pages()) +
              " capped=" + std::to_string(decider_->capped()) +
              " shells=" + std::to_string(decider_->shells()) +
              " scripted_content=" + std::to_string(decider_->scripted_content()) +
              " held=" + std::to_string(render_held_total_.load());
  }
  if (config_.progress_interval_ms > 0) std::fprintf(stderr, "render: %s\n", detail.c_str());
  store_->AddEvent("render", detail);
}

void Crawler::Impl::StopRenderSampling() {
  if (!decider_) return;
  decider_->StopSampling();
  render_->CutShort();
}

void Crawler::Impl::TendRender() {
  if (!decider_) return;
  const TimePoint now = clock_->Now();
  const bool other_work = page_fetches_ + ActiveParsing() > 0;
  // A host whose sample has not rendered in time while the crawl had other
  // pages in hand holds no more pages: those held go on statically, and so
  // do its next ones until the sample decides. The sample page itself
  // waits for its render (on a script-built host its links exist only
  // there).
  std::vector<std::string> overdue, events;
  {
    std::lock_guard<std::mutex> lock(held_mu_);
    for (const auto& s : pending_samples_) {
      if (other_work && !s->overdue && now - s->submitted > kSamplePatience) {
        s->overdue = true;
        overdue.push_back(s->host);
      }
    }
    events.swap(late_render_events_);
  }
  for (std::string& e : events) {
    writer_->Post([detail = std::move(e)](CrawlStore* store) {
      store->AddEvent("render_decision", detail);
    });
  }
  for (const std::string& host : overdue) {
    decider_->SampleOverdue(host);
    ReleaseHeld(host);
  }
  // Normal priority while a shell page waits for its sample (on a busy
  // machine the idle class gets no CPU: the sample would reach its cap
  // before the page's scripts ran); samples whose pages went on never
  // need it.
  render_->SetBackground(render_sampling_ == 0 && !decider_->AnyHostRenders());
}

void Crawler::Impl::CloseRender() { render_.reset(); }

}  // namespace topicrawl
