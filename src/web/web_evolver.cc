#include "web/web_evolver.h"

#include <sys/stat.h>
#include <utime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>
#include <unordered_map>

#include "web/evolved_web.h"
#include "web/html_links.h"

namespace topicrawl::web {
namespace fs = std::filesystem;
namespace {

// Overlay files of round K get this mtime + K days (2026-01-01T00:00:00Z).
constexpr long kOverlayEpoch = 1767225600;  // 2026-01-01

// Round 0's date: 2026-01-01, or the day after the newest base page's
// mtime when a package was built later (a kernel point release of 2026),
// so that every edit is dated after every page it replaces: nginx's
// Last-Modified and the sitemaps' <lastmod> then order versions as time does.
long OverlayEpoch(const BaseWeb& base) {
  long newest = 0;
  struct stat st {};
  for (const std::string& f : base.files) {
    if (::stat(f.c_str(), &st) == 0) newest = std::max<long>(newest, st.st_mtime);
  }
  long day_after = (newest / 86400 + 1) * 86400;
  return std::max(kOverlayEpoch, day_after);
}

std::string FormatRate(double r) {
  std::ostringstream s;
  s << r;
  return s.str();
}

// Home pages (host<TAB>home_url<TAB>role, header optional) -> page indices.
StatusOr<std::vector<uint32_t>> ReadRoots(const std::string& path,
                                          const std::unordered_map<std::string, uint32_t>& index) {
  bool ok = false;
  std::string text = ReadWholeFile(path, &ok);
  if (!ok) return Status::Error("cannot read homes file " + path);
  std::vector<uint32_t> roots;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  size_t unknown = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#' || line.rfind("host\t", 0) == 0) continue;
    size_t t1 = line.find('\t');
    if (t1 == std::string::npos) {
      return Status::Error(path + ":" + std::to_string(line_no) + ": expected host<TAB>home_url<TAB>role");
    }
    size_t t2 = line.find('\t', t1 + 1);
    std::string url = ResolveLabelUrl("", line.substr(t1 + 1, t2 == std::string::npos ? std::string::npos : t2 - t1 - 1));
    auto it = index.find(url);
    if (it == index.end()) {
      ++unknown;
      continue;
    }
    roots.push_back(it->second);
  }
  if (roots.empty()) {
    return Status::Error(path + ": none of its " + std::to_string(unknown) +
                         " home pages is a page of this web (homes of another web?)");
  }
  return roots;
}

}  // namespace

std::string ApplyEdit(std::string html, const EditContext& ctx,
                      const std::function<std::string(uint32_t)>& read_donor) {
  const uint64_t round = static_cast<uint64_t>(ctx.round);
  std::string text;
  for (uint64_t attempt = 0; attempt < 8 && text.empty() && !ctx.same_host.empty(); ++attempt) {
    uint32_t donor = ctx.same_host[PlanHash(ctx.seed, ctx.page, round, 100 + attempt) % ctx.same_host.size()];
    if (donor == ctx.page) continue;
    std::vector<std::string> blocks = TextBlocks(read_donor(donor));
    if (blocks.empty()) continue;
    size_t first = PlanHash(ctx.seed, ctx.page, round, 200 + attempt) % blocks.size();
    size_t count = 1 + PlanHash(ctx.seed, ctx.page, round, 300 + attempt) % 3;
    for (size_t j = first; j < blocks.size() && j < first + count && text.size() < 1500; ++j) {
      if (!text.empty()) text += ' ';
      text += blocks[j];
    }
  }
  if (text.empty()) {
    // No other page of the host has paragraphs: move one of the page's own.
    std::vector<std::string> own = TextBlocks(html, 1);
    text = own.empty() ? "Updated in round " + std::to_string(ctx.round) + "."
                       : own[PlanHash(ctx.seed, ctx.page, round, 400) % own.size()];
  }
  if (PlanRandom(ctx.seed, ctx.page, round, 500) < 0.5) {
    std::vector<std::pair<size_t, size_t>> spans = LinklessParagraphs(html);
    if (spans.size() >= 3) {
      auto [b, e] = spans[PlanHash(ctx.seed, ctx.page, round, 501) % spans.size()];
      html.erase(b, e - b);
    }
  }
  size_t slot = 1 + PlanHash(ctx.seed, ctx.page, round, 600) % (CountParagraphEnds(html) + 1);
  html.insert(InsertionPoint(html, slot), "\n<p>" + text + "</p>\n");
  return html;
}

