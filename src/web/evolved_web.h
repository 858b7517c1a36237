// An evolved benchmark web: rounds 0..N over one built web, stored as one
// overlay per round (what differs from the round before), never as N copies.
// Made by `topicrawl web evolve` (simulated, web/web_evolver.h) or
// `topicrawl web build --rounds versions` (real Debian versions,
// web/version_rounds.h); served per round by `web serve --round K`; its
// ground truth is printed by `web truth`. docs/guides/rounds.md documents the
// layout below for the readers of the truth files (eval/round_truth.h).
//
//   E/evolve.tsv            key<TAB>value; written last (its presence = complete)
//   E/EVOLVING              exists while evolve/build runs: left behind by an
//                           interrupted run, it makes every later use fail
//   E/rounds/K/overlay.tsv  url<TAB>action, sorted by url; action:
//                             page    new bytes in E/rounds/K/pages/<host><path>
//                             base    served from the base web again
//                             hidden  not published yet: 404
//                             404|410 gone from round K on
//   E/rounds/K/pages/...    the bytes of `page` actions (<path> decoded)
//   E/truth/round-K.tsv     url<TAB>state (new|changed|unchanged|gone vs K-1)
//   E/truth/hubs-K.tsv      url<TAB>new_links (pages linking to a page new in K)
//
// The served state of a URL in round K is the last action of rounds 0..K,
// or the base web's file when there is none. E may be the base web's own
// directory D or a separate one; evolve.tsv names D (key `base`), so a large
// base web is referenced read-only, not copied.
#ifndef TOPICRAWL_WEB_EVOLVED_WEB_H_
#define TOPICRAWL_WEB_EVOLVED_WEB_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "web/manifest.h"

namespace topicrawl::web {

// A web made by `topicrawl web build`: D/manifest.tsv, D/site-index.tsv, D/root.
struct BaseWeb {
  std::string dir;   // absolute
  std::string root;  // D/root
  Manifest manifest;
  std::vector<std::string> urls;   // site index order (sorted)
  std::vector<std::string> files;  // absolute file of each url
  std::vector<std::string> hosts;  // host of each url
};

// Errors name what is missing ("D is not a built web: no D/site-index.tsv").
StatusOr<BaseWeb> LoadBaseWeb(const std::string& dir);

struct EvolvedWeb {
  std::string dir;   // E, absolute
  std::string mode;  // "simulated" or "versions"
  std::string base;  // D, absolute
  int rounds = 0;    // the last round (rounds are 0..rounds)
  std::map<std::string, std::string> meta;  // all of evolve.tsv
};

// Errors: an interrupted evolve (E/EVOLVING), a directory that holds no
// evolved web (no E/evolve.tsv), an unreadable or foreign evolve.tsv.
StatusOr<EvolvedWeb> OpenEvolvedWeb(const std::string& dir);
// "round K is out of range: E has rounds 0..N".
Status CheckRound(const EvolvedWeb& web, int round);

enum class OverlayAction { kPage, kBase, kHidden, kGone404, kGone410 };
std::string_view OverlayActionName(OverlayAction a);
bool ParseOverlayAction(std::string_view name, OverlayAction* out);
// Present = served with a 200 (page or base).
inline bool IsPresent(OverlayAction a) { return a == OverlayAction::kPage || a == OverlayAction::kBase; }

struct OverlayEntry {
  std::string url;
  OverlayAction action = OverlayAction::kBase;
};

StatusOr<std::vector<OverlayEntry>> ReadOverlay(const EvolvedWeb& web, int round);

struct ServedState {
  OverlayAction action = OverlayAction::kBase;
  int round = 0;  // the round whose overlay set it
};
// url -> the last action of rounds 0..round (URLs without one are absent).
StatusOr<std::map<std::string, ServedState>> FoldOverlays(const EvolvedWeb& web, int round);

// E/rounds/K/pages/<host><decoded path> of a label-form URL; empty when the
// URL cannot be stored (not http://host/..., a dot segment in the path).
std::string OverlayFilePath(const std::string& dir, int round, std::string_view url);

// nginx config for serving round K of `web`: `http` goes into the http{}
// block (a map $host$uri -> "404" | "410" | internal URI of an overlay file),
// `server` into every host's server{} (answers the map, plus an internal
// location aliasing E/rounds/). `skipped` counts URLs whose path nginx
// cannot carry in a map value ('$', '?', control bytes): they are served
// from the base web.
struct RoundNginx {
  std::string http;
  std::string server;
  size_t entries = 0;
  size_t skipped = 0;
};
StatusOr<RoundNginx> RenderRoundNginx(const EvolvedWeb& web, int round);

// Marker handling for writers (evolve, build --rounds versions).
// PrepareEvolvedDir fails when E/EVOLVING or E/evolve.tsv exists, unless
// `force`, which then removes E/EVOLVING, E/evolve.tsv, E/rounds and E/truth
// (nothing else); then creates E/EVOLVING naming `what`.
Status PrepareEvolvedDir(const std::string& dir, bool force, const std::string& what);
// Writes E/evolve.tsv atomically (tmp + rename) then removes E/EVOLVING.
Status FinishEvolvedDir(const std::string& dir, const std::map<std::string, std::string>& meta);

// Writes one overlay.tsv (sorted by url) for round K.
Status WriteOverlay(const std::string& dir, int round, std::vector<OverlayEntry> entries);

// Truth of one round: every URL present in K-1 or K with its state.
enum class TruthState { kNew, kChanged, kUnchanged, kGone };
std::string_view TruthStateName(TruthState s);
struct TruthRow {
  std::string url;
  TruthState state = TruthState::kNew;
};
struct HubRow {
  std::string url;
  size_t new_links = 0;  // distinct pages new in K this page links to
};
// Writes E/truth/round-K.tsv and E/truth/hubs-K.tsv (headers, sorted by url).
Status WriteRoundTruth(const std::string& dir, int round, std::vector<TruthRow> rows,
                       std::vector<HubRow> hubs);

// Truth from the overlays alone: states compare the folded state of K-1 and
// K (present in both and an action in K's overlay = changed). `base_urls`
// are the URLs present when no overlay says otherwise. `links_at(url, K)`
// gives the label-form links of a present page as served in round K.
// Writes every round's truth; returns the per-round counts for logs.
using LinksAt = std::function<std::vector<std::string>(const std::string& url, int round)>;
StatusOr<std::vector<std::map<TruthState, size_t>>> ComputeAndWriteTruth(
    const EvolvedWeb& web, const std::vector<std::string>& base_urls, const LinksAt& links_at);

// Reads E/truth/round-K.tsv back (for `web truth`): the raw text.
StatusOr<std::string> ReadTruthText(const EvolvedWeb& web, int round, bool hubs);

// For `web truth --labels`: the pages of each state of a round's truth text
// (ReadTruthText's, header first) counted in all, relevant and unlabelled
// (`label`: a URL's label, nullopt when unlabelled), as one line:
//   "round K: new N (relevant R, unlabelled U) changed ..." (", unlabelled U"
// only when U > 0), states new, changed, unchanged, gone.
std::string TruthLabelCounts(const std::string& truth_text, int round,
                             const std::function<std::optional<bool>(const std::string&)>& label);

std::string ReadWholeFile(const std::string& path, bool* ok);
Status WriteWholeFile(const std::string& path, std::string_view data);

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_EVOLVED_WEB_H_
