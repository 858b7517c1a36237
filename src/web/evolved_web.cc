#include "web/evolved_web.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/tsv.h"
#include "url/path_encoding.h"
#include "web/site_index.h"

namespace topicrawl::web {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kFormat = "topicrawl-evolved-web-1";
constexpr std::string_view kInternalPrefix = "/__topicrawl_round__/";

std::string Absolute(const std::string& dir) {
  std::error_code ec;
  std::string out = fs::absolute(dir, ec).lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string RoundDir(const std::string& dir, int round) {
  return dir + "/rounds/" + std::to_string(round);
}

// A double-quoted nginx string (backslash and quote escaped).
std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

// "http://host/path" -> host, decoded path. False when not of that form.
bool SplitLabelUrl(std::string_view url, std::string* host, std::string* path) {
  constexpr std::string_view kHttp = "http://";
  if (url.substr(0, kHttp.size()) != kHttp) return false;
  std::string_view rest = url.substr(kHttp.size());
  size_t slash = rest.find('/');
  if (slash == std::string_view::npos || slash == 0) return false;
  *host = std::string(rest.substr(0, slash));
  *path = PercentDecode(rest.substr(slash));
  return true;
}

bool SafeStoredPath(std::string_view path) {
  if (path.empty() || path.front() != '/') return false;
  if (path.find('\0') != std::string_view::npos) return false;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view seg = path.substr(start, end - start);
    if (seg == "." || seg == "..") return false;
    start = end + 1;
  }
  return path.back() != '/';
}

// Characters an nginx map value cannot carry literally.
bool NginxValueSafe(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f || c == '$' || c == '?' || c == '{' || c == '}' || c == ';') return false;
  }
  return true;
}

size_t NextPow2(size_t n) {
  size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace

std::string ReadWholeFile(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  if (!*ok) return {};
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

Status WriteWholeFile(const std::string& path, std::string_view data) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!out.flush()) return Status::Error("cannot write " + path);
  return Status::Ok();
}

StatusOr<BaseWeb> LoadBaseWeb(const std::string& dir_in) {
  BaseWeb web;
  web.dir = Absolute(dir_in);
  web.root = web.dir + "/root";
  const std::string what = web.dir + " is not a built web (made by `topicrawl web build`): ";
  if (!fs::is_directory(web.dir)) return Status::Error(what + "no such directory");
  for (const char* f : {"/manifest.tsv", "/site-index.tsv"}) {
    if (!fs::is_regular_file(web.dir + f)) return Status::Error(what + "no " + web.dir + f);
  }
  if (!fs::is_directory(web.root)) return Status::Error(what + "no " + web.root);
  StatusOr<Manifest> manifest = ReadManifestFile(web.dir + "/manifest.tsv");
  if (!manifest.ok()) return manifest.status();
  web.manifest = std::move(*manifest);
  bool ok = false;
  std::string index = ReadWholeFile(web.dir + "/site-index.tsv", &ok);
  if (!ok) return Status::Error("cannot read " + web.dir + "/site-index.tsv");
  std::istringstream in(index);
  std::string line;
  int line_no = 0;
  std::map<std::string, std::vector<const ManifestRow*>> rows_by_host;
  for (const ManifestRow& row : web.manifest.rows) rows_by_host[row.host].push_back(&row);
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1) {
      if (line != "url\thost\tpackages\trelpath") {
        return Status::Error(web.dir + "/site-index.tsv: line 1 is not the header url host packages relpath");
      }
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string_view> f = SplitTabs(line);
    if (f.size() != 4) {
      return Status::Error(web.dir + "/site-index.tsv:" + std::to_string(line_no) + ": expected 4 fields");
    }
    const ManifestRow* match = nullptr;
    for (const ManifestRow* row : rows_by_host[std::string(f[1])]) {
      if (UrlForFile(*row, f[3]) == f[0]) {
        match = row;
        break;
      }
    }
    if (match == nullptr) {
      return Status::Error(web.dir + "/site-index.tsv:" + std::to_string(line_no) + ": " +
                           std::string(f[0]) + " matches no manifest row (site index and manifest disagree)");
    }
    web.urls.emplace_back(f[0]);
    web.hosts.emplace_back(f[1]);
    web.files.push_back(web.root + "/" + match->html_root + "/" + std::string(f[3]));
  }
  if (web.urls.empty()) return Status::Error(web.dir + "/site-index.tsv lists no page");
  return web;
}

