#include "crawl/progress_eta.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "crawl/crawler.h"
#include "fetch/http_headers.h"

namespace topicrawl {

void PageRate::Add(double t_s, int64_t pages) {
  samples_.emplace_back(t_s, pages);
  // Keep one sample at or before the window's start, so the rate always
  // spans the whole window once the crawl is that old.
  while (samples_.size() > 2 && samples_[1].first <= t_s - window_s_) samples_.pop_front();
}

std::optional<double> PageRate::Rate() const {
  if (samples_.size() < 2) return std::nullopt;
  const auto& [t0, p0] = samples_.front();
  const auto& [t1, p1] = samples_.back();
  if (t1 <= t0) return std::nullopt;
  return static_cast<double>(p1 - p0) / (t1 - t0);
}

std::optional<double> EtaSeconds(int64_t pages_ok, int64_t max_pages,
                                 std::optional<double> rate) {
  if (max_pages <= 0) return std::nullopt;
  if (pages_ok >= max_pages) return 0.0;
  if (!rate || !(*rate > 0)) return std::nullopt;
  return static_cast<double>(max_pages - pages_ok) / *rate;
}

std::string FormatDuration(double seconds) {
  const int64_t s = static_cast<int64_t>(std::llround(std::max(0.0, seconds)));
  char buf[32];
  if (s < 60) {
    std::snprintf(buf, sizeof(buf), "%llds", static_cast<long long>(s));
  } else if (s < 3600) {
    std::snprintf(buf, sizeof(buf), "%lldm%02llds", static_cast<long long>(s / 60),
                  static_cast<long long>(s % 60));
  } else if (s < 86400) {
    std::snprintf(buf, sizeof(buf), "%lldh%02lldm", static_cast<long long>(s / 3600),
                  static_cast<long long>(s % 3600 / 60));
  } else {
    std::snprintf(buf, sizeof(buf), "%lldd%02lldh", static_cast<long long>(s / 86400),
                  static_cast<long long>(s % 86400 / 3600));
  }
  return buf;
}

std::string ContentTypeKey(std::string_view content_type) {
  std::string type = MediaType(content_type);
  return type.empty() ? "unknown" : type;
}

std::string FormatContentTypes(const ContentTypeCounts& counts, size_t top) {
  std::vector<std::pair<std::string, int64_t>> v(counts.begin(), counts.end());
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::string out;
  for (size_t i = 0; i < v.size() && i < top; ++i) {
    const size_t slash = v[i].first.find('/');
    const std::string name =
        slash == std::string::npos ? v[i].first : v[i].first.substr(slash + 1);
    if (!out.empty()) out += ", ";
    out += name + " " + std::to_string(v[i].second);
  }
  return out;
}

std::string EtaText(const CrawlStats& stats) {
  if (stats.max_pages <= 0 || stats.eta_s < 0) return "";
  return " | ETA " + FormatDuration(stats.eta_s) + " to " + std::to_string(stats.max_pages);
}

std::string ContentTypesText(const CrawlStats& stats) {
  const std::string types = FormatContentTypes(stats.content_types);
  return types.empty() ? "" : " | " + types;
}

}  // namespace topicrawl
