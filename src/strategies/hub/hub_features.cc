#include "strategies/hub/hub_features.h"

#include <algorithm>
#include <cctype>

#include "text/utf8_util.h"

namespace topicrawl::hub {
namespace {

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool ContainsNoCase(std::string_view hay, std::string_view needle) {
  if (needle.size() > hay.size()) return false;
  for (size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    size_t k = 0;
    while (k < needle.size() && Lower(hay[i + k]) == needle[k]) ++k;
    if (k == needle.size()) return true;
  }
  return false;
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != b[i]) return false;
  }
  return true;
}

bool EndsWithNoCase(std::string_view a, std::string_view suffix) {
  return a.size() >= suffix.size() && EqualsNoCase(a.substr(a.size() - suffix.size()), suffix);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// File name without the extension, and the extension (after the last '.').
void SplitFile(std::string_view file, std::string_view* stem, std::string_view* ext) {
  size_t dot = file.rfind('.');
  if (dot == std::string_view::npos || dot == 0) {
    *stem = file;
    *ext = {};
  } else {
    *stem = file.substr(0, dot);
    *ext = file.substr(dot + 1);
  }
}

int TwoDigits(std::string_view s, size_t i) { return (s[i] - '0') * 10 + (s[i + 1] - '0'); }

bool Separator(char c) { return c == '/' || c == '-' || c == '_' || c == '.'; }

// A date starting at s[i] (a year 19xx/20xx with no digit before it).
bool DateAt(std::string_view s, size_t i) {
  if (i + 4 > s.size()) return false;
  for (size_t k = 0; k < 4; ++k)
    if (!IsDigit(s[i + k])) return false;
  int year = TwoDigits(s, i) * 100 + TwoDigits(s, i + 2);
  if (year < 1990 || year > 2039) return false;
  size_t j = i + 4;
  auto month_at = [&](size_t p) {
    return p + 2 <= s.size() && IsDigit(s[p]) && IsDigit(s[p + 1]) && TwoDigits(s, p) >= 1 &&
           TwoDigits(s, p) <= 12;
  };
  auto bounded = [&](size_t p) { return p >= s.size() || !IsDigit(s[p]); };
  // Separated: 2021/10, 2021-10-11, 2021_10_11.
  if (j < s.size() && Separator(s[j]) && month_at(j + 1) && bounded(j + 3)) return true;
  // Compact: exactly YYYYMM or YYYYMMDD digits.
  size_t run = j;
  while (run < s.size() && IsDigit(s[run])) ++run;
  if (run - i == 6 && month_at(j)) return true;
  if (run - i == 8 && month_at(j)) {
    int day = TwoDigits(s, j + 2);
    return day >= 1 && day <= 31;
  }
  return false;
}

bool SessionName(std::string_view name) {
  return EqualsNoCase(name, "sid") || EqualsNoCase(name, "sessionid") ||
         EqualsNoCase(name, "jsessionid") || EqualsNoCase(name, "phpsessid");
}

template <typename F>
void ForEachParam(std::string_view query, F f) {
  size_t p = 0;
  while (p <= query.size()) {
    size_t q = query.find_first_of("&;", p);
    if (q == std::string_view::npos) q = query.size();
    std::string_view param = query.substr(p, q - p);
    if (!param.empty()) f(param.substr(0, param.find('=')));
    p = q + 1;
  }
}

}  // namespace

UrlParts SplitUrl(std::string_view url) {
  UrlParts parts;
  size_t start = url.find("://");
  start = start == std::string_view::npos ? 0 : start + 3;
  size_t path_start = url.find_first_of("/?#", start);
  if (path_start == std::string_view::npos) path_start = url.size();
  size_t fragment = url.find('#', path_start);
  std::string_view rest = url.substr(path_start, fragment == std::string_view::npos
                                                     ? std::string_view::npos
                                                     : fragment - path_start);
  size_t q = rest.find('?');
  parts.path = rest.substr(0, q);
  if (q != std::string_view::npos) parts.query = rest.substr(q + 1);
  if (parts.path.empty()) parts.path = "/";
  parts.file = parts.path.substr(parts.path.rfind('/') + 1);
  return parts;
}

double AnchorTextLength(std::string_view anchor) {
  size_t pos = 0;
  int64_t n = 0;
  bool pending_space = false;
  while (pos < anchor.size()) {
    char32_t c = NextCodePoint(anchor, &pos);
    if (IsSpaceCodePoint(c)) {
      pending_space = n > 0;
      continue;
    }
    n += pending_space ? 2 : 1;
    pending_space = false;
  }
  return static_cast<double>(n);
}

double UrlLength(std::string_view url) { return static_cast<double>(url.size()); }