StatusOr<EvolvedWeb> OpenEvolvedWeb(const std::string& dir_in) {
  EvolvedWeb web;
  web.dir = Absolute(dir_in);
  if (fs::exists(web.dir + "/EVOLVING")) {
    bool ok = false;
    std::string what = ReadWholeFile(web.dir + "/EVOLVING", &ok);
    while (!what.empty() && what.back() == '\n') what.pop_back();
    return Status::Error(web.dir + " holds an interrupted evolution (" + what +
                         "): its rounds are incomplete. Run it again with --force to replace them, "
                         "or remove " + web.dir + "/EVOLVING, rounds/, truth/ by hand");
  }
  const std::string meta_path = web.dir + "/evolve.tsv";
  if (!fs::exists(meta_path)) {
    return Status::Error(web.dir + " is not an evolved web (no evolve.tsv): make one with "
                         "`topicrawl web evolve` or `topicrawl web build --rounds versions`");
  }
  bool ok = false;
  std::string text = ReadWholeFile(meta_path, &ok);
  if (!ok) return Status::Error("cannot read " + meta_path);
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    if (tab == std::string::npos) return Status::Error(meta_path + ": line without a tab: " + line);
    web.meta[line.substr(0, tab)] = line.substr(tab + 1);
  }
  if (web.meta["format"] != kFormat) {
    return Status::Error(meta_path + ": format is '" + web.meta["format"] + "', expected " +
                         std::string(kFormat) + " (made by another topicrawl version?)");
  }
  web.mode = web.meta["mode"];
  web.base = web.meta["base"];
  try {
    web.rounds = std::stoi(web.meta["rounds"]);
  } catch (...) {
    return Status::Error(meta_path + ": bad `rounds`");
  }
  if (web.rounds < 0 || web.base.empty()) return Status::Error(meta_path + ": bad `rounds` or `base`");
  return web;
}

Status CheckRound(const EvolvedWeb& web, int round) {
  if (round < 0 || round > web.rounds) {
    return Status::Error("round " + std::to_string(round) + " is out of range: " + web.dir +
                         " has rounds 0.." + std::to_string(web.rounds));
  }
  return Status::Ok();
}

std::string_view OverlayActionName(OverlayAction a) {
  switch (a) {
    case OverlayAction::kPage: return "page";
    case OverlayAction::kBase: return "base";
    case OverlayAction::kHidden: return "hidden";
    case OverlayAction::kGone404: return "404";
    case OverlayAction::kGone410: return "410";
  }
  return "?";
}

bool ParseOverlayAction(std::string_view name, OverlayAction* out) {
  for (OverlayAction a : {OverlayAction::kPage, OverlayAction::kBase, OverlayAction::kHidden,
                          OverlayAction::kGone404, OverlayAction::kGone410}) {
    if (OverlayActionName(a) == name) {
      *out = a;
      return true;
    }
  }
  return false;
}

StatusOr<std::vector<OverlayEntry>> ReadOverlay(const EvolvedWeb& web, int round) {
  if (Status s = CheckRound(web, round); !s.ok()) return s;
  const std::string path = RoundDir(web.dir, round) + "/overlay.tsv";
  bool ok = false;
  std::string text = ReadWholeFile(path, &ok);
  if (!ok) return Status::Error("cannot read " + path + " (evolved web damaged?)");
  std::vector<OverlayEntry> out;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1) {
      if (line != "url\taction") return Status::Error(path + ": line 1 is not the header url action");
      continue;
    }
    if (line.empty()) continue;
    size_t tab = line.find('\t');
    OverlayEntry e;
    if (tab == std::string::npos || !ParseOverlayAction(std::string_view(line).substr(tab + 1), &e.action)) {
      return Status::Error(path + ":" + std::to_string(line_no) + ": expected url<TAB>page|base|hidden|404|410");
    }
    e.url = line.substr(0, tab);
    out.push_back(std::move(e));
  }
  return out;
}

