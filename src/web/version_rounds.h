// `topicrawl web build --rounds versions`: rounds from the real versions the
// Debian archive offers for each package of a manifest (`apt-cache madison`).
//
// Round k serves version min(k, n_p - 1) of package p, whose n_p versions
// are sorted oldest first (`dpkg --compare-versions`): every package starts
// at its oldest version in round 0 and moves one version per round until it
// reaches its newest; a package with one version is the same in every
// round. Rounds are 0 .. max(n_p) - 1.
//
// D/root holds round 0 (BuildWeb with every package pinned to its oldest
// version); D/rounds/K holds the overlay of round K (web/evolved_web.h): for
// each package whose version moves in K, both versions are extracted to a
// scratch directory (D/versions-scratch, removed afterwards) and their served
// HTML compared: a page only in the new version is `page` (new), only in the
// old one `404` (gone), in both with other bytes `page` (changed). Non-HTML
// files (CSS, images) stay as in round 0. The .debs are kept in D/debs.
#ifndef TOPICRAWL_WEB_VERSION_ROUNDS_H_
#define TOPICRAWL_WEB_VERSION_ROUNDS_H_

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "web/manifest.h"

namespace topicrawl::web {

// The versions `apt-cache madison PKG` lists, distinct, oldest first.
// Errors: apt-cache fails or lists nothing (the message says to run
// `apt-get update`).
StatusOr<std::vector<std::string>> ArchiveVersions(const std::string& package);

// Parses `apt-cache madison` output (exposed for tests): distinct versions
// in the order listed.
std::vector<std::string> ParseMadison(const std::string& output);

struct VersionRoundsOptions {
  std::string dir;
  std::string manifest_text;
  bool force = false;  // replace existing rounds in DIR
  std::ostream* log = nullptr;
  // Versions per package, oldest first; packages missing here are asked
  // from the archive (ArchiveVersions). Tests fill it.
  std::map<std::string, std::vector<std::string>> versions;
};

struct VersionRoundsReport {
  int rounds = 0;  // last round
  std::map<std::string, std::vector<std::string>> versions;
  std::vector<size_t> new_pages, changed_pages, gone_pages;  // per round (index 0: pages)
  double seconds = 0;
};

StatusOr<VersionRoundsReport> BuildVersionRounds(const Manifest& manifest, const VersionRoundsOptions& options);

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_VERSION_ROUNDS_H_
