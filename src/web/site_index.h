// The URL of every served HTML file of a benchmark web
// (../shared/corpus/README.md §1 and §3).
//
//   url = "http://" + host + url_prefix + PercentEncodePath(relpath)
//
// where relpath is the file's path relative to T/<html_root>. HTML files are
// the served files whose names end in ".html" or ".htm", symlinks to files
// included (symlinked directories are not descended, as with os.walk).
// The site index (site-index.tsv, written by `topicrawl web build`) lists
// them so that eval can compute exact recall denominators.
#ifndef TOPICRAWL_WEB_SITE_INDEX_H_
#define TOPICRAWL_WEB_SITE_INDEX_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "url/path_encoding.h"  // PercentEncodePath, PercentDecode
#include "web/manifest.h"

namespace topicrawl::web {

// "http://host" + prefix + PercentEncodePath(relpath).
std::string UrlForFile(const ManifestRow& row, std::string_view relpath);

struct SiteFile {
  std::string url;       // as above
  std::string host;
  std::string packages;  // the row's package; overlays: "a,b"
  std::string relpath;   // decoded, relative to T/<html_root>
};

// Walks T/<html_root> once per distinct (host, url_prefix, html_root) and
// returns every served HTML file, sorted by url, each url once. Files matched
// by the row's exclude globs are left out, and so are files whose URL falls
// under a longer prefix of the same host (nginx picks the longest prefix).
// A missing html_root directory is an error naming the row.
StatusOr<std::vector<SiteFile>> ListServedHtml(const Manifest& manifest, const std::string& root);

// Writes "url<TAB>host<TAB>packages<TAB>relpath" with a header line.
Status WriteSiteIndex(const std::vector<SiteFile>& files, const std::string& path);

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_SITE_INDEX_H_