StatusOr<std::map<std::string, ServedState>> FoldOverlays(const EvolvedWeb& web, int round) {
  if (Status s = CheckRound(web, round); !s.ok()) return s;
  std::map<std::string, ServedState> state;
  for (int k = 0; k <= round; ++k) {
    auto overlay = ReadOverlay(web, k);
    if (!overlay.ok()) return overlay.status();
    for (OverlayEntry& e : *overlay) state[std::move(e.url)] = ServedState{e.action, k};
  }
  return state;
}

std::string OverlayFilePath(const std::string& dir, int round, std::string_view url) {
  std::string host, path;
  if (!SplitLabelUrl(url, &host, &path) || !SafeStoredPath(path) ||
      host.find('/') != std::string::npos || host == "." || host == "..") {
    return {};
  }
  return RoundDir(dir, round) + "/pages/" + host + path;
}

StatusOr<RoundNginx> RenderRoundNginx(const EvolvedWeb& web, int round) {
  auto state = FoldOverlays(web, round);
  if (!state.ok()) return state.status();
  RoundNginx out;
  std::vector<std::pair<std::string, std::string>> map;  // key, value
  for (const auto& [url, st] : *state) {
    std::string host, path;
    if (!SplitLabelUrl(url, &host, &path)) {
      ++out.skipped;
      continue;
    }
    std::string value;
    switch (st.action) {
      case OverlayAction::kBase: continue;
      case OverlayAction::kHidden:
      case OverlayAction::kGone404: value = "404"; break;
      case OverlayAction::kGone410: value = "410"; break;
      case OverlayAction::kPage:
        value = std::string(kInternalPrefix) + std::to_string(st.round) + "/pages/" + host + path;
        break;
    }
    if (!NginxValueSafe(host + path)) {
      ++out.skipped;
      continue;
    }
    map.emplace_back(host + path, value);
    constexpr std::string_view kIndex = "/index.html";
    if (path.size() >= kIndex.size() && path.compare(path.size() - kIndex.size(), kIndex.size(), kIndex) == 0) {
      map.emplace_back(host + path.substr(0, path.size() - kIndex.size() + 1), value);
    }
  }
  // The round's robots.txt, sitemaps and feeds (web/announce_writer.h).
  const fs::path announce = fs::path(web.dir) / "rounds" / std::to_string(round) / "announce";
  std::error_code ec;
  if (fs::is_directory(announce, ec)) {
    for (auto it = fs::recursive_directory_iterator(announce, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file()) continue;
      std::string rel = fs::relative(it->path(), announce, ec).string();
      if (!NginxValueSafe(rel)) {
        ++out.skipped;
        continue;
      }
      map.emplace_back(rel, std::string(kInternalPrefix) + std::to_string(round) + "/announce/" + rel);
    }
  }
  size_t longest = 0;
  for (const auto& [k, v] : map) longest = std::max(longest, k.size());
  std::ostringstream http;
  http << "  # Round " << round << " of the evolved web " << web.dir << " (" << map.size()
       << " map entries).\n"
       << "  map_hash_max_size " << std::max<size_t>(2048, NextPow2(map.size() * 2)) << ";\n"
       << "  map_hash_bucket_size " << std::max<size_t>(128, NextPow2(longest + 64)) << ";\n"
       << "  map $host$uri $topicrawl_round {\n    default \"\";\n";
  for (const auto& [k, v] : map) http << "    " << Quote(k) << ' ' << Quote(v) << ";\n";
  http << "  }\n";
  out.http = http.str();
  out.entries = map.size();
  std::ostringstream server;
  server << "    # Evolved web, round " << round << ": gone and unpublished pages, then overlay files.\n"
         << "    if ($topicrawl_round = 404) { return 404; }\n"
         << "    if ($topicrawl_round = 410) { return 410; }\n"
         << "    if ($topicrawl_round) { rewrite ^ $topicrawl_round last; }\n"
         << "    location ^~ " << Quote(kInternalPrefix) << " { internal; alias "
         << Quote(web.dir + "/rounds/") << "; }\n";
  out.server = server.str();
  return out;
}

