#include "crawl/url_trap.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace topicrawl {
namespace {

bool LooksLikeId(std::string_view s) {
  if (s.size() < 8) return false;
  bool alpha = false, digit = false;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (std::isalpha(u)) alpha = true;
    else if (std::isdigit(u)) digit = true;
    else if (c != '-' && c != '_') return false;
  }
  return alpha && digit;
}

// Appends `piece` with digits -> '#' (one per run), or '*' for an id-like
// piece (appends in place: no temporary strings per segment).
void AppendShape(std::string_view piece, std::string* out) {
  if (LooksLikeId(piece)) {
    *out += '*';
    return;
  }
  for (size_t i = 0; i < piece.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(piece[i]))) {
      *out += '#';
      while (i + 1 < piece.size() && std::isdigit(static_cast<unsigned char>(piece[i + 1]))) ++i;
    } else {
      *out += piece[i];
    }
  }
}

std::string Shape(std::string_view piece) {
  std::string out;
  AppendShape(piece, &out);
  return out;
}

struct Split {
  std::string_view host, path, query;
};

Split SplitUrl(std::string_view url) {
  Split s;
  size_t scheme = url.find("://");
  std::string_view rest = scheme == std::string_view::npos ? url : url.substr(scheme + 3);
  size_t hash = rest.find('#');
  if (hash != std::string_view::npos) rest = rest.substr(0, hash);
  size_t slash = rest.find_first_of("/?");
  s.host = rest.substr(0, slash);
  if (slash == std::string_view::npos) return s;
  rest = rest.substr(slash);
  size_t q = rest.find('?');
  s.path = rest.substr(0, q);
  if (q != std::string_view::npos) s.query = rest.substr(q + 1);
  return s;
}

std::vector<std::string_view> Segments(std::string_view path) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string UrlPattern(std::string_view url) {
  Split s = SplitUrl(url);
  std::string out(s.host);
  size_t i = 0;
  while (i < s.path.size()) {
    size_t j = s.path.find('/', i + 1);
    if (j == std::string_view::npos) j = s.path.size();
    std::string_view seg = s.path.substr(i, j - i);  // with its leading '/'
    size_t semi = seg.find(';');
    if (semi != std::string_view::npos) seg = seg.substr(0, semi);  // ;jsessionid=...
    if (!seg.empty()) {
      out += seg[0];
      AppendShape(seg.substr(1), &out);
    }
    if (semi != std::string_view::npos) out += ";*";
    i = j;
  }
  if (!s.query.empty()) {
    std::vector<std::string> keys;
    size_t k = 0;
    while (k <= s.query.size()) {
      size_t amp = s.query.find('&', k);
      if (amp == std::string_view::npos) amp = s.query.size();
      std::string_view param = s.query.substr(k, amp - k);
      if (!param.empty()) keys.push_back(Shape(param.substr(0, param.find('='))));
      k = amp + 1;
    }
    std::sort(keys.begin(), keys.end());
    out += '?';
    for (size_t n = 0; n < keys.size(); ++n) out += (n ? "&" : "") + keys[n];
  }
  return out;
}

int CountQueryParams(std::string_view url) {
  std::string_view query = SplitUrl(url).query;
  if (query.empty()) return 0;
  int n = 0;
  size_t k = 0;
  while (k <= query.size()) {
    size_t amp = query.find('&', k);
    if (amp == std::string_view::npos) amp = query.size();
    if (amp > k) ++n;
    k = amp + 1;
  }
  return n;
}

// The first segment repeated more than `max` times, or empty. Short paths
// (all real ones) compare pairwise without allocating; long ones count in a
// map.
std::string_view RepeatedSegment(const std::vector<std::string_view>& segs, int max) {
  if (segs.size() <= 64) {
    for (size_t i = 0; i < segs.size(); ++i) {
      int n = 1;  // occurrences of segs[i] in segs[0..i]
      for (size_t j = 0; j < i; ++j) n += segs[j] == segs[i];
      if (n > max) return segs[i];
    }
    return {};
  }
  std::map<std::string_view, int> count;
  for (std::string_view seg : segs) {
    if (++count[seg] > max) return seg;
  }
  return {};
}

std::string UrlTrapGuard::Check(std::string_view url) const {
  if (options_.max_url_params >= 0) {
    int params = CountQueryParams(url);
    if (params > options_.max_url_params) {
      return "url trap: " + std::to_string(params) + " query parameters (max_url_params " +
             std::to_string(options_.max_url_params) + ")";
    }
  }
  std::vector<std::string_view> segs = Segments(SplitUrl(url).path);
  if (options_.max_path_segments >= 0 &&
      segs.size() > static_cast<size_t>(options_.max_path_segments)) {
    return "url trap: " + std::to_string(segs.size()) + " path segments (max " +
           std::to_string(options_.max_path_segments) + ")";
  }
  if (options_.max_segment_repeats >= 0) {
    std::string_view seg = RepeatedSegment(segs, options_.max_segment_repeats);
    if (!seg.empty()) {
      return "url trap: path segment \"" + std::string(seg) + "\" repeated more than " +
             std::to_string(options_.max_segment_repeats) + " times";
    }
  }
  return {};
}

bool UrlTrapGuard::Admit(std::string_view url) {
  if (options_.max_urls_per_pattern == 0) return true;
  std::string pattern = UrlPattern(url);
  auto [it, added] = per_pattern_.try_emplace(pattern, 0);
  if (it->second >= options_.max_urls_per_pattern) {
    ++not_queued_[std::move(pattern)];
    ++not_queued_total_;
    return false;
  }
  if (++it->second == options_.max_urls_per_pattern) newly_spent_.push_back(std::move(pattern));
  return true;
}

void UrlTrapGuard::Restore(std::string_view url) {
  if (options_.max_urls_per_pattern == 0) return;
  std::string pattern = UrlPattern(url);
  if (++per_pattern_[pattern] == options_.max_urls_per_pattern) {
    newly_spent_.push_back(std::move(pattern));
  }
}

std::vector<std::pair<std::string, uint64_t>> UrlTrapGuard::NotQueuedByPattern() const {
  std::vector<std::pair<std::string, uint64_t>> out(not_queued_.begin(), not_queued_.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  return out;
}

std::vector<std::string> UrlTrapGuard::TakeNewlySpent() {
  std::vector<std::string> out;
  out.swap(newly_spent_);
  return out;
}

}  // namespace topicrawl
