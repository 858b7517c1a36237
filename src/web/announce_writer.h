// Benchmark webs that announce (issue 34): per round and host of an
// evolved web, what a real site publishes about its pages:
//
//   http://HOST/robots.txt            User-agent: * / Disallow: / Sitemap: lines
//   http://HOST/sitemap.xml           a sitemap index, one <sitemap> per section
//   http://HOST/sitemaps/SECTION.xml  the section's present pages (<lastmod>
//                                     as the host's habit says); .xml.gz when
//                                     it lists more than gzip_over_urls URLs;
//                                     split in parts of 50,000
//   http://HOST/feed.atom             Atom 1.0 feed of the feed_size newest pages
//
// A section is the first segment of a page's path. The files of round K
// live in E/rounds/K/announce/HOST/... and are served by `web serve --round
// K` (evolved_web.h RenderRoundNginx); they are not pages of the web: the
// overlays and truth files do not list them, and `web truth` is unchanged.
//
// Which hosts announce, and how right their dates are, is drawn once per
// host from the seed (realism after Schonfeld & Shivakumar, WWW 2009, and
// Bing's lastmod study: right for 79 % of sitemaps, wrong for 18 %):
//   sitemap         with probability sitemap_hosts
//   habit accurate  lastmod = the round the page's bytes last changed
//                   (lastmod_accuracy)
//         build     lastmod = the round's own date on every URL (half of lastmod_wrong)
//         stale     lastmod = the page's first date, never updated (the other half)
//         none      no <lastmod> (the rest)
// A round's date is round 0's date (2026-01-01, or the day after the
// newest base page; evolve.tsv `date_epoch`) + K days, the mtime of its
// overlay files;
// a page never changed has its base file's mtime. E/truth/announce-hosts.tsv
// lists every host with its draw (host, sitemap 0/1, habit).
#ifndef TOPICRAWL_WEB_ANNOUNCE_WRITER_H_
#define TOPICRAWL_WEB_ANNOUNCE_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "web/evolved_web.h"

namespace topicrawl::web {

struct AnnounceWebOptions {
  bool enabled = true;
  double sitemap_hosts = 0.7;
  double lastmod_accuracy = 0.79;
  double lastmod_wrong = 0.18;
  int feed_size = 20;
  size_t gzip_over_urls = 1000;
  uint64_t seed = 1;
  int64_t epoch = 1767225600;  // round 0's date (unix s): evolve.tsv `date_epoch`
};

enum class LastmodHabit { kAccurate, kBuildDate, kStale, kNone };
const char* LastmodHabitName(LastmodHabit h);

struct AnnounceHostPlan {
  std::string host;
  bool sitemap = false;
  LastmodHabit habit = LastmodHabit::kNone;
};
// The draw of one host (a pure function of seed and host name).
AnnounceHostPlan PlanAnnounceHost(const std::string& host, const AnnounceWebOptions& options);

// Errors in the options (shares outside [0, 1], accuracy + wrong > 1, ...).
Status ValidateAnnounceOptions(const AnnounceWebOptions& options);

struct AnnounceReport {
  size_t hosts = 0, announcing = 0, files = 0, urls = 0;  // urls: summed over rounds
};

// Writes the announcement files of every round of `web` (its overlays must
// be written) for the pages of `hosts` (all hosts of `base` when empty),
// and E/truth/announce-hosts.tsv.
StatusOr<AnnounceReport> WriteAnnouncements(const EvolvedWeb& web, const BaseWeb& base,
                                            const std::vector<std::string>& hosts,
                                            const AnnounceWebOptions& options);

// `web announce`: replaces the announcement files of an evolved web made
// by `web evolve` with new knobs (the evolution itself is unchanged; only
// hosts that evolve -- evolve.tsv `hosts` -- announce, as in `web evolve`).
// Knobs land in evolve.tsv.
StatusOr<AnnounceReport> RewriteAnnouncements(const std::string& evolved_dir,
                                              const AnnounceWebOptions& options);

// A round's date (unix seconds): epoch + round days.
int64_t RoundDate(int64_t epoch, int round);

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_ANNOUNCE_WRITER_H_
