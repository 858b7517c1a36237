// topicrawl export DIR... --format jsonl: one JSON object per stored page and
// line, for other tools. Several directories (a clustered crawl's workers)
// are one crawl, read as `topicrawl merge` joins them (cluster/crawl_view.h). Streaming: rows are read from crawl.db one at a
// time and each page's text is read back from its WARC record and written
// before the next, so memory does not grow with the crawl (10^6 pages).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "cli/commands.h"
#include "cluster/crawl_view.h"
#include "nlohmann/json.hpp"
#include "store/crawl_db_reader.h"
#include "export/page_optout.h"
#include "export/text_export.h"
#include "export/wacz.h"
#include "search/page_text.h"

namespace topicrawl::cli {
namespace {

const char* const kAllFields[] = {"id",         "url",         "final_url", "fetched_at",
                                  "status",     "http_code",   "title",     "text",
                                  "relevance",  "link_score",  "explanation", "depth",
                                  "parent_url", "optout"};

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

int RunExport(const ExportFlags& f) {
  if (f.format == "wacz") return RunWaczExport(f);
  if (f.format == "text" || f.format == "markdown") return RunTextExport(f);
  if (f.format != "jsonl") {
    std::cerr << "error: --format must be jsonl, text, markdown or wacz\n";
    return kExitUsage;
  }
  std::set<std::string> fields;
  if (f.fields.empty()) {
    for (const char* n : kAllFields) fields.insert(n);
  } else {
    std::stringstream in(f.fields);
    std::string name;
    const std::set<std::string> known(std::begin(kAllFields), std::end(kAllFields));
    while (std::getline(in, name, ',')) {
      if (!known.count(name)) {
        std::string list;
        for (const char* n : kAllFields) list += std::string(list.empty() ? "" : ", ") + n;
        std::cerr << "error: unknown field '" << name << "' (fields: " << list << ")\n";
        return kExitUsage;
      }
      fields.insert(name);
    }
  }
  auto db = CrawlDbReader::Open(f.dir);
  if (!db.ok()) {
    std::cerr << "error: " << db.status().message() << "\n";
    return kExitUsage;
  }
  double beta = f.beta;
  if (beta < 0) {
    auto b = (*db)->QueryText("SELECT value FROM meta WHERE key = 'beta'");
    beta = b ? std::strtod(b->c_str(), nullptr) : 0.62;
  }
  std::ofstream file;
  if (!f.out.empty()) {
    file.open(f.out, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "error: cannot write " << f.out << "\n";
      return kExitFailure;
    }
  }
  std::ostream& out = f.out.empty() ? std::cout : file;
  std::string where = f.all_statuses ? "1" : "p.status = 'ok'";
  std::vector<DbArg> args;
  if (f.relevant_only) {
    where += " AND p.status = 'ok' AND p.relevance >= ?1";
    args.emplace_back(beta);
  }
  const bool want_text = fields.count("text") > 0;
  HostOptOut hosts("topicrawl");
  if (fields.count("optout")) {
    if (Status hs = hosts.Load(**db); !hs.ok()) {
      std::cerr << "error: " << hs.message() << "\n";
      return kExitFailure;
    }
  }
  int64_t n = 0, unreadable = 0;
  Status s = (*db)->Query(
      "SELECT p.id, p.url, p.final_url, p.fetched_at, p.status, p.http_code, p.title, "
      "p.relevance, p.link_score, p.explanation, p.depth, q.url, p.content_type, p.warc_file, "
      "p.warc_offset FROM pages p LEFT JOIN pages q ON q.id = p.parent_id WHERE " + where +
          " ORDER BY p.id",
      args, [&](const DbRow& r) {
        nlohmann::json j;
        auto put = [&](const char* name, nlohmann::json v) {
          if (fields.count(name)) j[name] = std::move(v);
        };
        put("id", r.Int(0));
        put("url", r.Text(1));
        put("final_url", r.Text(2).empty() ? r.Text(1) : r.Text(2));
        put("fetched_at", r.Int(3));
        put("status", r.Text(4));
        put("http_code", r.Int(5));
        put("title", r.Text(6));
        put("relevance", r.IsNull(7) ? nlohmann::json(nullptr) : nlohmann::json(r.Double(7)));
        put("link_score", r.Double(8));
        if (fields.count("explanation")) {
          nlohmann::json e = nlohmann::json::parse(r.Text(9), nullptr, false);
          j["explanation"] = e.is_discarded() ? nlohmann::json(r.Text(9)) : e;
        }
        put("depth", r.Int(10));
        put("parent_url", r.IsNull(11) ? nlohmann::json(nullptr) : nlohmann::json(r.Text(11)));
        if (want_text) {
          std::string text;
          if (r.Text(4) == "ok") {
            const std::string url = r.Text(2).empty() ? r.Text(1) : r.Text(2);
            auto t = ReadStoredPageText(f.dir, r.Text(13), r.Int(14), r.Text(12), url);
            if (t.ok()) {
              text = std::move(t->text);
            } else {
              ++unreadable;
            }
          }
          j["text"] = std::move(text);
        }
        if (fields.count("optout")) {  // export/page_optout.h; null when unreadable
          nlohmann::json signals = nlohmann::json::array();
          if (r.Text(4) == "ok") {
            const std::string url = r.Text(2).empty() ? r.Text(1) : r.Text(2);
            auto o = StoredPageOptOut(f.dir, {url, r.Text(12), r.Text(13), r.Int(14)}, hosts);
            signals = o.ok() ? nlohmann::json(o->signals) : nlohmann::json(nullptr);
          }
          j["optout"] = std::move(signals);
        }
        out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        ++n;
        return static_cast<bool>(out);
      });
  out.flush();
  if (!s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    return kExitFailure;
  }
  if (!out) {
    std::cerr << "error: write failed\n";
    return kExitFailure;
  }
  std::fprintf(stderr, "exported %lld pages%s\n", static_cast<long long>(n),
               unreadable ? (" (" + std::to_string(unreadable) + " without readable text)").c_str()
                          : "");
  return kExitOk;
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