StatusOr<EvolveGraph> BuildEvolveGraph(const BaseWeb& base, const std::vector<std::string>& hosts,
                                       const std::string& homes_file) {
  EvolveGraph g;
  const size_t n = base.urls.size();
  g.index.reserve(n * 2);
  for (uint32_t i = 0; i < n; ++i) g.index.emplace(base.urls[i], i);
  g.included.assign(n, 1);
  if (!hosts.empty()) {
    std::set<std::string> wanted(hosts.begin(), hosts.end());
    size_t kept = 0;
    for (uint32_t i = 0; i < n; ++i) {
      g.included[i] = wanted.count(base.hosts[i]) != 0;
      kept += g.included[i];
    }
    if (kept == 0) return Status::Error("--hosts: none of the given hosts is a host of " + base.dir);
    g.graph.rate_base = kept;
  }
  if (!homes_file.empty()) {
    auto roots = ReadRoots(homes_file, g.index);
    if (!roots.ok()) return roots.status();
    for (uint32_t r : *roots) {
      if (g.included[r]) g.graph.roots.push_back(r);
    }
    if (g.graph.roots.empty()) return Status::Error(homes_file + ": no home page on the --hosts given");
  }
  g.graph.links.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (!g.included[i]) continue;
    bool ok = false;
    std::string html = ReadWholeFile(base.files[i], &ok);
    if (!ok) return Status::Error("cannot read " + base.files[i] + " (site index out of date?)");
    for (const std::string& t : PageLinks(html, base.urls[i])) {
      auto it = g.index.find(t);
      if (it != g.index.end() && g.included[it->second]) g.graph.links[i].push_back(it->second);
    }
    g.links += g.graph.links[i].size();
  }
  if (g.graph.roots.empty()) RootsFromUnlinkedPages(g.included, &g.graph);  // no homes
  return g;
}

