// `topicrawl web ...`: build, serve and stop the manifest-built benchmark
// webs (src/web/web_builder.h, nginx_web.h), list their pages, and run the
// synthetic web (src/web/synthetic_web.h).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "web/manifest.h"
#include "web/nginx_web.h"
#include "web/site_index.h"
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
  cmd->callback([flags, dir, exit_code] {
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
    std::string dir, manifest, root;
    int port = 18080, tls_port = 18443, workers = 1;
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
  cmd->callback([f, port, tls, exit_code] {
    std::string manifest_path = f->manifest.empty() ? f->dir + "/manifest.tsv" : f->manifest;
    StatusOr<web::Manifest> manifest = web::ReadManifestFile(manifest_path);
    if (!manifest.ok()) {
      std::cerr << "web serve: " << manifest.status().message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    web::ServeOptions options;
    options.dir = f->dir;
    options.root = f->root;
    options.http_port = f->port;
    options.tls_port = f->tls_port;
    options.ports_are_defaults = port->count() == 0 && tls->count() == 0;
    options.worker_processes = f->workers;
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

}  // namespace

void AddWebCommand(CLI::App& app, int* exit_code) {
  auto* web = app.add_subcommand("web", "Benchmark webs: build/serve/stop nginx webs, synthetic web");
  web->require_subcommand(1);
  AddBuild(*web, exit_code);
  AddServe(*web, exit_code);
  AddStop(*web, exit_code);
  AddIndex(*web, exit_code);
}

}  // namespace topicrawl::cli
