#include "eval/labels.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "core/tsv.h"
#include "url/path_encoding.h"

namespace topicrawl::eval {
namespace {

std::string CanonicalPath(std::string_view path) {
  // The corpus rule, shared with web/'s site index (url/path_encoding.h).
  std::string p = PercentEncodePath(PercentDecode(path));
  if (p.empty()) p = "/";
  if (p.back() == '/') p += "index.html";
  return p;
}

// Host without userinfo and port, lower-cased. IPv6 literals keep brackets.
std::string CanonicalHost(std::string_view authority) {
  size_t at = authority.rfind('@');
  if (at != std::string_view::npos) authority.remove_prefix(at + 1);
  size_t end = authority.size();
  if (!authority.empty() && authority[0] == '[') {
    size_t close = authority.find(']');
    if (close != std::string_view::npos) end = close + 1;
  } else {
    size_t colon = authority.find(':');
    if (colon != std::string_view::npos) end = colon;
  }
  std::string host(authority.substr(0, end));
  std::transform(host.begin(), host.end(), host.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return host;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s;
}

// Calls fn(line_number, line) for every line of `text` (without '\n').
template <typename Fn>
void ForEachLine(std::string_view text, Fn fn) {
  size_t line_no = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    fn(++line_no, text.substr(start, nl - start));
    start = nl + 1;
  }
}

}  // namespace

std::string CanonicalizeLabelUrl(std::string_view url) {
  url = Trim(url);
  // The fragment and the query go first: they may contain '/' or "://".
  url = url.substr(0, url.find('#'));
  url = url.substr(0, url.find('?'));
  size_t sep = url.find("://");
  if (sep == std::string_view::npos) return CanonicalPath(url);
  std::string scheme(url.substr(0, sep));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (scheme == "https") scheme = "http";
  std::string_view rest = url.substr(sep + 3);
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  std::string_view path =
      slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  return scheme + "://" + CanonicalHost(authority) + CanonicalPath(path);
}

Status ReadWholeFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot open " + path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return Status::Error("cannot read " + path);
  *out = std::move(buffer).str();
  return Status::Ok();
}

StatusOr<LabelSet> LabelSet::Parse(std::string_view text) {
  LabelSet set;
  ForEachLine(text, [&set](size_t line_no, std::string_view line) {
    line = Trim(line);
    if (line.empty()) return;
    std::vector<std::string_view> f = SplitTabs(line);
    if (line_no == 1 && f[0] == "url") return;  // header row
    if (f.size() < 2 || f.size() > 3) {
      set.issues_.push_back({line_no, "expected url<TAB>relevant<TAB>reason"});
      return;
    }
    std::string_view flag = Trim(f[1]);
    if (flag != "0" && flag != "1") {
      set.issues_.push_back({line_no, "relevant must be 0 or 1"});
      return;
    }
    std::string canonical = CanonicalizeLabelUrl(f[0]);
    bool relevant = flag == "1";
    if (!set.labels_.emplace(canonical, relevant).second) {
      set.issues_.push_back({line_no, "duplicate url " + canonical});
      return;
    }
    if (relevant) set.relevant_.insert(canonical);
  });
  if (set.labels_.empty()) {
    return Status::Error("no label rows (url<TAB>relevant<TAB>reason) found");
  }
  return set;
}

StatusOr<LabelSet> LabelSet::Load(const std::string& path) {
  std::string text;
  Status s = ReadWholeFile(path, &text);
  if (!s.ok()) return s;
  StatusOr<LabelSet> set = Parse(text);
  if (!set.ok()) return Status::Error(path + ": " + set.status().message());
  return set;
}

std::optional<bool> LabelSet::Lookup(std::string_view url) const {
  return LookupCanonical(CanonicalizeLabelUrl(url));
}

std::optional<bool> LabelSet::LookupCanonical(const std::string& canonical) const {
  auto it = labels_.find(canonical);
  if (it == labels_.end()) return std::nullopt;
  return it->second;
}

UrlSet UrlSet::Parse(std::string_view text) {
  UrlSet set;
  ForEachLine(text, [&set](size_t, std::string_view line) {
    line = Trim(line.substr(0, line.find('\t')));
    if (line.empty() || line[0] == '#' || line == "url") return;
    set.urls_.insert(CanonicalizeLabelUrl(line));
  });
  return set;
}

StatusOr<UrlSet> UrlSet::Load(const std::string& path) {
  std::string text;
  Status s = ReadWholeFile(path, &text);
  if (!s.ok()) return s;
  return Parse(text);
}

bool UrlSet::Contains(std::string_view url) const {
  return urls_.count(CanonicalizeLabelUrl(url)) > 0;
}

}  // namespace topicrawl::eval