namespace {

void EvolveLog(std::ostream* log, const std::string& line) {
  if (log != nullptr) *log << "web evolve: " << line << std::endl;
}

// E as an absolute path without a trailing slash; never inside D/root.
StatusOr<std::string> EvolveOutDir(const WebEvolveOptions& o, const BaseWeb& base) {
  std::error_code ec;
  std::string out = o.out_dir.empty() ? base.dir : fs::absolute(o.out_dir, ec).lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (out == base.root || out.rfind(base.root + "/", 0) == 0) {
    return Status::Error("--out must not be inside the served tree " + base.root);
  }
  return out;
}

// One evolution being written: its inputs, its plan and where it goes.
struct Evolution {
  const WebEvolveOptions& o;
  const BaseWeb& base;
  const EvolveGraph& built;
  const EvolvePlan& plan;
  std::string out;
  long epoch = 0;
  std::unordered_map<std::string, std::vector<uint32_t>> by_host;  // host -> pages (edit donors)
};

std::string BaseHtml(const BaseWeb& base, uint32_t i) {
  bool ok = false;
  return ReadWholeFile(base.files[i], &ok);
}

// Page i's bytes in round k: the base file, the edits of rounds <= k, the
// links to pages not yet published removed.
std::string PageAt(const Evolution& ev, uint32_t i, int k) {
  std::string html = BaseHtml(ev.base, i);
  EditContext ctx{ev.o.evolve.seed, i, 0, ev.by_host.at(ev.base.hosts[i])};
  auto read_base = [&](uint32_t d) { return BaseHtml(ev.base, d); };
  for (int r : ev.plan.pages[i].edit_rounds) {
    if (r > k) break;
    ctx.round = r;
    html = ApplyEdit(std::move(html), ctx, read_base);
  }
  RemoveLinks(&html, ev.base.urls[i], [&](const std::string& target) {
    auto it = ev.built.index.find(target);
    return it != ev.built.index.end() && ev.plan.pages[it->second].publish_round > k;
  });
  return html;
}

// Whether present page i may serve other bytes in round k than in k - 1:
// published or edited in k, or linking to a page whose visibility changes.
bool MayChangeIn(const Evolution& ev, uint32_t i, int k) {
  const PagePlan& p = ev.plan.pages[i];
  bool need = k > 0 && (p.publish_round == k || p.EditedIn(k));
  const std::vector<uint32_t>& links = ev.built.graph.links[i];
  for (size_t j = 0; !need && j < links.size(); ++j) {
    int pub = ev.plan.pages[links[j]].publish_round;
    need = k == 0 ? pub > 0 : pub == k;
  }
  return need;
}

// Adds page i's overlay entry of round k (and its file) when it has one.
Status OverlayPage(const Evolution& ev, uint32_t i, int k, std::vector<OverlayEntry>* entries, size_t* files,
                   WebEvolveReport* report) {
  const PagePlan& p = ev.plan.pages[i];
  const std::string& url = ev.base.urls[i];
  if (k == 0 && p.publish_round > 0) {
    entries->push_back({url, OverlayAction::kHidden});
    return Status::Ok();
  }
  if (p.gone_round == k) {
    entries->push_back({url, p.gone_code == 410 ? OverlayAction::kGone410 : OverlayAction::kGone404});
    return Status::Ok();
  }
  if (!p.Present(k) || !MayChangeIn(ev, i, k)) return Status::Ok();
  std::string html = PageAt(ev, i, k);
  if (html == BaseHtml(ev.base, i)) {
    entries->push_back({url, OverlayAction::kBase});
    return Status::Ok();
  }
  std::string path = OverlayFilePath(ev.out, k, url);
  if (path.empty()) return Status::Error("cannot store a version of " + url);
  if (Status s = WriteWholeFile(path, html); !s.ok()) return s;
  const long mtime = ev.epoch + 86400L * k;
  utimbuf times{mtime, mtime};
  ::utime(path.c_str(), &times);
  report->overlay_bytes += html.size();
  ++*files;
  entries->push_back({url, OverlayAction::kPage});
  return Status::Ok();
}

Status WriteRoundOverlay(const Evolution& ev, int k, WebEvolveReport* report) {
  std::vector<OverlayEntry> entries;
  size_t files = 0;
  for (uint32_t i = 0; i < ev.base.urls.size(); ++i) {
    if (Status s = OverlayPage(ev, i, k, &entries, &files, report); !s.ok()) return s;
  }
  report->overlay_entries.push_back(entries.size());
  report->overlay_files.push_back(files);
  if (Status s = WriteOverlay(ev.out, k, std::move(entries)); !s.ok()) return s;
  EvolveLog(ev.o.log, "round " + std::to_string(k) + ": " + std::to_string(report->overlay_entries.back()) +
                          " overlay entries, " + std::to_string(files) + " page files");
  return Status::Ok();
}

EvolvedWeb SimulatedWeb(const Evolution& ev) {
  EvolvedWeb web;
  web.dir = ev.out;
  web.mode = "simulated";
  web.base = ev.base.dir;
  web.rounds = ev.plan.rounds;
  return web;
}

// The truth of every round: a page's links in round k are its base links to
// pages published by k.
Status WriteSimulatedTruth(const Evolution& ev) {
  auto links_at = [&](const std::string& url, int k) {
    std::vector<std::string> targets;
    auto it = ev.built.index.find(url);
    if (it == ev.built.index.end()) return targets;
    for (uint32_t t : ev.built.graph.links[it->second]) {
      if (ev.plan.pages[t].publish_round <= k) targets.push_back(ev.base.urls[t]);
    }
    return targets;
  };
  auto counts = ComputeAndWriteTruth(SimulatedWeb(ev), ev.base.urls, links_at);
  if (!counts.ok()) return counts.status();
  for (size_t k = 0; k < counts->size(); ++k) {
    auto& c = (*counts)[k];
    EvolveLog(ev.o.log, "truth round " + std::to_string(k) + ": new " + std::to_string(c[TruthState::kNew]) +
                            ", changed " + std::to_string(c[TruthState::kChanged]) + ", unchanged " +
                            std::to_string(c[TruthState::kUnchanged]) + ", gone " +
                            std::to_string(c[TruthState::kGone]));
  }
  return Status::Ok();
}

Status AnnounceEvolution(const Evolution& ev, WebEvolveReport* report) {
  AnnounceWebOptions ao = ev.o.announce;
  ao.seed = ev.o.evolve.seed;
  ao.epoch = ev.epoch;
  auto announced = WriteAnnouncements(SimulatedWeb(ev), ev.base, ev.o.hosts, ao);
  if (!announced.ok()) return announced.status();
  report->announce = *announced;
  EvolveLog(ev.o.log, "announcements: " + std::to_string(announced->announcing) + " of " +
                          std::to_string(announced->hosts) + " hosts with sitemaps and feeds, " +
                          std::to_string(announced->files) + " files");
  return Status::Ok();
}

// E/truth/rates.tsv: the true change probability of every page that evolves
// (bench-only: the oracle round policy, eval/round_oracle.h). Sorted by url.
Status WriteTrueRates(const Evolution& ev) {
  std::vector<std::pair<std::string, PageRate>> rows;
  for (uint32_t i = 0; i < ev.base.urls.size(); ++i) {
    const PagePlan& p = ev.plan.pages[i];
    if (!p.reachable || p.publish_round == kNever) continue;
    rows.push_back({ev.base.urls[i], TruePageRate(ev.plan, ev.built.graph, i)});
  }
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string text = "url\tchange_p\tedit_p\thub_share\n";
  char buf[96];
  for (const auto& [url, r] : rows) {
    std::snprintf(buf, sizeof buf, "\t%.6g\t%.6g\t%.6g\n", r.change_p, r.edit_p, r.hub_share);
    text += url;
    text += buf;
  }
  return WriteWholeFile(ev.out + "/truth/rates.tsv", text);
}

// E/evolve.tsv: the options that made the evolution and its size.
std::map<std::string, std::string> EvolveMeta(const Evolution& ev, const WebEvolveReport& report) {
  const WebEvolveOptions& o = ev.o;
  std::error_code ec;
  std::string host_list;
  for (const std::string& h : o.hosts) host_list += (host_list.empty() ? "" : ",") + h;
  return {
      {"mode", "simulated"},
      {"model", EvolveModelName(o.evolve.model)},
      {"rate_shape", FormatRate(o.evolve.rate_shape)},
      {"index_change_share", FormatRate(o.evolve.index_change_share)},
      {"hosts", host_list.empty() ? "-" : host_list},
      {"base", ev.base.dir},
      {"rounds", std::to_string(ev.plan.rounds)},
      {"seed", std::to_string(o.evolve.seed)},
      {"new_rate", FormatRate(o.evolve.new_rate)},
      {"change_rate", FormatRate(o.evolve.change_rate)},
      {"gone_rate", FormatRate(o.evolve.gone_rate)},
      {"hidden_at_start", FormatRate(o.evolve.HiddenAtStart())},
      {"volatile_share", FormatRate(o.evolve.volatile_share)},
      {"volatile_change_share", FormatRate(o.evolve.volatile_change_share)},
      {"homes", o.homes_file.empty() ? "-" : fs::absolute(o.homes_file, ec).string()},
      {"pages", std::to_string(ev.base.urls.size())},
      {"date_epoch", std::to_string(ev.epoch)},
      {"announce", o.announce.enabled ? "1" : "0"},
      {"sitemap_hosts", FormatRate(o.announce.sitemap_hosts)},
      {"lastmod_accuracy", FormatRate(o.announce.lastmod_accuracy)},
      {"lastmod_wrong", FormatRate(o.announce.lastmod_wrong)},
      {"feed_size", std::to_string(o.announce.feed_size)},
      {"reachable", std::to_string(report.reachable)},
  };
}

// Rounds 0..N, their truth, announcements and rates, then E/evolve.tsv.
Status WriteEvolution(Evolution& ev, WebEvolveReport* report) {
  for (uint32_t i = 0; i < ev.base.urls.size(); ++i) ev.by_host[ev.base.hosts[i]].push_back(i);
  for (int k = 0; k <= ev.plan.rounds; ++k) {
    if (Status s = WriteRoundOverlay(ev, k, report); !s.ok()) return s;
  }
  if (Status s = WriteSimulatedTruth(ev); !s.ok()) return s;
  if (ev.o.announce.enabled) {
    if (Status s = AnnounceEvolution(ev, report); !s.ok()) return s;
  }
  if (Status s = WriteTrueRates(ev); !s.ok()) return s;
  return FinishEvolvedDir(ev.out, EvolveMeta(ev, *report));
}

}  // namespace

