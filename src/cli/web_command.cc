// `topicrawl web ...`: build, serve and stop the manifest-built benchmark
// webs (src/web/web_builder.h, nginx_web.h), list their pages, and run the
// synthetic web (src/web/synthetic_web.h).
#include <array>
#include <algorithm>
#include <csignal>
#include <map>
#include <optional>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "eval/labels.h"
#include "web/announce_writer.h"
#include "web/evolved_web.h"
#include "web/version_rounds.h"
#include "web/web_evolver.h"
#include "web/manifest.h"
#include "web/nginx_web.h"
#include "web/site_index.h"
#include "web/synthetic_web.h"
#include "web/synthetic_web_server.h"
#include "web/web_builder.h"

namespace topicrawl::cli {
namespace {

namespace fs = std::filesystem;

struct ManifestFlags {
  std::string manifest;
  std::string packages;
};

std::string ReadText(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void AddBuild(CLI::App& web, int* exit_code) {
  auto* cmd = web.add_subcommand(
      "build", "Download (apt-get), verify and extract a manifest's packages into DIR/root; "
               "write DIR/site-index.tsv");
  auto flags = std::make_shared<ManifestFlags>();
  auto dir = std::make_shared<std::string>();
  cmd->add_option("--manifest", flags->manifest, "Manifest TSV (host url_prefix package html_root exclude)")
      ->required();
  cmd->add_option("--dir", *dir, "Web directory (debs/, root/, site-index.tsv, ...)")->required();
  cmd->add_option("--packages", flags->packages,
                  "packages-*.tsv with exact versions and sha256 (package version deb_sha256)");
  auto rounds = std::make_shared<std::string>();
  auto force = std::make_shared<bool>(false);
  cmd->add_option("--rounds", *rounds,
                  "`versions`: one round per version the archive offers (apt-cache madison), oldest "
                  "first; round 0 in DIR/root, later rounds as overlays (docs/guides/rounds.md)");
  cmd->add_flag("--force", *force, "With --rounds: replace existing or interrupted rounds in DIR");
  cmd->callback([flags, dir, rounds, force, exit_code] {
    bool ok = false;
    std::string text = ReadText(flags->manifest, &ok);
    if (!ok) {
      std::cerr << "web build: cannot read " << flags->manifest << "\n";
      *exit_code = kExitUsage;
      return;
    }
    StatusOr<web::Manifest> manifest = web::ParseManifest(text, flags->manifest);
    if (!manifest.ok()) {
      std::cerr << "web build: " << manifest.status().message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    if (!rounds->empty()) {
      if (*rounds != "versions") {
        std::cerr << "web build: --rounds takes `versions` (simulated rounds: `topicrawl web evolve`)\n";
        *exit_code = kExitUsage;
        return;
      }
      if (!flags->packages.empty()) {
        std::cerr << "web build: --packages is ignored with --rounds versions (every archive version is used)\n";
      }
      web::VersionRoundsOptions vo;
      vo.dir = *dir;
      vo.manifest_text = text;
      vo.force = *force;
      vo.log = &std::cerr;
      auto report = web::BuildVersionRounds(*manifest, vo);
      if (!report.ok()) {
        std::cerr << "web build: " << report.status().message() << "\n";
        *exit_code = kExitFailure;
        return;
      }
      std::cerr << "web build: rounds 0.." << report->rounds << " in " << report->seconds << " s; serve with "
                << "`topicrawl web serve --dir " << *dir << " --round K`\n";
      *exit_code = kExitOk;
      return;
    }
    web::BuildOptions options;
    options.dir = *dir;
    options.manifest_text = text;
    options.log = &std::cerr;
    if (!flags->packages.empty()) {
      auto pins = web::ReadPackagePinsFile(flags->packages);
      if (!pins.ok()) {
        std::cerr << "web build: " << pins.status().message() << "\n";
        *exit_code = kExitUsage;
        return;
      }
      options.pins = std::move(*pins);
    }
    StatusOr<web::BuildReport> report = web::BuildWeb(*manifest, options);
    if (!report.ok()) {
      std::cerr << "web build: " << report.status().message() << "\n";
      *exit_code = kExitFailure;
      return;
    }
    std::cerr << "web build: " << report->html_pages << " HTML pages, " << report->downloaded
              << " downloaded, " << report->reused << " reused, " << report->extracted
              << " extracted, " << report->warnings.size() << " warnings, "
              << report->mismatches.size() << " sha256 mismatches, " << report->seconds << " s\n";
    *exit_code = report->mismatches.empty() ? kExitOk : kExitFailure;
  });
}

void AddServe(CLI::App& web, int* exit_code) {
  auto* cmd = web.add_subcommand(
      "serve", "Serve a built web with nginx on 127.0.0.1 (HTTP + HTTPS) and print the crawl "
               "arguments");
  struct Flags {
    std::string dir, manifest, root, instance;
    int port = 18080, tls_port = 18443, workers = 1, round = -1;
  };
  auto f = std::make_shared<Flags>();
  cmd->add_option("--dir", f->dir, "Web directory (nginx.conf, certificates, logs go here)")
      ->required();
  cmd->add_option("--manifest", f->manifest, "Manifest (default DIR/manifest.tsv)");
  cmd->add_option("--root", f->root, "Extracted tree T (default DIR/root)");
  auto* port = cmd->add_option("--port", f->port, "HTTP port; 0 = any free port")
                   ->capture_default_str();
  auto* tls = cmd->add_option("--tls-port", f->tls_port, "HTTPS port; 0 = any free port")
                  ->capture_default_str();
  cmd->add_option("--workers", f->workers, "nginx worker processes")->capture_default_str();
  auto* round = cmd->add_option("--round", f->round,
                                "Serve round K of an evolved web (made by `web evolve` or "
                                "`web build --rounds versions`; DIR is its directory)");
  cmd->add_option("--instance", f->instance,
                  "Directory for this server's nginx.conf, pid, logs and certificates (default --dir); "
                  "lets several people serve different rounds of one evolved web at once");
  cmd->callback([f, port, tls, round, exit_code] {
    web::RoundNginx round_config;
    const bool evolved = fs::exists(f->dir + "/evolve.tsv") || fs::exists(f->dir + "/EVOLVING");
    if (round->count() > 0 || evolved) {
      StatusOr<web::EvolvedWeb> ev = web::OpenEvolvedWeb(f->dir);
      if (!ev.ok()) {
        std::cerr << "web serve: " << ev.status().message() << "\n";
        *exit_code = kExitUsage;
        return;
      }
      if (round->count() == 0) {
        std::cerr << "web serve: " << ev->dir << " is an evolved web: pass --round K (0.."
                  << ev->rounds << ")\n";
        *exit_code = kExitUsage;
        return;
      }
      if (Status s = web::CheckRound(*ev, f->round); !s.ok()) {
        std::cerr << "web serve: " << s.message() << "\n";
        *exit_code = kExitUsage;
        return;
      }
      StatusOr<web::RoundNginx> rc = web::RenderRoundNginx(*ev, f->round);
      if (!rc.ok()) {
        std::cerr << "web serve: " << rc.status().message() << "\n";
        *exit_code = kExitFailure;
        return;
      }
      round_config = std::move(*rc);
      if (f->manifest.empty()) f->manifest = ev->base + "/manifest.tsv";
      if (f->root.empty()) f->root = ev->base + "/root";
      std::cerr << "web serve: round " << f->round << " of " << ev->dir << " (base " << ev->base
                << "): " << round_config.entries << " overlay map entries";
      if (round_config.skipped > 0) {
        std::cerr << ", " << round_config.skipped << " URLs nginx cannot map (served from the base)";
      }
      std::cerr << "\n";
    }
    std::string manifest_path = f->manifest.empty() ? f->dir + "/manifest.tsv" : f->manifest;
    StatusOr<web::Manifest> manifest = web::ReadManifestFile(manifest_path);
    if (!manifest.ok()) {
      std::cerr << "web serve: " << manifest.status().message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    web::ServeOptions options;
    options.dir = f->instance.empty() ? f->dir : f->instance;
    options.root = f->root;
    options.http_port = f->port;
    options.tls_port = f->tls_port;
    options.ports_are_defaults = port->count() == 0 && tls->count() == 0;
    options.worker_processes = f->workers;
    options.http_extra = round_config.http;
    options.server_extra = round_config.server;
    StatusOr<web::ServeInfo> info = web::StartNginxWeb(*manifest, options);
    if (!info.ok()) {
      std::cerr << "web serve: " << info.status().message() << "\n";
      *exit_code = kExitFailure;
      return;
    }
    std::cout << "crawl-args: " << info->CrawlArgs() << std::endl;
    *exit_code = kExitOk;
  });
}

void AddStop(CLI::App& web, int* exit_code) {
  auto* cmd = web.add_subcommand("stop", "Stop the nginx started by `web serve --dir DIR`");
  auto dir = std::make_shared<std::string>();
  cmd->add_option("--dir", *dir, "Web directory")->required();
  cmd->callback([dir, exit_code] {
    Status s = web::StopNginxWeb(fs::absolute(*dir).lexically_normal().string());
    if (!s.ok()) std::cerr << "web stop: " << s.message() << "\n";
    *exit_code = s.ok() ? kExitOk : kExitFailure;
  });
}

void AddIndex(CLI::App& web, int* exit_code) {
  auto* cmd = web.add_subcommand(
      "index", "Write the site index (every served HTML file and its URL) of an extracted tree");
  struct Flags {
    std::string manifest, root, out;
  };
  auto f = std::make_shared<Flags>();
  cmd->add_option("--manifest", f->manifest, "Manifest TSV")->required();
  cmd->add_option("--root", f->root, "Extracted tree T")->required();
  cmd->add_option("--out", f->out, "Output TSV (url host packages relpath); - = stdout")
      ->required();
  cmd->callback([f, exit_code] {
    StatusOr<web::Manifest> manifest = web::ReadManifestFile(f->manifest);
    if (!manifest.ok()) {
      std::cerr << "web index: " << manifest.status().message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    auto files = web::ListServedHtml(*manifest, f->root);
    if (!files.ok()) {
      std::cerr << "web index: " << files.status().message() << "\n";
      *exit_code = kExitFailure;
      return;
    }
    if (f->out == "-") {
      std::cout << "url\thost\tpackages\trelpath\n";
      for (const auto& file : *files) {
        std::cout << file.url << '\t' << file.host << '\t' << file.packages << '\t'
                  << file.relpath << '\n';
      }
      *exit_code = kExitOk;
      return;
    }
    Status s = web::WriteSiteIndex(*files, f->out);
    if (!s.ok()) std::cerr << "web index: " << s.message() << "\n";
    std::cerr << "web index: " << files->size() << " HTML pages\n";
    *exit_code = s.ok() ? kExitOk : kExitFailure;
  });
}

// Every SyntheticWebOptions knob as a flag (documented in synthetic_web.h).
void AddSyntheticKnobs(CLI::App* cmd, web::SyntheticWebOptions* o) {
  cmd->add_option("--seed", o->seed, "Random seed; everything derives from it")->capture_default_str();
  cmd->add_option("--hosts", o->hosts, "Number of hosts (1..100000)")->capture_default_str();
  cmd->add_option("--pages", o->pages, "Canonical pages in total (hosts..10^7)")->capture_default_str();
  cmd->add_option("--topics", o->topics, "Topics (1..16): networking security databases cooking "
                  "football music astronomy finance gardening travel medicine history chemistry "
                  "film law agriculture")->capture_default_str();
  cmd->add_option("--domain", o->domain, "Host names are site<i>.<domain> / zhan<i>.<domain>")->capture_default_str();
  cmd->add_option("--zh-host-fraction", o->zh_host_fraction, "Share of Chinese hosts")->capture_default_str();
  cmd->add_option("--cluster-size", o->cluster_size, "Pages per topical cluster")->capture_default_str();
  cmd->add_option("--cluster-fanout", o->cluster_fanout, "Child clusters linked from a cluster entry")->capture_default_str();
  cmd->add_option("--host-purity", o->host_purity, "P(cluster topic = host main topic)")->capture_default_str();
  cmd->add_option("--topic-word-ratio", o->topic_word_ratio, "Share of body words from the page topic")->capture_default_str();
  cmd->add_option("--noise-topic-ratio", o->noise_topic_ratio, "Share of body words from one other topic")->capture_default_str();
  cmd->add_option("--url-topic-hint", o->url_topic_hint, "P(URL slug names the cluster topic)")->capture_default_str();
  cmd->add_option("--words-min", o->words_min, "Minimum body words")->capture_default_str();
  cmd->add_option("--words-max", o->words_max, "Maximum body words")->capture_default_str();
  cmd->add_option("--out-degree-alpha", o->out_degree_alpha, "Pareto exponent of random out-links (>1)")->capture_default_str();
  cmd->add_option("--out-degree-min", o->out_degree_min, "Minimum random out-links")->capture_default_str();
  cmd->add_option("--out-degree-max", o->out_degree_max, "Maximum random out-links")->capture_default_str();
  cmd->add_option("--cluster-locality", o->cluster_locality, "P(in-site random link stays in the cluster)")->capture_default_str();
  cmd->add_option("--cross-site-prob", o->cross_site_prob, "P(random link goes to another host)")->capture_default_str();
  cmd->add_option("--cross-site-same-topic", o->cross_site_same_topic, "P(cross-site target host has the page topic)")->capture_default_str();
  cmd->add_option("--broken-link-prob", o->broken_link_prob, "P(random link is a 404)")->capture_default_str();
  cmd->add_option("--tunnel-prob", o->tunnel_prob, "P(an off-parent-topic cluster is tunnelled)")->capture_default_str();
  cmd->add_option("--tunnel-length", o->tunnel_length, "Off-topic pages in front of a tunnelled cluster")->capture_default_str();
  cmd->add_option("--calendar-host-fraction", o->calendar_host_fraction, "Share of hosts with the endless calendar trap")->capture_default_str();
  cmd->add_option("--session-host-fraction", o->session_host_fraction, "Share of hosts with ?sid= session URLs")->capture_default_str();
  cmd->add_option("--robots-calendar-disallow", o->robots_calendar_disallow, "Share of calendar hosts whose robots.txt disallows /cal/")->capture_default_str();
  cmd->add_option("--crawl-delay", o->crawl_delay, "Crawl-delay in robots.txt (0 = none)")->capture_default_str();
  cmd->add_option("--js-host-fraction", o->js_host_fraction,
                  "Share of hosts whose pages scripts build (src/web/synthetic_js.h)")->capture_default_str();
}

web::SyntheticWebServer* g_synth_server = nullptr;

extern "C" void StopSynthServer(int) {
  if (g_synth_server != nullptr) g_synth_server->Stop();
}

void AddSynth(CLI::App& web, int* exit_code) {
  auto* cmd = web.add_subcommand(
      "synth", "Serve the deterministic synthetic web on 127.0.0.1 (HTTP/1.1, routed by Host); "
               "runs until SIGINT/SIGTERM. See src/web/synthetic_web.h for the model.");
  auto o = std::make_shared<web::SyntheticWebOptions>();
  auto port = std::make_shared<int>(0);
  auto latency = std::make_shared<int>(0);
  cmd->add_option("--port", *port, "Port on 127.0.0.1; 0 = any free port")->capture_default_str();
  cmd->add_option("--latency-ms", *latency,
                  "Hold every response this long (a WAN-like latency; 0 = none)")
      ->capture_default_str();
  AddSyntheticKnobs(cmd, o.get());
  cmd->callback([o, port, latency, exit_code] {
    if (Status s = o->Validate(); !s.ok()) {
      std::cerr << "web synth: " << s.message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    web::SyntheticWeb synthetic(*o);
    web::SyntheticWebServer server(&synthetic);
    server.SetLatencyMs(std::max(0, *latency));
    if (Status s = server.Listen(*port); !s.ok()) {
      std::cerr << "web synth: " << s.message() << "\n";
      *exit_code = kExitFailure;
      return;
    }
    g_synth_server = &server;
    std::signal(SIGINT, StopSynthServer);
    std::signal(SIGTERM, StopSynthServer);
    std::cerr << "web synth: " << o->hosts << " hosts, " << o->pages << " pages on 127.0.0.1:"
              << server.port() << " (home of host 0: http://" << synthetic.HostName(0) << "/)\n";
    std::cout << "crawl-args: --connect-to :80:127.0.0.1:" << server.port() << std::endl;
    Status s = server.Run();
    g_synth_server = nullptr;
    std::cerr << "web synth: served " << server.requests() << " requests\n";
    *exit_code = s.ok() ? kExitInterrupted : kExitFailure;
  });
}

void AddSynthLabels(CLI::App& web, int* exit_code) {
  auto* cmd = web.add_subcommand(
      "synth-labels", "Write the synthetic web's ground truth for one topic (url relevant reason), "
                      "and optionally its home pages");
  auto o = std::make_shared<web::SyntheticWebOptions>();
  struct Flags {
    std::string topic = "networking", out, homes;
  };
  auto f = std::make_shared<Flags>();
  cmd->add_option("--topic", f->topic, "Topic name or index")->capture_default_str();
  cmd->add_option("--out", f->out, "Label TSV to write")->required();
  cmd->add_option("--homes", f->homes, "Also write the homes TSV (host home_url role)");
  AddSyntheticKnobs(cmd, o.get());
  cmd->callback([o, f, exit_code] {
    if (Status s = o->Validate(); !s.ok()) {
      std::cerr << "web synth-labels: " << s.message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    int topic = web::TopicIndex(f->topic, o->topics);
    if (topic < 0) {
      std::cerr << "web synth-labels: unknown topic '" << f->topic << "' (this web has "
                << o->topics << " topics)\n";
      *exit_code = kExitUsage;
      return;
    }
    web::SyntheticWeb synthetic(*o);
    std::ofstream out(f->out, std::ios::binary | std::ios::trunc);
    uint64_t relevant = synthetic.WriteLabels(static_cast<uint32_t>(topic), out);
    bool ok = static_cast<bool>(out.flush());
    if (ok && !f->homes.empty()) {
      std::ofstream homes(f->homes, std::ios::binary | std::ios::trunc);
      synthetic.WriteHomes(homes);
      ok = static_cast<bool>(homes.flush());
    }
    if (!ok) {
      std::cerr << "web synth-labels: cannot write " << f->out << "\n";
      *exit_code = kExitFailure;
      return;
    }
    std::cerr << "web synth-labels: " << o->pages << " pages, " << relevant << " relevant to "
              << web::TopicNames()[topic] << "\n";
    *exit_code = kExitOk;
  });
}

void AddEvolve(CLI::App& web, int* exit_code) {
  auto* cmd = web.add_subcommand(
      "evolve", "Derive rounds 0..N from a built web: pages published, edited and gone per "
                "round, stored as per-round overlays plus the truth of every round "
                "(docs/guides/rounds.md)");
  struct Flags {
    std::string dir, out, homes, model = "news";
    std::vector<std::string> hosts;
    web::EvolveOptions evolve;
    web::AnnounceWebOptions announce;
    bool no_announce = false;
    bool force = false;
  };
  auto f = std::make_shared<Flags>();
  cmd->add_option("--dir", f->dir, "A web made by `topicrawl web build` (read only unless --out is omitted)")
      ->required();
  cmd->add_option("--out", f->out, "Directory for the rounds (default: --dir itself); the base web "
                                   "is referenced, not copied");
  cmd->add_option("--rounds", f->evolve.rounds, "Rounds after round 0")->required();
  cmd->add_option("--seed", f->evolve.seed, "Random seed; the whole evolution derives from it")
      ->capture_default_str();
  cmd->add_option("--new-rate", f->evolve.new_rate, "Pages published per round / pages of the web")
      ->capture_default_str();
  cmd->add_option("--change-rate", f->evolve.change_rate,
                  "Expected share of present reachable pages edited per round")
      ->capture_default_str();
  cmd->add_option("--gone-rate", f->evolve.gone_rate, "Pages gone (404/410) per round / present pages")
      ->capture_default_str();
  cmd->add_option("--hidden-at-start", f->evolve.hidden_at_start,
                  "Share of the pages hidden at round 0 (default new-rate x rounds)");
  cmd->add_option("--model", f->model, "news: per-page gamma change rates (index pages change more), new "
                                       "pages under stable sections; legacy: random volatile pages, new "
                                       "pages anywhere (docs/guides/rounds.md)")
      ->capture_default_str();
  cmd->add_option("--rate-shape", f->evolve.rate_shape,
                  "news: gamma shape of the per-page change rates (smaller = more skewed)")
      ->capture_default_str();
  cmd->add_option("--index-change-share", f->evolve.index_change_share,
                  "news: share of the edits on index pages (pages with BFS children)")
      ->capture_default_str();
  cmd->add_option("--hosts", f->hosts, "Only these hosts evolve (comma-separated; default all)")
      ->delimiter(',');
  cmd->add_option("--homes", f->homes, "Home pages TSV (host home_url role): the crawl's seeds; "
                                       "only pages reachable from them evolve");
  cmd->add_option("--sitemap-hosts", f->announce.sitemap_hosts,
                  "Share of the hosts that publish robots.txt Sitemap: lines, a sitemap index, "
                  "per-section sitemaps and an Atom feed every round")
      ->capture_default_str();
  cmd->add_option("--lastmod-accuracy", f->announce.lastmod_accuracy,
                  "Share of those hosts whose <lastmod> is the page's true last change")
      ->capture_default_str();
  cmd->add_option("--lastmod-wrong", f->announce.lastmod_wrong,
                  "Share whose <lastmod> is wrong (half: the build date on every URL; half: the "
                  "first date, never updated); the rest write none")
      ->capture_default_str();
  cmd->add_option("--feed-size", f->announce.feed_size, "Entries of each host's Atom feed (newest pages)")
      ->capture_default_str();
  cmd->add_flag("--no-announce", f->no_announce, "Write no robots.txt, sitemaps or feeds");
  cmd->add_flag("--force", f->force, "Replace an existing or interrupted evolution in the output directory");
  cmd->callback([f, exit_code] {
    web::WebEvolveOptions options;
    options.announce = f->announce;
    options.announce.enabled = !f->no_announce;
    if (Status v = web::ValidateAnnounceOptions(options.announce); !v.ok()) {
      std::cerr << "web evolve: " << v.message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    options.base_dir = f->dir;
    options.out_dir = f->out;
    options.homes_file = f->homes;
    options.evolve = f->evolve;
    if (!web::ParseEvolveModel(f->model, &options.evolve.model)) {
      std::cerr << "web evolve: --model must be news or legacy, got " << f->model << "\n";
      *exit_code = kExitUsage;
      return;
    }
    options.hosts = f->hosts;
    options.force = f->force;
    options.log = &std::cerr;
    StatusOr<web::WebEvolveReport> report = web::EvolveWeb(options);
    if (!report.ok()) {
      std::cerr << "web evolve: " << report.status().message() << "\n";
      *exit_code = kExitFailure;
      return;
    }
    size_t files = 0;
    for (size_t k : report->overlay_files) files += k;
    std::cerr << "web evolve: " << report->pages << " pages (" << report->reachable << " reachable), "
              << f->evolve.rounds << " rounds, " << files << " overlay files ("
              << report->overlay_bytes / 1024 << " KiB), " << report->seconds << " s\n";
    *exit_code = kExitOk;
  });
}

void AddTruth(CLI::App& web, int* exit_code) {
  auto* cmd = web.add_subcommand(
      "truth", "Print the ground truth of one round of an evolved web: url<TAB>state "
               "(new|changed|unchanged|gone vs round K-1)");
  struct Flags {
    std::string dir, hubs_out, labels;
    int round = 0;
  };
  auto f = std::make_shared<Flags>();
  cmd->add_option("--dir", f->dir, "Evolved web directory")->required();
  cmd->add_option("--round", f->round, "Round K")->required();
  cmd->add_option("--hubs-out", f->hubs_out,
                  "Also write the hub pages of round K (url<TAB>new_links: pages linking to a page new in K)");
  cmd->add_option("--labels", f->labels,
                  "A label file (url relevant reason): print the counts per state, relevant ones apart, to stderr");
  cmd->callback([f, exit_code] {
    StatusOr<web::EvolvedWeb> ev = web::OpenEvolvedWeb(f->dir);
    if (!ev.ok()) {
      std::cerr << "web truth: " << ev.status().message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    StatusOr<std::string> text = web::ReadTruthText(*ev, f->round, false);
    if (!text.ok()) {
      std::cerr << "web truth: " << text.status().message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    if (!f->hubs_out.empty()) {
      StatusOr<std::string> hubs = web::ReadTruthText(*ev, f->round, true);
      Status s = hubs.ok() ? web::WriteWholeFile(f->hubs_out, *hubs) : hubs.status();
      if (!s.ok()) {
        std::cerr << "web truth: " << s.message() << "\n";
        *exit_code = kExitFailure;
        return;
      }
    }
    std::optional<eval::LabelSet> labels;
    if (!f->labels.empty()) {
      auto loaded = eval::LabelSet::Load(f->labels);
      if (!loaded.ok()) {
        std::cerr << "web truth: " << loaded.status().message() << "\n";
        *exit_code = kExitUsage;
        return;
      }
      labels = std::move(*loaded);
    }
    std::cout << *text;
    if (labels) {
      std::cerr << "web truth: "
                << web::TruthLabelCounts(*text, f->round,
                                         [&](const std::string& url) { return labels->LookupCanonical(url); })
                << "\n";
    }
    *exit_code = kExitOk;
  });
}

}  // namespace

void AddAnnounce(CLI::App& web, int* exit_code) {
  auto* cmd = web.add_subcommand(
      "announce", "Rewrite the robots.txt Sitemap: lines, sitemaps and feeds of an evolved web "
                  "with other knobs (the evolution and its truth stay as they are)");
  struct Flags {
    std::string dir;
    web::AnnounceWebOptions announce;
    bool none = false;
  };
  auto f = std::make_shared<Flags>();
  cmd->add_option("--dir", f->dir, "An evolved web made by `web evolve`")->required();
  cmd->add_option("--sitemap-hosts", f->announce.sitemap_hosts, "Share of hosts with sitemaps and feeds")
      ->capture_default_str();
  cmd->add_option("--lastmod-accuracy", f->announce.lastmod_accuracy, "Share with true <lastmod>")
      ->capture_default_str();
  cmd->add_option("--lastmod-wrong", f->announce.lastmod_wrong,
                  "Share with wrong <lastmod> (build date or stale)")
      ->capture_default_str();
  cmd->add_option("--feed-size", f->announce.feed_size, "Entries of each Atom feed")->capture_default_str();
  cmd->add_flag("--none", f->none, "Remove every announcement file");
  cmd->callback([f, exit_code] {
    f->announce.enabled = !f->none;
    if (Status v = web::ValidateAnnounceOptions(f->announce); !v.ok()) {
      std::cerr << "web announce: " << v.message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    auto r = web::RewriteAnnouncements(f->dir, f->announce);
    if (!r.ok()) {
      std::cerr << "web announce: " << r.status().message() << "\n";
      *exit_code = kExitFailure;
      return;
    }
    std::cerr << "web announce: " << r->announcing << " of " << r->hosts
              << " hosts announce; " << r->files << " files\n";
    *exit_code = kExitOk;
  });
}

void AddWebCommand(CLI::App& app, int* exit_code) {
  auto* web = app.add_subcommand("web", "Benchmark webs: build/serve/stop nginx webs, synthetic web");
  web->require_subcommand(1);
  AddBuild(*web, exit_code);
  AddServe(*web, exit_code);
  AddStop(*web, exit_code);
  AddEvolve(*web, exit_code);
  AddAnnounce(*web, exit_code);
  AddTruth(*web, exit_code);
  AddIndex(*web, exit_code);
  AddSynth(*web, exit_code);
  AddSynthLabels(*web, exit_code);
}

}  // namespace topicrawl::cli