Status PrepareEvolvedDir(const std::string& dir_in, bool force, const std::string& what) {
  const std::string dir = Absolute(dir_in);
  const bool interrupted = fs::exists(dir + "/EVOLVING");
  const bool complete = fs::exists(dir + "/evolve.tsv");
  if ((interrupted || complete) && !force) {
    return Status::Error(dir + (interrupted ? " holds an interrupted evolution" : " already holds an evolved web") +
                         ": nothing was changed. Pass --force to replace its rounds, or choose another directory");
  }
  std::error_code ec;
  if (force) {
    for (const char* sub : {"/EVOLVING", "/evolve.tsv", "/rounds", "/truth"}) {
      fs::remove_all(dir + sub, ec);
      if (ec) return Status::Error("cannot remove " + dir + sub + ": " + ec.message());
    }
  }
  fs::create_directories(dir, ec);
  if (ec) return Status::Error("cannot create " + dir + ": " + ec.message());
  std::time_t now = std::time(nullptr);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return WriteWholeFile(dir + "/EVOLVING", what + ", pid " + std::to_string(::getpid()) +
                                               ", started " + when + "\n");
}

Status FinishEvolvedDir(const std::string& dir_in, const std::map<std::string, std::string>& meta) {
  const std::string dir = Absolute(dir_in);
  std::string text = "# topicrawl evolved web (docs/guides/rounds.md)\nformat\t" + std::string(kFormat) + "\n";
  for (const auto& [k, v] : meta) {
    if (k != "format") text += k + "\t" + v + "\n";
  }
  const std::string tmp = dir + "/evolve.tsv.tmp";
  if (Status s = WriteWholeFile(tmp, text); !s.ok()) return s;
  std::error_code ec;
  fs::rename(tmp, dir + "/evolve.tsv", ec);
  if (ec) return Status::Error("cannot rename " + tmp + ": " + ec.message());
  fs::remove(dir + "/EVOLVING", ec);
  if (ec) return Status::Error("cannot remove " + dir + "/EVOLVING: " + ec.message());
  return Status::Ok();
}

Status WriteOverlay(const std::string& dir, int round, std::vector<OverlayEntry> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const OverlayEntry& a, const OverlayEntry& b) { return a.url < b.url; });
  std::string text = "url\taction\n";
  for (const OverlayEntry& e : entries) {
    text += e.url;
    text += '\t';
    text += OverlayActionName(e.action);
    text += '\n';
  }
  return WriteWholeFile(RoundDir(Absolute(dir), round) + "/overlay.tsv", text);
}

std::string_view TruthStateName(TruthState s) {
  switch (s) {
    case TruthState::kNew: return "new";
    case TruthState::kChanged: return "changed";
    case TruthState::kUnchanged: return "unchanged";
    case TruthState::kGone: return "gone";
  }
  return "?";
}