StatusOr<WebEvolveReport> EvolveWeb(const WebEvolveOptions& o) {
  auto start = std::chrono::steady_clock::now();
  if (Status s = o.evolve.Validate(); !s.ok()) return s;
  StatusOr<BaseWeb> base = LoadBaseWeb(o.base_dir);
  if (!base.ok()) return base.status();
  StatusOr<std::string> out = EvolveOutDir(o, *base);
  if (!out.ok()) return out.status();
  EvolveLog(o.log, "reading " + std::to_string(base->urls.size()) + " pages of " + base->dir);
  StatusOr<EvolveGraph> built = BuildEvolveGraph(*base, o.hosts, o.homes_file);
  if (!built.ok()) return built.status();
  std::ostringstream what;
  what << "topicrawl web evolve --dir " << base->dir << " --rounds " << o.evolve.rounds << " --seed "
       << o.evolve.seed;
  if (Status s = PrepareEvolvedDir(*out, o.force, what.str()); !s.ok()) return s;
  StatusOr<EvolvePlan> plan = PlanEvolution(built->graph, o.evolve);
  if (!plan.ok()) return plan.status();
  WebEvolveReport report;
  report.pages = base->urls.size();
  report.links = built->links;
  for (const PagePlan& p : plan->pages) report.reachable += p.reachable ? 1 : 0;
  report.published = plan->published;
  report.edited = plan->edited;
  report.gone = plan->gone;
  EvolveLog(o.log, std::to_string(report.reachable) + " pages reachable from " +
                       std::to_string(built->graph.roots.size()) + " roots, " + std::to_string(report.links) +
                       " links; " + std::to_string(plan->published[0]) + " hidden at round 0");
  Evolution ev{o, *base, *built, *plan, *out, OverlayEpoch(*base), {}};
  if (Status s = WriteEvolution(ev, &report); !s.ok()) return s;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace topicrawl::web
