// topicrawl export DIR... --format jsonl|text|markdown|wacz: parses the flags
// and calls the export of the format (export/jsonl_export.h,
// export/text_export.h, export/wacz.h). Several directories (a clustered
// crawl's workers) are one crawl, read as `topicrawl merge` joins them
// (cluster/crawl_view.h).
#include <cstdio>
#include <iostream>
#include <set>

#include "cli/commands.h"
#include "cluster/crawl_view.h"
#include "export/jsonl_export.h"
#include "export/text_export.h"
#include "export/wacz.h"
#include "store/crawl_db_reader.h"

namespace topicrawl::cli {
namespace {

struct ExportFlags {
  std::vector<std::string> dirs;
  std::string dir;  // the one crawl directory read (CrawlView)
  std::string format = "jsonl";
  bool relevant_only = false;
  bool all_statuses = false;
  bool respect_optout = true;
  std::string fields;
  std::string out;
  double beta = -1;
};

int RunWaczExport(const ExportFlags& f) {
  if (f.out.empty()) {
    std::cerr << "error: --format wacz needs --out FILE.wacz\n";
    return kExitUsage;
  }
  WaczOptions options;
  options.relevant_only = f.relevant_only;
  options.beta = f.beta;
  StatusOr<WaczStats> stats = WriteWacz(f.dir, f.out, options);
  if (!stats.ok()) {
    std::cerr << "error: " << stats.status().message() << "\n";
    return kExitFailure;
  }
  std::fprintf(stderr, "wrote %s: %lld pages, %lld WARC files (%llu bytes), %lld CDXJ lines\n",
               f.out.c_str(), static_cast<long long>(stats->pages),
               static_cast<long long>(stats->warc_files),
               static_cast<unsigned long long>(stats->warc_bytes),
               static_cast<long long>(stats->cdxj_lines));
  return kExitOk;
}

int RunTextExport(const ExportFlags& f) {
  TextExportOptions options;
  options.markdown = f.format == "markdown";
  options.relevant_only = f.relevant_only;
  options.beta = f.beta;
  options.respect_optout = f.respect_optout;
  StatusOr<TextExportStats> stats = WriteTextExport(f.dir, f.out, std::cout, options);
  if (!stats.ok()) {
    std::cerr << "error: " << stats.status().message() << "\n";
    return kExitFailure;
  }
  std::cerr << TextExportSummary(*stats) << "\n";
  return kExitOk;
}

int RunJsonlExport(const ExportFlags& f) {
  StatusOr<std::set<std::string>> fields = ParseJsonlFields(f.fields);
  if (!fields.ok()) {
    std::cerr << "error: " << fields.status().message() << "\n";
    return kExitUsage;
  }
  auto db = CrawlDbReader::Open(f.dir);
  if (!db.ok()) {
    std::cerr << "error: " << db.status().message() << "\n";
    return kExitUsage;
  }
  JsonlExportOptions options;
  options.fields = std::move(*fields);
  options.relevant_only = f.relevant_only;
  options.all_statuses = f.all_statuses;
  options.beta = f.beta;
  StatusOr<JsonlExportStats> stats = WriteJsonlExport(**db, f.dir, f.out, std::cout, options);
  if (!stats.ok()) {
    std::cerr << "error: " << stats.status().message() << "\n";
    return kExitFailure;
  }
  std::cerr << JsonlExportSummary(*stats) << "\n";
  return kExitOk;
}

int RunExport(const ExportFlags& f) {
  if (f.format == "wacz") return RunWaczExport(f);
  if (f.format == "text" || f.format == "markdown") return RunTextExport(f);
  if (f.format != "jsonl") {
    std::cerr << "error: --format must be jsonl, text, markdown or wacz\n";
    return kExitUsage;
  }
  return RunJsonlExport(f);
}

}  // namespace

void AddExportCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<ExportFlags>();
  auto* cmd = app.add_subcommand(
      "export", "Write a crawl's pages as JSON lines (url, final_url, fetched_at, status, "
                "title, text, relevance, link_score, explanation, depth, parent_url, optout)");
  cmd->add_option("DIR", flags->dirs,
                  "Crawl directory; several: the workers of a clustered crawl, read as one "
                  "crawl (one row per URL, as `topicrawl merge`)")
      ->required();
  cmd->add_option("--format", flags->format,
                  "jsonl: the fields below; text / markdown: JSON lines {url, title, lang, "
                  "text|markdown} of each page's main content (boilerplate removed); wacz: a "
                  "WACZ 1.1.1 web archive (WARC files, CDXJ index, pages.jsonl; needs --out)")
      ->default_str("jsonl");
  cmd->add_flag("--relevant-only", flags->relevant_only,
                "Only pages with relevance >= beta (the crawl's, or --beta)");
  cmd->add_flag("--respect-optout,!--no-respect-optout", flags->respect_optout,
                "text/markdown: leave out pages that opt out (X-Robots-Tag / meta robots "
                "noindex, noarchive, noai; TDMRep tdm-reservation 1) and count them "
                "(default on)");
  cmd->add_flag("--all-statuses", flags->all_statuses,
                "Also failed pages (default: pages stored ok)");
  cmd->add_option("--fields", flags->fields, "Comma-separated fields (default: all)");
  cmd->add_option("--beta", flags->beta, "Relevance threshold for --relevant-only");
  cmd->add_option("--out", flags->out, "Output file (default: stdout)");
  cmd->callback([flags, exit_code] {
    auto view = CrawlView::Open(flags->dirs);
    if (!view.ok()) {
      std::cerr << "error: " << view.status().message() << "\n";
      *exit_code = kExitUsage;
      return;
    }
    flags->dir = (*view)->dir();
    *exit_code = RunExport(*flags);
  });
}

}  // namespace topicrawl::cli
