#include "web/version_rounds.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <sstream>
#include <unordered_map>

#include "web/evolved_web.h"
#include "web/html_links.h"
#include "web/site_index.h"
#include "web/subprocess.h"
#include "web/web_builder.h"

namespace topicrawl::web {
namespace fs = std::filesystem;
namespace {

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

bool VersionLess(const std::string& a, const std::string& b) {
  return RunCommand({"dpkg", "--compare-versions", a, "lt", b}, Captured("/dev/null")).ok();
}

std::string FieldValue(const std::string& text, const std::string& field) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ": ", 0) == 0) return line.substr(field.size() + 2);
  }
  return {};
}

// D/debs/<package>_*.deb of exactly `version`, downloading it if missing.
StatusOr<std::string> DebOf(const std::string& dir, const std::string& package, const std::string& version) {
  const std::string debs = dir + "/debs";
  auto find = [&]() -> std::string {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(debs, ec)) {
      std::string name = e.path().filename().string();
      if (name.rfind(package + "_", 0) != 0 || e.path().extension() != ".deb") continue;
      RunResult r = RunCommand({"dpkg-deb", "-f", e.path().string(), "Package", "Version"},
                               Captured(dir + "/logs/command.log"));
      if (r.ok() && FieldValue(r.output, "Package") == package && FieldValue(r.output, "Version") == version) {
        return e.path().string();
      }
    }
    return {};
  };
  std::string have = find();
  if (!have.empty()) return have;
  RunResult r = RunCommand({"apt-get", "download", package + "=" + version}, Captured(dir + "/logs/apt-get.log", debs));
  have = find();
  if (!r.ok() || have.empty()) {
    return Status::Error("apt-get download " + package + "=" + version + " failed:\n" + r.output);
  }
  return have;
}

// Served HTML of `package`'s manifest rows in a tree holding only that package.
StatusOr<std::map<std::string, std::string>> ServedFiles(const Manifest& manifest, const std::string& package,
                                                         const std::string& tree) {
  Manifest sub;
  for (const ManifestRow& row : manifest.rows) {
    if (row.package == package) sub.rows.push_back(row);
  }
  std::map<std::string, std::string> out;
  std::set<std::string> roots;
  for (const ManifestRow& row : sub.rows) roots.insert(row.html_root);
  for (const ManifestRow& row : sub.rows) {
    if (!fs::is_directory(tree + "/" + row.html_root)) return out;  // package left this directory: all gone
  }
  StatusOr<std::vector<SiteFile>> files = ListServedHtml(sub, tree);
  if (!files.ok()) return files.status();
  for (const SiteFile& f : *files) {
    for (const ManifestRow& row : sub.rows) {
      if (row.host == f.host && UrlForFile(row, f.relpath) == f.url) {
        out[f.url] = tree + "/" + row.html_root + "/" + f.relpath;
        break;
      }
    }
  }
  return out;
}

Status Extract(const std::string& dir, const std::string& deb, const std::string& tree) {
  std::error_code ec;
  fs::remove_all(tree, ec);
  fs::create_directories(tree, ec);
  RunResult r = RunCommand({"dpkg-deb", "-x", deb, tree}, Captured(dir + "/logs/dpkg-deb.log"));
  if (!r.ok()) return Status::Error("dpkg-deb -x " + deb + " failed:\n" + r.output);
  return Status::Ok();
}

}  // namespace