double ContainsDate(std::string_view url) {
  UrlParts p = SplitUrl(url);
  for (std::string_view s : {p.path, p.query}) {
    for (size_t i = 0; i < s.size(); ++i) {
      if ((i == 0 || !IsDigit(s[i - 1])) && DateAt(s, i)) return 1;
    }
  }
  return 0;
}

double FileNameClass(std::string_view url) {
  std::string_view stem, ext;
  SplitFile(SplitUrl(url).file, &stem, &ext);
  if (stem.empty()) return kFileNameEmpty;
  for (std::string_view w : {"index", "class", "default", "list"}) {
    if (ContainsNoCase(stem, w)) return kFileNameIndexLike;
  }
  for (std::string_view w : {"article", "content"}) {
    if (ContainsNoCase(stem, w)) return kFileNameArticleLike;
  }
  return kFileNameOther;
}

double FileType(std::string_view url) {
  std::string_view stem, ext;
  SplitFile(SplitUrl(url).file, &stem, &ext);
  if (ext.empty()) return kFileTypeEmpty;
  for (std::string_view t : {"asp", "jsp", "aspx", "php"}) {
    if (EqualsNoCase(ext, t)) return kFileTypeScript;
  }
  for (std::string_view t : {"shtml", "html", "htm"}) {
    if (EqualsNoCase(ext, t)) return kFileTypeStatic;
  }
  return kFileTypeOther;
}

double ParameterName(std::string_view url) {
  bool any = false, id = false;
  ForEachParam(SplitUrl(url).query, [&](std::string_view name) {
    any = true;
    if (EndsWithNoCase(name, "id") && !SessionName(name)) id = true;
  });
  if (!any) return kParamNone;
  return id ? kParamId : kParamOther;
}

double ParameterCount(std::string_view url) {
  int n = 0;
  ForEachParam(SplitUrl(url).query, [&](std::string_view) { ++n; });
  return n;
}

double DirectoryDepth(std::string_view url) {
  std::string_view path = SplitUrl(url).path;
  size_t last = path.rfind('/');
  int depth = 0;
  size_t p = 0;
  while (p < last) {
    size_t q = path.find('/', p + 1);
    if (q == std::string_view::npos || q > last) break;
    if (q > p + 1) ++depth;  // "//" is not a directory
    p = q;
  }
  return depth;
}

double PageSizeKib(int64_t bytes) { return bytes < 0 ? 0 : static_cast<double>(bytes) / 1024.0; }

double CrawlDepth(int64_t depth) { return static_cast<double>(std::max<int64_t>(depth, 0)); }

bool ParseHubFeatureSet(std::string_view name, HubFeatureSet* set) {
  if (name == "full") {
    *set = HubFeatureSet::kFull;
  } else if (name == "url" || name == "before-download") {
    *set = HubFeatureSet::kBeforeDownload;
  } else {
    return false;
  }
  return true;
}

std::string_view HubFeatureSetName(HubFeatureSet set) {
  return set == HubFeatureSet::kFull ? "full" : "url";
}

std::string_view HubModelKind(HubFeatureSet set) {
  return set == HubFeatureSet::kFull ? "hub-url-full" : "hub-url-before-download";
}

const std::vector<std::string>& HubFeatureNames(HubFeatureSet set) {
  static const std::vector<std::string> full = {
      "anchor_length", "url_length",      "contains_date",  "file_name",   "file_type",
      "param_name",    "param_count",     "dir_depth",      "page_size_kib", "crawl_depth"};
  static const std::vector<std::string> before = {
      "anchor_length", "url_length",  "contains_date", "file_name", "file_type",
      "param_name",    "param_count", "dir_depth",     "crawl_depth"};
  return set == HubFeatureSet::kFull ? full : before;
}

void HubFeaturesInto(const UrlObservation& o, HubFeatureSet set, double* out) {
  size_t k = 0;
  out[k++] = AnchorTextLength(o.anchor);
  out[k++] = UrlLength(o.url);
  out[k++] = ContainsDate(o.url);
  out[k++] = FileNameClass(o.url);
  out[k++] = FileType(o.url);
  out[k++] = ParameterName(o.url);
  out[k++] = ParameterCount(o.url);
  out[k++] = DirectoryDepth(o.url);
  if (set == HubFeatureSet::kFull) out[k++] = PageSizeKib(o.page_size);
  out[k++] = CrawlDepth(o.crawl_depth);
}

std::vector<double> HubFeatures(const UrlObservation& o, HubFeatureSet set) {
  std::vector<double> v(HubFeatureNames(set).size());
  HubFeaturesInto(o, set, v.data());
  return v;
}

}  // namespace topicrawl::hub
