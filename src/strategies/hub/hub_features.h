// Seed 003 (003_8082e0a8ad518813.txt §3.3 (2), features ①-⑩): hub-page
// detection from URL features. One function per feature, with the seed's
// encodings; the readings chosen where the seed is ambiguous are in
// docs/notebook/hub-svm.md ("Feature readings") and repeated at each function.
//
// The seed's text values are encoded as 100 x the share of each value among
// 500 hub pages (§3.3 (2), the three numbered lists after ⑩):
//   file name  empty 60.4 | index-like (index, class, default, list) 30.6 |
//              article-like (article, content) 0 | other 9
//   file type  empty 60.4 | asp, jsp, aspx, php 24.6 | shtml, html, htm 15 |
//              other 0
//   parameter  none 82.4 | id 10.4 | other 7.2
//
// Two feature sets: kFull is the seed's ten features; kBeforeDownload drops
// ⑨ page size, which is only known after a fetch (the model an incremental
// crawler can apply to a URL it has not fetched yet).
//
// All functions are pure and thread-safe; none allocates except HubFeatures().
#ifndef TOPICRAWL_STRATEGIES_HUB_HUB_FEATURES_H_
#define TOPICRAWL_STRATEGIES_HUB_HUB_FEATURES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topicrawl::hub {

// The seed's encodings (share among 500 hub pages x 100).
inline constexpr double kFileNameEmpty = 60.4;
inline constexpr double kFileNameIndexLike = 30.6;
inline constexpr double kFileNameArticleLike = 0;
inline constexpr double kFileNameOther = 9;
inline constexpr double kFileTypeEmpty = 60.4;
inline constexpr double kFileTypeScript = 24.6;  // asp, jsp, aspx, php
inline constexpr double kFileTypeStatic = 15;    // shtml, html, htm
inline constexpr double kFileTypeOther = 0;
inline constexpr double kParamNone = 82.4;
inline constexpr double kParamId = 10.4;
inline constexpr double kParamOther = 7.2;

// The parts of an absolute URL the features read. No allocation: views
// into the URL. path excludes the query and fragment; query excludes '?'.
struct UrlParts {
  std::string_view path;   // "/" when the URL has no path
  std::string_view query;  // empty when there is none
  std::string_view file;   // last path segment ("" for a directory URL)
};
UrlParts SplitUrl(std::string_view url);

// ① Anchor-text length in Unicode code points, after trimming white space
// and collapsing runs of it to one (hub links are short, "more", "目录").
double AnchorTextLength(std::string_view anchor);
// ② URL length in bytes of the URL as crawled (canonical form, so
// non-ASCII is percent-encoded).
double UrlLength(std::string_view url);
// ③ 1 when the path or query holds a date: a year 1990..2039 followed by
// a month 01..12, either separated (2021/10, 2021-10-11, 2021_10) or as a
// bounded 6- or 8-digit run (202110, 20211011 with a valid day); else 0.
double ContainsDate(std::string_view url);
// ④ File-name class of the last path segment without its extension,
// case-insensitive, first match wins: empty (directory URL) 60.4; contains
// index/class/default/list 30.6; contains article/content 0; other 9.
double FileNameClass(std::string_view url);
// ⑤ File type = extension of the last path segment: none (directory URL
// or a name without '.') 60.4; asp/jsp/aspx/php 24.6; shtml/html/htm 15;
// any other 0.
double FileType(std::string_view url);
// ⑥ Parameter names of the query: no parameter 82.4; a name that is "id"
// or ends in "id" (aid, newsid, article_id; not the session names sid,
// sessionid, jsessionid, phpsessid) 10.4; other names 7.2.
double ParameterName(std::string_view url);
// ⑦ Number of non-empty '&'/';'-separated query parameters.
double ParameterCount(std::string_view url);
// ⑧ Directory depth: path segments before the file name ("/" 0, "/a/" 1,
// "/a/b.html" 1, "/a/b/c" 2).
double DirectoryDepth(std::string_view url);
// ⑨ Page size: body bytes of the downloaded page (the seed's "URL 大小",
// the size of the page at the URL), in KiB.
double PageSizeKib(int64_t bytes);
// ⑩ Crawl depth: link distance from the seeds at which the crawl found it.
double CrawlDepth(int64_t depth);

// What is known of a URL when it is scored.
struct UrlObservation {
  std::string_view url;
  std::string_view anchor;  // of the link that found it ("" for seeds)
  int64_t crawl_depth = 0;
  int64_t page_size = -1;   // bytes; -1 unknown (not downloaded)
};

enum class HubFeatureSet {
  kFull,            // ①-⑩
  kBeforeDownload,  // ①-⑧, ⑩ (no page size)
};
// "full" / "url" (before download); false for another name.
bool ParseHubFeatureSet(std::string_view name, HubFeatureSet* set);
std::string_view HubFeatureSetName(HubFeatureSet set);
// The model kind stored in SVM model files for each set.
std::string_view HubModelKind(HubFeatureSet set);

// Feature names in vector order (also the names in the model file).
const std::vector<std::string>& HubFeatureNames(HubFeatureSet set);
// The feature vector. kFull with page_size < 0 uses 0.
std::vector<double> HubFeatures(const UrlObservation& o, HubFeatureSet set);
// Same, writing into `out` (size HubFeatureNames(set).size()); no allocation.
void HubFeaturesInto(const UrlObservation& o, HubFeatureSet set, double* out);

}  // namespace topicrawl::hub

#endif  // TOPICRAWL_STRATEGIES_HUB_HUB_FEATURES_H_