std::vector<std::string> ParseMadison(const std::string& output) {
  std::vector<std::string> out;
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    size_t a = line.find('|');
    if (a == std::string::npos) continue;
    size_t b = line.find('|', a + 1);
    if (b == std::string::npos) continue;
    std::string v = Trim(line.substr(a + 1, b - a - 1));
    if (!v.empty() && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

StatusOr<std::vector<std::string>> ArchiveVersions(const std::string& package) {
  const std::string log = (fs::temp_directory_path() / ("topicrawl-madison-" + std::to_string(::getpid()))).string();
  RunResult r = RunCommand({"apt-cache", "madison", package}, Captured(log));
  std::error_code ec;
  fs::remove(log, ec);
  std::vector<std::string> versions = ParseMadison(r.output);
  if (!r.ok() || versions.empty()) {
    return Status::Error("apt-cache madison " + package + " lists no version (has `apt-get update` run?)" +
                         (r.output.empty() ? "" : ":\n" + r.output));
  }
  // Oldest first (a handful of versions: insertion sort with dpkg's order).
  for (size_t i = 1; i < versions.size(); ++i) {
    for (size_t j = i; j > 0 && VersionLess(versions[j], versions[j - 1]); --j) std::swap(versions[j], versions[j - 1]);
  }
  return versions;
}

namespace {

void VersionsLog(std::ostream* log, const std::string& line) {
  if (log != nullptr) *log << "web build: " << line << std::endl;
}

// Every package's versions, oldest first (given or from the archive), and
// report->rounds = the most versions - 1.
Status CollectVersions(const Manifest& manifest, const VersionRoundsOptions& o, VersionRoundsReport* report) {
  size_t rounds = 1;
  for (const std::string& p : manifest.Packages()) {
    auto it = o.versions.find(p);
    std::vector<std::string> v;
    if (it != o.versions.end()) {
      v = it->second;
    } else {
      auto got = ArchiveVersions(p);
      if (!got.ok()) return got.status();
      v = std::move(*got);
    }
    if (v.empty()) return Status::Error("no version of " + p);
    VersionsLog(o.log, p + ": " + std::to_string(v.size()) + " version(s), oldest " + v.front() + ", newest " +
                           v.back());
    rounds = std::max(rounds, v.size());
    report->versions[p] = std::move(v);
  }
  report->rounds = static_cast<int>(rounds) - 1;
  return Status::Ok();
}

// D/root must not hold other versions of these packages (files would mix).
Status CheckRootHoldsOldest(const std::string& dir, const VersionRoundsReport& report) {
  for (const auto& [p, v] : report.versions) {
    bool ok = false;
    std::string stamp = ReadWholeFile(dir + "/extracted/" + p, &ok);
    std::string plain = v.front().substr(v.front().find(':') == std::string::npos ? 0 : v.front().find(':') + 1);
    if (ok && stamp.find("_" + plain + "_") == std::string::npos) {
      return Status::Error(dir + "/root already holds " + p + " from " + Trim(stamp) + ", not its oldest version " +
                           v.front() + ": build the version rounds into a new directory");
    }
  }
  return Status::Ok();
}

// Round 0: BuildWeb with every package pinned to its oldest version.
Status BuildRoundZero(const Manifest& manifest, const VersionRoundsOptions& o, const std::string& dir,
                      VersionRoundsReport* report) {
  BuildOptions build;
  build.dir = dir;
  build.manifest_text = o.manifest_text;
  build.log = o.log;
  for (const auto& [p, v] : report->versions) build.pins[p] = PackagePin{p, v.front(), "", 0};
  StatusOr<BuildReport> built = BuildWeb(manifest, build);
  if (!built.ok()) return built.status();
  report->new_pages.push_back(built->html_pages);
  report->changed_pages.push_back(0);
  report->gone_pages.push_back(0);
  return WriteOverlay(dir, 0, {});
}

// One round's overlay while it is collected; files[url] = the overlay file
// serving url in this round (for the truth's links).
struct VersionRound {
  int k = 0;
  std::vector<OverlayEntry> entries;
  std::unordered_map<std::string, std::string> files;
  size_t added = 0, changed = 0, gone = 0;
};

// The served HTML of package p in versions `from` and `to`, extracted to
// D/versions-scratch/{old,new}.
struct VersionPair {
  std::map<std::string, std::string> before, after;  // url -> file
};

StatusOr<VersionPair> ExtractPair(const Manifest& manifest, const std::string& dir, const std::string& p,
                                  const std::string& from, const std::string& to) {
  const std::string scratch = dir + "/versions-scratch";
  auto old_deb = DebOf(dir, p, from);
  if (!old_deb.ok()) return old_deb.status();
  auto new_deb = DebOf(dir, p, to);
  if (!new_deb.ok()) return new_deb.status();
  if (Status s = Extract(dir, *old_deb, scratch + "/old"); !s.ok()) return s;
  if (Status s = Extract(dir, *new_deb, scratch + "/new"); !s.ok()) return s;
  auto before = ServedFiles(manifest, p, scratch + "/old");
  if (!before.ok()) return before.status();
  auto after = ServedFiles(manifest, p, scratch + "/new");
  if (!after.ok()) return after.status();
  return VersionPair{std::move(*before), std::move(*after)};
}

// Adds the pages of `pair` that are new, changed or gone to round r.
Status DiffVersions(const std::string& dir, const VersionPair& pair, VersionRound* r) {
  std::error_code ec;
  for (const auto& [url, file] : pair.after) {
    auto old = pair.before.find(url);
    bool ok_a = false, ok_b = false;
    std::string now = ReadWholeFile(file, &ok_a);
    if (old != pair.before.end() && ReadWholeFile(old->second, &ok_b) == now) continue;
    std::string path = OverlayFilePath(dir, r->k, url);
    if (path.empty()) return Status::Error("cannot store a version of " + url);
    if (Status s = WriteWholeFile(path, now); !s.ok()) return s;
    fs::last_write_time(path, fs::last_write_time(file, ec), ec);
    r->entries.push_back({url, OverlayAction::kPage});
    r->files[url] = path;
    (old == pair.before.end() ? r->added : r->changed)++;
  }
  for (const auto& [url, file] : pair.before) {
    if (pair.after.count(url) != 0) continue;
    r->entries.push_back({url, OverlayAction::kGone404});
    r->files.erase(url);
    ++r->gone;
  }
  return Status::Ok();
}

// Round k: every package with a k-th version moves from version k - 1 to k.
Status BuildVersionRound(const Manifest& manifest, const std::string& dir, std::ostream* log, VersionRound* r,
                         VersionRoundsReport* report) {
  const size_t k = static_cast<size_t>(r->k);
  for (const auto& [p, v] : report->versions) {
    if (k >= v.size()) continue;
    StatusOr<VersionPair> pair = ExtractPair(manifest, dir, p, v[k - 1], v[k]);
    if (!pair.ok()) return pair.status();
    if (Status s = DiffVersions(dir, *pair, r); !s.ok()) return s;
    VersionsLog(log, "round " + std::to_string(k) + ": " + p + " " + v[k - 1] + " -> " + v[k]);
  }
  std::error_code ec;
  fs::remove_all(dir + "/versions-scratch", ec);
  if (Status s = WriteOverlay(dir, r->k, std::move(r->entries)); !s.ok()) return s;
  report->new_pages.push_back(r->added);
  report->changed_pages.push_back(r->changed);
  report->gone_pages.push_back(r->gone);
  VersionsLog(log, "round " + std::to_string(k) + ": " + std::to_string(r->added) + " new, " +
                       std::to_string(r->changed) + " changed, " + std::to_string(r->gone) + " gone pages");
  return Status::Ok();
}

// The truth of every round from the pages' links as served in that round,
// then D/evolve.tsv.
Status FinishVersionRounds(const std::string& dir, const VersionRoundsReport& report,
                           const std::vector<std::unordered_map<std::string, std::string>>& overlay_files) {
  StatusOr<BaseWeb> base = LoadBaseWeb(dir);
  if (!base.ok()) return base.status();
  std::unordered_map<std::string, std::string> base_file;
  for (size_t i = 0; i < base->urls.size(); ++i) base_file[base->urls[i]] = base->files[i];
  EvolvedWeb web;
  web.dir = dir;
  web.mode = "versions";
  web.base = dir;
  web.rounds = report.rounds;
  auto links_at = [&](const std::string& url, int k) {
    const auto& files = overlay_files[static_cast<size_t>(k)];
    auto it = files.find(url);
    std::string path = it != files.end() ? it->second : base_file[url];
    bool ok = false;
    std::string html = ReadWholeFile(path, &ok);
    return ok ? PageLinks(html, url) : std::vector<std::string>{};
  };
  auto counts = ComputeAndWriteTruth(web, base->urls, links_at);
  if (!counts.ok()) return counts.status();
  std::map<std::string, std::string> meta = {
      {"mode", "versions"}, {"base", dir}, {"rounds", std::to_string(report.rounds)}};
  for (const auto& [p, v] : report.versions) {
    std::string list;
    for (const std::string& x : v) list += (list.empty() ? "" : " ") + x;
    meta["versions." + p] = list;
  }
  return FinishEvolvedDir(dir, meta);
}

}  // namespace

StatusOr<VersionRoundsReport> BuildVersionRounds(const Manifest& manifest, const VersionRoundsOptions& o) {
  auto start = std::chrono::steady_clock::now();
  VersionRoundsReport report;
  std::error_code ec;
  fs::create_directories(o.dir, ec);
  const std::string dir = fs::absolute(o.dir, ec).lexically_normal().string();
  if (Status s = CollectVersions(manifest, o, &report); !s.ok()) return s;
  if (Status s = CheckRootHoldsOldest(dir, report); !s.ok()) return s;
  if (Status s = PrepareEvolvedDir(dir, o.force, "topicrawl web build --rounds versions"); !s.ok()) return s;
  if (Status s = BuildRoundZero(manifest, o, dir, &report); !s.ok()) return s;
  const size_t rounds = static_cast<size_t>(report.rounds) + 1;
  std::vector<std::unordered_map<std::string, std::string>> overlay_files(rounds);
  for (size_t k = 1; k < rounds; ++k) {
    VersionRound r;
    r.k = static_cast<int>(k);
    r.files = overlay_files[k - 1];
    if (Status s = BuildVersionRound(manifest, dir, o.log, &r, &report); !s.ok()) return s;
    overlay_files[k] = std::move(r.files);
  }
  if (Status s = FinishVersionRounds(dir, report, overlay_files); !s.ok()) return s;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace topicrawl::web
