#include "render/render_decider.h"

#include <cstdio>
#include <unordered_set>

namespace topicrawl {

double LinkGain(const RenderSample& s) {
  std::unordered_set<std::string_view> have(s.static_links.begin(), s.static_links.end());
  std::unordered_set<std::string_view> rendered(s.rendered_links.begin(), s.rendered_links.end());
  if (rendered.empty()) return 0;
  size_t fresh = 0;
  for (std::string_view l : rendered) fresh += have.count(l) == 0;
  return static_cast<double>(fresh) / static_cast<double>(rendered.size());
}

double TextGain(const RenderSample& s) {
  if (s.rendered_words == 0 || s.rendered_words <= s.static_words) return 0;
  return 1.0 - static_cast<double>(s.static_words) / static_cast<double>(s.rendered_words);
}

const char* RenderStateName(HostRenderDecision::State state) {
  switch (state) {
    case HostRenderDecision::State::kUndecided: return "undecided";
    case HostRenderDecision::State::kRender: return "render";
    case HostRenderDecision::State::kStatic: return "static";
  }
  return "undecided";
}

bool RenderDecider::UnderCap() const {
  return rendered_ < options_.free_renders ||
         static_cast<double>(rendered_ + 1) <= options_.max_share * static_cast<double>(pages_);
}

RenderDecider::Action RenderDecider::Consider(const std::string& host,
                                              const ShellEvidence& page) {
  std::lock_guard<std::mutex> lock(mu_);
  ++pages_;
  return Decide(host, page, true);
}

RenderDecider::Action RenderDecider::Reconsider(const std::string& host,
                                                const ShellEvidence& page) {
  std::lock_guard<std::mutex> lock(mu_);
  return Decide(host, page, false);
}

RenderDecider::Action RenderDecider::Decide(const std::string& host, const ShellEvidence& page,
                                            bool count) {
  HostRenderDecision& h = hosts_[host];
  if (h.host.empty()) h.host = host;
  Action want = Action::kStatic;
  if (h.state == HostRenderDecision::State::kRender) {
    want = Action::kRender;
  } else if (page.scripted && count) {
    ++(page.Shell() ? shells_ : scripted_content_);
  }
  if (h.state == HostRenderDecision::State::kUndecided && !sampling_stopped_ && page.Shell()) {
    if (h.samples_started < options_.samples) {
      if (pending_samples_ >= options_.max_pending_samples) return Action::kStatic;
      want = Action::kSample;
    } else if (options_.hold_undecided && !h.overdue) {
      return Action::kHold;
    }
  }
  if (want == Action::kStatic) return want;
  if (!UnderCap()) {
    ++capped_;
    return Action::kStatic;
  }
  ++rendered_;
  if (want == Action::kSample) {
    ++h.samples_started;
    ++pending_samples_;
    if (h.shell.empty()) h.shell = page.Describe();
  }
  return want;
}

std::string RenderDecider::AddSample(const std::string& host, const RenderSample& sample) {
  std::lock_guard<std::mutex> lock(mu_);
  HostRenderDecision& h = hosts_[host];
  if (h.host.empty()) h.host = host;
  if (pending_samples_ > 0) --pending_samples_;
  h.gains.emplace_back(LinkGain(sample), TextGain(sample));
  const bool gain = h.gains.back().first >= options_.min_link_gain ||
                    h.gains.back().second >= options_.min_text_gain;
  if (sample.thin_only && !gain) ++h.thin_no_gain;
  if (h.state != HostRenderDecision::State::kUndecided) return "";
  // Every sample so far a thin page without gain: the weak evidence did
  // not hold, no need to render more of the host's pages to know it.
  const bool early = h.thin_no_gain == static_cast<int>(h.gains.size());
  if (!early && static_cast<int>(h.gains.size()) < options_.samples) return "";
  return host + ": " + DecideHost(&h);
}

std::string RenderDecider::DecideHost(HostRenderDecision* h) {
  double link = 0, text = 0;
  for (const auto& [l, t] : h->gains) {
    link += l;
    text += t;
  }
  link /= static_cast<double>(h->gains.size());
  text /= static_cast<double>(h->gains.size());
  const bool render = link >= options_.min_link_gain || text >= options_.min_text_gain;
  h->state = render ? HostRenderDecision::State::kRender : HostRenderDecision::State::kStatic;
  any_render_ = any_render_ || render;
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "%zu sample%s: mean link gain %.2f (render at >= %.2f), mean text gain %.2f "
                "(render at >= %.2f)%s -> %s",
                h->gains.size(), h->gains.size() == 1 ? "" : "s", link, options_.min_link_gain,
                text, options_.min_text_gain,
                h->thin_no_gain == static_cast<int>(h->gains.size()) &&
                        static_cast<int>(h->gains.size()) < options_.samples
                    ? ", a thin page without gain"
                    : "",
                RenderStateName(h->state));
  h->evidence = buf;
  if (!h->shell.empty()) h->evidence += "; sampled as a shell: " + h->shell;
  return h->evidence;
}

void RenderDecider::RenderFailed(const std::string& host, bool was_sample) {
  std::lock_guard<std::mutex> lock(mu_);
  --rendered_;
  if (!was_sample) return;
  if (pending_samples_ > 0) --pending_samples_;
  if (sampling_stopped_) return;  // cut short at the close: not the host's failure
  HostRenderDecision& h = hosts_[host];
  if (h.samples_started > 0) --h.samples_started;  // another page samples instead
  if (++h.failures >= options_.samples && h.state == HostRenderDecision::State::kUndecided) {
    h.state = HostRenderDecision::State::kStatic;
    h.evidence = std::to_string(h.failures) + " sample renders failed -> static";
  }
}

void RenderDecider::SampleOverdue(const std::string& host) {
  std::lock_guard<std::mutex> lock(mu_);
  HostRenderDecision& h = hosts_[host];
  if (h.host.empty()) h.host = host;
  h.overdue = true;
}

void RenderDecider::StopSampling() {
  std::lock_guard<std::mutex> lock(mu_);
  sampling_stopped_ = true;
}

bool RenderDecider::ShowsGain(const RenderSample& sample) const {
  return LinkGain(sample) >= options_.min_link_gain || TextGain(sample) >= options_.min_text_gain;
}

bool RenderDecider::AnyHostRenders() const {
  std::lock_guard<std::mutex> lock(mu_);
  return any_render_;
}

int RenderDecider::pending_samples() const {
  std::lock_guard<std::mutex> lock(mu_);
  return pending_samples_;
}

std::vector<HostRenderDecision> RenderDecider::Decisions() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<HostRenderDecision> out;
  for (const auto& [host, h] : hosts_) {
    if (h.samples_started > 0 || h.state != HostRenderDecision::State::kUndecided) {
      out.push_back(h);
    }
  }
  return out;
}

int64_t RenderDecider::pages() const {
  std::lock_guard<std::mutex> lock(mu_);
  return pages_;
}
int64_t RenderDecider::rendered() const {
  std::lock_guard<std::mutex> lock(mu_);
  return rendered_;
}
int64_t RenderDecider::capped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return capped_;
}
int64_t RenderDecider::shells() const {
  std::lock_guard<std::mutex> lock(mu_);
  return shells_;
}
int64_t RenderDecider::scripted_content() const {
  std::lock_guard<std::mutex> lock(mu_);
  return scripted_content_;
}

}  // namespace topicrawl