Status WriteRoundTruth(const std::string& dir, int round, std::vector<TruthRow> rows,
                       std::vector<HubRow> hubs) {
  std::sort(rows.begin(), rows.end(), [](const TruthRow& a, const TruthRow& b) { return a.url < b.url; });
  std::sort(hubs.begin(), hubs.end(), [](const HubRow& a, const HubRow& b) { return a.url < b.url; });
  std::string text = "url\tstate\n";
  for (const TruthRow& r : rows) {
    text += r.url;
    text += '\t';
    text += TruthStateName(r.state);
    text += '\n';
  }
  const std::string truth = Absolute(dir) + "/truth";
  if (Status s = WriteWholeFile(truth + "/round-" + std::to_string(round) + ".tsv", text); !s.ok()) return s;
  text = "url\tnew_links\n";
  for (const HubRow& h : hubs) text += h.url + "\t" + std::to_string(h.new_links) + "\n";
  return WriteWholeFile(truth + "/hubs-" + std::to_string(round) + ".tsv", text);
}

StatusOr<std::vector<std::map<TruthState, size_t>>> ComputeAndWriteTruth(
    const EvolvedWeb& web, const std::vector<std::string>& base_urls, const LinksAt& links_at) {
  // present[url] per round, computed incrementally.
  std::unordered_map<std::string, bool> present;
  for (const std::string& u : base_urls) present[u] = true;
  std::vector<std::map<TruthState, size_t>> counts;
  for (int k = 0; k <= web.rounds; ++k) {
    auto overlay = ReadOverlay(web, k);
    if (!overlay.ok()) return overlay.status();
    std::unordered_map<std::string, bool> was = present;
    std::unordered_set<std::string> touched;
    for (const OverlayEntry& e : *overlay) {
      present[e.url] = IsPresent(e.action);
      touched.insert(e.url);
    }
    std::vector<TruthRow> rows;
    std::unordered_set<std::string> fresh;
    std::map<TruthState, size_t> count;
    for (const auto& [url, now] : present) {
      bool before = k > 0 && was.count(url) != 0 && was[url];
      if (!before && !now) continue;
      TruthState s = !before ? TruthState::kNew
                     : !now  ? TruthState::kGone
                     : touched.count(url) != 0 ? TruthState::kChanged
                                               : TruthState::kUnchanged;
      if (s == TruthState::kNew) fresh.insert(url);
      ++count[s];
      rows.push_back({url, s});
    }
    std::vector<HubRow> hubs;
    for (const auto& [url, now] : present) {
      if (!now || fresh.empty()) continue;
      std::unordered_set<std::string> targets;
      for (const std::string& t : links_at(url, k)) {
        if (t != url && fresh.count(t) != 0) targets.insert(t);
      }
      if (!targets.empty()) hubs.push_back({url, targets.size()});
    }
    if (Status s = WriteRoundTruth(web.dir, k, std::move(rows), std::move(hubs)); !s.ok()) return s;
    counts.push_back(std::move(count));
  }
  return counts;
}

std::string TruthLabelCounts(const std::string& truth_text, int round,
                             const std::function<std::optional<bool>(const std::string&)>& label) {
  std::map<std::string, std::array<size_t, 3>> counts;  // state -> all, relevant, unlabelled
  std::istringstream in(truth_text);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    auto& c = counts[line.substr(tab + 1)];
    ++c[0];
    std::optional<bool> rel = label(line.substr(0, tab));
    if (!rel) ++c[2];
    else if (*rel) ++c[1];
  }
  std::string out = "round " + std::to_string(round) + ":";
  for (const char* state : {"new", "changed", "unchanged", "gone"}) {
    const auto& c = counts[state];
    out += " " + std::string(state) + " " + std::to_string(c[0]) + " (relevant " + std::to_string(c[1]);
    if (c[2] > 0) out += ", unlabelled " + std::to_string(c[2]);
    out += ")";
  }
  return out;
}

StatusOr<std::string> ReadTruthText(const EvolvedWeb& web, int round, bool hubs) {
  if (Status s = CheckRound(web, round); !s.ok()) return s;
  const std::string path = web.dir + "/truth/" + (hubs ? "hubs-" : "round-") + std::to_string(round) + ".tsv";
  bool ok = false;
  std::string text = ReadWholeFile(path, &ok);
  if (!ok) return Status::Error("cannot read " + path + " (evolved web damaged?)");
  return text;
}

}  // namespace topicrawl::web
