// Building a benchmark web directory from a manifest
// (../shared/corpus/README.md §1 "Rebuild anywhere"):
//
//   DIR/debs/           the .deb files (apt-get download pkg=version)
//   DIR/root/           every package extracted with dpkg-deb -x (= T)
//   DIR/extracted/      one stamp per extracted package (version + sha256)
//   DIR/manifest.tsv    copy of the manifest (serve reads it)
//   DIR/site-index.tsv  every served HTML file and its URL (see site_index.h)
//
// Idempotent: a .deb already in DIR/debs with the wanted version is reused,
// a package whose stamp matches is not extracted again.
#ifndef TOPICRAWL_WEB_WEB_BUILDER_H_
#define TOPICRAWL_WEB_WEB_BUILDER_H_

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "web/manifest.h"

namespace topicrawl::web {

struct BuildOptions {
  std::string dir;
  std::string manifest_text;             // copied to DIR/manifest.tsv
  std::map<std::string, PackagePin> pins;  // may be empty: candidate versions
  std::ostream* log = nullptr;           // progress and warnings; nullptr = silent
};

struct BuildReport {
  int downloaded = 0;
  int reused = 0;
  int extracted = 0;
  std::vector<std::string> warnings;    // unpinned packages, version fallbacks
  std::vector<std::string> mismatches;  // sha256 differs from the pin
  size_t html_pages = 0;
  double seconds = 0;
};

// Downloads, verifies, extracts, then writes manifest.tsv and site-index.tsv.
// Errors (a package that cannot be downloaded or extracted, a missing
// html_root) stop the build. sha256 mismatches do not; they are reported.
StatusOr<BuildReport> BuildWeb(const Manifest& manifest, const BuildOptions& options);

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_WEB_BUILDER_H_
