// `topicrawl web evolve`: derives rounds 0..N from one built web (the plan:
// web/evolve_plan.h; the layout written: web/evolved_web.h).
//
// Per round K it writes an overlay entry for
//  * every page hidden at round 0 (`hidden`, round 0 only);
//  * every present page whose served bytes differ from round K-1: pages
//    edited in K, pages that link to a page published in K (the link
//    appears), pages published in K (`page` when their bytes differ from the
//    base file, e.g. because they link to a page still hidden, else `base`);
//  * every page gone in K (`404` or `410`).
// A page's bytes in round K are: the base file, then the edits of rounds
// <= K in order, then every link to a page not published in K removed
// (the href/src attribute goes; the element and its text stay).
//
// An edit moves text: 1-3 consecutive paragraphs (<p> text, tags stripped)
// of another page of the same host, chosen by the seed, are inserted as one
// new <p> after a seeded paragraph of the page; half of the edits also
// delete one of the page's paragraphs that carries no link. Overlay files get
// the mtime D + K days (D = 2026-01-01, or the day after the newest base
// page's mtime: evolve.tsv `date_epoch`), so nginx's ETag and Last-Modified differ
// between the versions of a page.
#ifndef TOPICRAWL_WEB_WEB_EVOLVER_H_
#define TOPICRAWL_WEB_WEB_EVOLVER_H_

#include <functional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/status.h"
#include "web/announce_writer.h"
#include "web/evolve_plan.h"
#include "web/evolved_web.h"

namespace topicrawl::web {

struct WebEvolveOptions {
  std::string base_dir;    // D, a built web (read only unless out_dir == base_dir)
  std::string out_dir;     // E; empty = D
  std::string homes_file;  // host<TAB>home_url<TAB>role; empty: roots = pages nobody links to
  EvolveOptions evolve;
  // Only pages of these hosts evolve (empty: all). Pages of other hosts are
  // left out of the link graph: served as in the base web in every round
  // (a quick, small evolution for a crawl limited to these hosts).
  std::vector<std::string> hosts;
  bool force = false;      // replace an existing or interrupted evolution in E
  // Sitemaps, sitemap indexes and feeds per round and host
  // (web/announce_writer.h); its seed is evolve.seed.
  AnnounceWebOptions announce;
  std::ostream* log = nullptr;
};

struct WebEvolveReport {
  size_t pages = 0, reachable = 0, links = 0;
  std::vector<size_t> published, edited, gone;  // per round (plan)
  std::vector<size_t> overlay_entries, overlay_files;  // per round
  size_t overlay_bytes = 0;
  AnnounceReport announce;
  double seconds = 0;
};

StatusOr<WebEvolveReport> EvolveWeb(const WebEvolveOptions& options);

// The page graph an evolution is planned on (a pure function of its inputs,
// so tools can re-derive a plan from E/evolve.tsv): the links between
// included pages (the pages of `hosts`; every page when empty), from each
// page's HTML; roots = the pages of `homes_file` (host<TAB>home_url<TAB>role)
// on those hosts, or, without a homes file, the included pages nobody links
// to. Errors: unreadable files, no page on `hosts`, a homes file with no
// page of this web or none on `hosts`.
struct EvolveGraph {
  PageGraph graph;
  std::unordered_map<std::string, uint32_t> index;  // url -> page
  std::vector<char> included;                        // per page
  size_t links = 0;                                  // edges of `graph`
};
StatusOr<EvolveGraph> BuildEvolveGraph(const BaseWeb& base, const std::vector<std::string>& hosts,
                                       const std::string& homes_file);

// The edit of page `page` in round `round` applied to `html`: text from one
// of `donors` (base files of other pages of the same host; read lazily by
// `read_donor`). Exposed for tests.
struct EditContext {
  uint64_t seed = 0;
  uint32_t page = 0;
  int round = 0;
  std::vector<uint32_t> same_host;  // candidate donors (page indices)
};
std::string ApplyEdit(std::string html, const EditContext& ctx,
                      const std::function<std::string(uint32_t)>& read_donor);

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_WEB_EVOLVER_H_
