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

StatusOr<WebEvolveReport> EvolveWeb(const WebEvolveOptions& o) {
  auto start = std::chrono::steady_clock::now();
  auto log = [&](const std::string& line) {
    if (o.log != nullptr) *o.log << "web evolve: " << line << std::endl;
  };
  if (Status s = o.evolve.Validate(); !s.ok()) return s;
  StatusOr<BaseWeb> base_or = LoadBaseWeb(o.base_dir);
  if (!base_or.ok()) return base_or.status();
  const BaseWeb& base = *base_or;
  std::error_code ec;
  std::string out = o.out_dir.empty() ? base.dir : fs::absolute(o.out_dir, ec).lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (out == base.root || out.rfind(base.root + "/", 0) == 0) {
    return Status::Error("--out must not be inside the served tree " + base.root);
  }

  log("reading " + std::to_string(base.urls.size()) + " pages of " + base.dir);
  StatusOr<EvolveGraph> built = BuildEvolveGraph(base, o.hosts, o.homes_file);
  if (!built.ok()) return built.status();
  const size_t n = base.urls.size();
  const std::unordered_map<std::string, uint32_t>& index = built->index;
  const PageGraph& graph = built->graph;
  std::ostringstream what;
  what << "topicrawl web evolve --dir " << base.dir << " --rounds " << o.evolve.rounds << " --seed "
       << o.evolve.seed;
  if (Status s = PrepareEvolvedDir(out, o.force, what.str()); !s.ok()) return s;

  const long epoch = OverlayEpoch(base);
  WebEvolveReport report;
  report.pages = n;
  report.links = built->links;
  StatusOr<EvolvePlan> plan_or = PlanEvolution(graph, o.evolve);
  if (!plan_or.ok()) return plan_or.status();
  const EvolvePlan& plan = *plan_or;
  for (const PagePlan& p : plan.pages) report.reachable += p.reachable ? 1 : 0;
  report.published = plan.published;
  report.edited = plan.edited;
  report.gone = plan.gone;
  log(std::to_string(report.reachable) + " pages reachable from " + std::to_string(graph.roots.size()) +
      " roots, " + std::to_string(report.links) + " links; " + std::to_string(plan.published[0]) +
      " hidden at round 0");

  std::unordered_map<std::string, std::vector<uint32_t>> by_host;
  for (uint32_t i = 0; i < n; ++i) by_host[base.hosts[i]].push_back(i);
  auto read_base = [&](uint32_t i) {
    bool ok = false;
    return ReadWholeFile(base.files[i], &ok);
  };
  auto content = [&](uint32_t i, int k) {
    std::string html = read_base(i);
    EditContext ctx{o.evolve.seed, i, 0, by_host[base.hosts[i]]};
    for (int r : plan.pages[i].edit_rounds) {
      if (r > k) break;
      ctx.round = r;
      html = ApplyEdit(std::move(html), ctx, read_base);
    }
    RemoveLinks(&html, base.urls[i], [&](const std::string& target) {
      auto it = index.find(target);
      return it != index.end() && plan.pages[it->second].publish_round > k;
    });
    return html;
  };

  for (int k = 0; k <= plan.rounds; ++k) {
    std::vector<OverlayEntry> entries;
    size_t files = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const PagePlan& p = plan.pages[i];
      if (k == 0 && p.publish_round > 0) {
        entries.push_back({base.urls[i], OverlayAction::kHidden});
        continue;
      }
      if (p.gone_round == k) {
        entries.push_back({base.urls[i], p.gone_code == 410 ? OverlayAction::kGone410 : OverlayAction::kGone404});
        continue;
      }
      if (!p.Present(k)) continue;
      bool need = k > 0 && (p.publish_round == k || p.EditedIn(k));
      for (size_t j = 0; !need && j < graph.links[i].size(); ++j) {
        int pub = plan.pages[graph.links[i][j]].publish_round;
        need = k == 0 ? pub > 0 : pub == k;
      }
      if (!need) continue;
      std::string html = content(i, k);
      if (html == read_base(i)) {
        entries.push_back({base.urls[i], OverlayAction::kBase});
        continue;
      }
      std::string path = OverlayFilePath(out, k, base.urls[i]);
      if (path.empty()) return Status::Error("cannot store a version of " + base.urls[i]);
      if (Status s = WriteWholeFile(path, html); !s.ok()) return s;
      const long mtime = epoch + 86400L * k;
      utimbuf times{mtime, mtime};
      ::utime(path.c_str(), &times);
      report.overlay_bytes += html.size();
      ++files;
      entries.push_back({base.urls[i], OverlayAction::kPage});
    }
    report.overlay_entries.push_back(entries.size());
    report.overlay_files.push_back(files);
    if (Status s = WriteOverlay(out, k, std::move(entries)); !s.ok()) return s;
    log("round " + std::to_string(k) + ": " + std::to_string(report.overlay_entries.back()) +
        " overlay entries, " + std::to_string(files) + " page files");
  }

  EvolvedWeb web;
  web.dir = out;
  web.mode = "simulated";
  web.base = base.dir;
  web.rounds = plan.rounds;
  auto links_at = [&](const std::string& url, int k) {
    std::vector<std::string> targets;
    auto it = index.find(url);
    if (it == index.end()) return targets;
    for (uint32_t t : graph.links[it->second]) {
      if (plan.pages[t].publish_round <= k) targets.push_back(base.urls[t]);
    }
    return targets;
  };
  auto counts = ComputeAndWriteTruth(web, base.urls, links_at);
  if (!counts.ok()) return counts.status();
  for (size_t k = 0; k < counts->size(); ++k) {
    auto& c = (*counts)[k];
    log("truth round " + std::to_string(k) + ": new " + std::to_string(c[TruthState::kNew]) + ", changed " +
        std::to_string(c[TruthState::kChanged]) + ", unchanged " + std::to_string(c[TruthState::kUnchanged]) +
        ", gone " + std::to_string(c[TruthState::kGone]));
  }
  if (o.announce.enabled) {
    AnnounceWebOptions ao = o.announce;
    ao.seed = o.evolve.seed;
    ao.epoch = epoch;
    auto announced = WriteAnnouncements(web, base, o.hosts, ao);
    if (!announced.ok()) return announced.status();
    report.announce = *announced;
    log("announcements: " + std::to_string(announced->announcing) + " of " +
        std::to_string(announced->hosts) + " hosts with sitemaps and feeds, " +
        std::to_string(announced->files) + " files");
  }
  // The true change probability of every page that evolves (bench-only:
  // the oracle round policy, eval/round_oracle.h). Sorted by url.
  {
    std::vector<std::pair<std::string, PageRate>> rows;
    for (uint32_t i = 0; i < n; ++i) {
      const PagePlan& p = plan.pages[i];
      if (!p.reachable || p.publish_round == kNever) continue;
      rows.push_back({base.urls[i], TruePageRate(plan, graph, i)});
    }
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string text = "url\tchange_p\tedit_p\thub_share\n";
    char buf[96];
    for (const auto& [url, r] : rows) {
      std::snprintf(buf, sizeof buf, "\t%.6g\t%.6g\t%.6g\n", r.change_p, r.edit_p, r.hub_share);
      text += url;
      text += buf;
    }
    if (Status s = WriteWholeFile(out + "/truth/rates.tsv", text); !s.ok()) return s;
  }
  std::string host_list;
  for (const std::string& h : o.hosts) host_list += (host_list.empty() ? "" : ",") + h;
  std::map<std::string, std::string> meta = {
      {"mode", "simulated"},
      {"model", EvolveModelName(o.evolve.model)},
      {"rate_shape", FormatRate(o.evolve.rate_shape)},
      {"index_change_share", FormatRate(o.evolve.index_change_share)},
      {"hosts", host_list.empty() ? "-" : host_list},
      {"base", base.dir},
      {"rounds", std::to_string(plan.rounds)},
      {"seed", std::to_string(o.evolve.seed)},
      {"new_rate", FormatRate(o.evolve.new_rate)},
      {"change_rate", FormatRate(o.evolve.change_rate)},
      {"gone_rate", FormatRate(o.evolve.gone_rate)},
      {"hidden_at_start", FormatRate(o.evolve.HiddenAtStart())},
      {"volatile_share", FormatRate(o.evolve.volatile_share)},
      {"volatile_change_share", FormatRate(o.evolve.volatile_change_share)},
      {"homes", o.homes_file.empty() ? "-" : fs::absolute(o.homes_file, ec).string()},
      {"pages", std::to_string(n)},
      {"date_epoch", std::to_string(epoch)},
      {"announce", o.announce.enabled ? "1" : "0"},
      {"sitemap_hosts", FormatRate(o.announce.sitemap_hosts)},
      {"lastmod_accuracy", FormatRate(o.announce.lastmod_accuracy)},
      {"lastmod_wrong", FormatRate(o.announce.lastmod_wrong)},
      {"feed_size", std::to_string(o.announce.feed_size)},
      {"reachable", std::to_string(report.reachable)},
  };
  if (Status s = FinishEvolvedDir(out, meta); !s.ok()) return s;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace topicrawl::web
