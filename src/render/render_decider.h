// RenderDecider: --render auto. Decides per host whether its pages are
// rendered, from a small sample of them rendered and parsed both ways.
//
//   1. A page is a candidate only when its static HTML looks like an
//      application shell (ShellEvidence::Shell, render/shell_evidence.h:
//      an empty app root, a data island, a noscript notice, an inline
//      fetch that writes the DOM, or a thin page with scripts). Any other
//      page is parsed statically and costs no render, on any host not
//      decided "render": a web of ordinary sites starts no browser.
//   2. A host starts undecided. Its first `samples` candidates are rendered
//      as samples; for each, the static parse and the rendered parse are
//      compared: link gain = share of the rendered page's links the static
//      parse lacks, text gain = share of the rendered text's words the
//      static text lacks (1 - static/rendered, floored at 0).
//   3. With all samples in: the host is rendered when the mean link gain
//      >= min_link_gain or the mean text gain >= min_text_gain; otherwise
//      never again. Early: when every sample in so far came from a page
//      with only the weak (thin page) evidence and showed no gain (below
//      both thresholds), the host is static at once. The decision and its
//      evidence (the samples' shell evidence, per-sample figures) are kept
//      for explain and the dashboard (Decisions()).
//   4. While a host's samples render (all `samples` started, no decision
//      yet), its other candidates are held (kHold) when `hold_undecided`:
//      the caller keeps them and asks again with Reconsider once the
//      samples are in (AddSample decided, or RenderFailed freed a sample
//      slot), so a host decided "render" has none of its shell pages
//      parsed only statically.
//   5. A crawl-wide cap: a render (sample or not) is only started while
//      rendered pages stay within max_share of the pages processed (after a
//      first `free_renders`); over the cap a page is parsed statically and
//      counted in capped().
//   6. At most `max_pending_samples` samples render at once (all hosts):
//      beyond, a page that would sample is parsed statically and its host
//      stays undecided (a later page samples). Samples wait outside the
//      crawl's parse backlog, so this bounds the pages they keep.
//   7. SampleOverdue: the host's samples take too long (no spare CPU); its
//      pages are static rather than held until the decision.
//   8. StopSampling (the crawl's close): no further samples or holds; an
//      undecided host's pages are static, and samples that end unfinished
//      count as no failure of their host.
// Thread-safe (the parse threads ask it).
#ifndef TOPICRAWL_RENDER_RENDER_DECIDER_H_
#define TOPICRAWL_RENDER_RENDER_DECIDER_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "render/shell_evidence.h"

namespace topicrawl {

struct RenderDeciderOptions {
  int samples = 2;
  double min_link_gain = 0.2;
  double min_text_gain = 0.3;
  double max_share = 0.1;
  int64_t free_renders = 20;
  int max_pending_samples = 32;
  bool hold_undecided = true;
};

// One page parsed both ways.
struct RenderSample {
  std::vector<std::string> static_links, rendered_links;  // canonical URLs
  size_t static_words = 0, rendered_words = 0;
  bool thin_only = false;  // the page's shell evidence was the weak form alone
};
double LinkGain(const RenderSample& s);
double TextGain(const RenderSample& s);

struct HostRenderDecision {
  std::string host;
  enum class State { kUndecided, kRender, kStatic } state = State::kUndecided;
  int samples_started = 0;
  int failures = 0;  // failed sample renders; `samples` of them: static
  bool overdue = false;  // RenderDecider::SampleOverdue
  std::vector<std::pair<double, double>> gains;  // (link, text) per sample
  int thin_no_gain = 0;  // samples of thin-only pages that showed no gain
  std::string shell;     // the first sample's ShellEvidence::Describe()
  std::string evidence;  // e.g. "2 samples: link gain 0.85, text gain 0.90 -> render"
};
const char* RenderStateName(HostRenderDecision::State state);

class RenderDecider {
 public:
  explicit RenderDecider(RenderDeciderOptions options) : options_(options) {}

  enum class Action { kStatic, kRender, kSample, kHold };
  // For one statically parsed page of `host` (call once per page).
  Action Consider(const std::string& host, const ShellEvidence& page);
  // Again for a page Consider (or Reconsider) held, after a sample of its
  // host completed: not counted as another page.
  Action Reconsider(const std::string& host, const ShellEvidence& page);
  // The comparison of a kSample page; returns the decision's evidence when
  // this sample decided the host, else "".
  std::string AddSample(const std::string& host, const RenderSample& sample);
  // A kSample or kRender page whose render failed (it is not a sample).
  void RenderFailed(const std::string& host, bool was_sample);
  void StopSampling();
  // A sample of `host` is overdue (no spare CPU): the host's pages are not
  // held any more until its decision (they are static meanwhile).
  void SampleOverdue(const std::string& host);
  // Some host was decided "render".
  bool AnyHostRenders() const;
  // The sample alone would decide "render" (a gain over a threshold).
  bool ShowsGain(const RenderSample& sample) const;
  int pending_samples() const;

  std::vector<HostRenderDecision> Decisions() const;
  int64_t pages() const;
  int64_t rendered() const;
  int64_t capped() const;
  // Scripted pages of hosts not decided "render", by their evidence: read
  // as shells (candidates) or as content (never sampled).
  int64_t shells() const;
  int64_t scripted_content() const;

 private:
  bool UnderCap() const;  // mu_ held
  Action Decide(const std::string& host, const ShellEvidence& page, bool count);  // mu_ held
  std::string DecideHost(HostRenderDecision* h);  // mu_ held; the evidence
  RenderDeciderOptions options_;
  mutable std::mutex mu_;
  std::map<std::string, HostRenderDecision> hosts_;
  int64_t pages_ = 0, rendered_ = 0, capped_ = 0, shells_ = 0, scripted_content_ = 0;
  int pending_samples_ = 0;
  bool sampling_stopped_ = false;
  bool any_render_ = false;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_RENDER_RENDER_DECIDER_H_
