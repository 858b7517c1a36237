#include "strategies/naive_bayes/url_prefix_labeler.h"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <utility>

namespace topicrawl {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Splits "[scheme://]authority[/rest]" into a lower-case host without port
// or userinfo and the rest (path + query, fragment dropped).
void SplitHostPath(std::string_view s, std::string* host, std::string* path) {
  size_t scheme = s.find("://");
  if (scheme != std::string_view::npos) s.remove_prefix(scheme + 3);
  size_t hash = s.find('#');
  if (hash != std::string_view::npos) s = s.substr(0, hash);
  size_t slash = s.find_first_of("/?");
  std::string_view authority = s.substr(0, slash);
  *path = slash == std::string_view::npos ? "" : std::string(s.substr(slash));
  size_t at = authority.rfind('@');
  if (at != std::string_view::npos) authority.remove_prefix(at + 1);
  if (!authority.empty() && authority.front() == '[') {  // IPv6 literal
    size_t close = authority.find(']');
    authority = authority.substr(0, close == std::string_view::npos ? authority.size() : close + 1);
  } else {
    size_t colon = authority.find(':');
    if (colon != std::string_view::npos) authority = authority.substr(0, colon);
  }
  *host = Lower(authority);
  while (!host->empty() && host->back() == '.') host->pop_back();
}

}  // namespace

StatusOr<UrlPrefixLabeler::Prefix> UrlPrefixLabeler::ParsePrefix(
    std::string_view text, PrefixLabel label) {
  Prefix p;
  p.text = std::string(text);
  p.label = label;
  SplitHostPath(text, &p.host, &p.path);
  if (p.host.empty()) {
    return Status::Error("URL prefix \"" + p.text + "\" has no host");
  }
  if (p.path == "/") p.path.clear();  // "host/" means the whole host
  return p;
}

StatusOr<UrlPrefixLabeler> UrlPrefixLabeler::Create(
    const std::vector<std::string>& on_topic,
    const std::vector<std::string>& off_topic) {
  if (on_topic.empty() && off_topic.empty()) {
    return Status::Error(
        "no URL prefixes: set on_topic_prefixes / off_topic_prefixes in the topic file");
  }
  UrlPrefixLabeler labeler;
  for (const auto& [list, label] :
       {std::pair{&on_topic, PrefixLabel::kPositive},
        std::pair{&off_topic, PrefixLabel::kNegative}}) {
    for (const auto& text : *list) {
      auto p = ParsePrefix(text, label);
      if (!p.ok()) return p.status();
      for (const auto& q : labeler.prefixes_) {
        if (q.host == p->host && q.path == p->path && q.label != p->label) {
          return Status::Error("URL prefix \"" + text +
                               "\" is both on-topic and off-topic");
        }
      }
      labeler.prefixes_.push_back(std::move(p).value());
    }
  }
  return labeler;
}

PrefixLabel UrlPrefixLabeler::Label(std::string_view url) const {
  if (url.find("://") == std::string_view::npos) return PrefixLabel::kUnlabelled;
  std::string host, path;
  SplitHostPath(url, &host, &path);
  if (host.empty()) return PrefixLabel::kUnlabelled;
  const std::string_view url_path = path.empty() ? std::string_view("/") : std::string_view(path);
  // Specificity: (exact host, path length, host length), larger wins.
  PrefixLabel best = PrefixLabel::kUnlabelled;
  std::tuple<int, size_t, size_t> best_rank{-1, 0, 0};
  for (const auto& p : prefixes_) {
    bool exact = host == p.host;
    bool sub = !exact && p.path.empty() && host.size() > p.host.size() &&
               host.compare(host.size() - p.host.size(), p.host.size(), p.host) == 0 &&
               host[host.size() - p.host.size() - 1] == '.';
    if (!exact && !sub) continue;
    if (!p.path.empty() && url_path.substr(0, p.path.size()) != p.path) continue;
    std::tuple<int, size_t, size_t> rank{exact ? 1 : 0, p.path.size(), p.host.size()};
    if (rank > best_rank) {
      best_rank = rank;
      best = p.label;
    }
  }
  return best;
}

}  // namespace topicrawl
