// topicrawl export DIR... --format jsonl: one JSON object per stored page and
// line, for other tools. Several directories (a clustered crawl's workers)
// are one crawl, read as `topicrawl merge` joins them (cluster/crawl_view.h). Streaming: rows are read from crawl.db one at a
// time and each page's text is read back from its WARC record and written
// before the next, so memory does not grow with the crawl (10^6 pages).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
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

// The --fields list as a set (every field when empty); nullopt after an
// error message for an unknown name.
std::optional<std::set<std::string>> ParseFields(const std::string& list) {
  std::set<std::string> fields;
  if (list.empty()) {
    for (const char* n : kAllFields) fields.insert(n);
    return fields;
  }
  std::stringstream in(list);
  std::string name;
  const std::set<std::string> known(std::begin(kAllFields), std::end(kAllFields));
  while (std::getline(in, name, ',')) {
    if (!known.count(name)) {
      std::string names;
      for (const char* n : kAllFields) names += std::string(names.empty() ? "" : ", ") + n;
      std::cerr << "error: unknown field '" << name << "' (fields: " << names << ")\n";
      return std::nullopt;
    }
    fields.insert(name);
  }
  return fields;
}

// Turns the rows of the export query into JSON lines with the chosen fields.
class JsonlRowWriter {
 public:
  JsonlRowWriter(const std::string& dir, const std::set<std::string>& fields,
                 const HostOptOut& hosts, std::ostream& out)
      : dir_(dir), fields_(fields), hosts_(hosts), out_(out) {}

  bool Write(const DbRow& r) {
    nlohmann::json j;
    PutColumns(r, &j);
    if (fields_.count("text")) j["text"] = Text(r);
    if (fields_.count("optout")) j["optout"] = OptOut(r);
    out_ << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    ++written_;
    return static_cast<bool>(out_);
  }
  int64_t written() const { return written_; }
  int64_t unreadable() const { return unreadable_; }

 private:
  void PutColumns(const DbRow& r, nlohmann::json* j) const {
    auto put = [&](const char* name, nlohmann::json v) {
      if (fields_.count(name)) (*j)[name] = std::move(v);
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
    if (fields_.count("explanation")) {
      nlohmann::json e = nlohmann::json::parse(r.Text(9), nullptr, false);
      (*j)["explanation"] = e.is_discarded() ? nlohmann::json(r.Text(9)) : e;
    }
    put("depth", r.Int(10));
    put("parent_url", r.IsNull(11) ? nlohmann::json(nullptr) : nlohmann::json(r.Text(11)));
  }

  // The page's text from its WARC record; "" for failed or unreadable pages.
  std::string Text(const DbRow& r) {
    if (r.Text(4) != "ok") return "";
    const std::string url = r.Text(2).empty() ? r.Text(1) : r.Text(2);
    auto t = ReadStoredPageText(dir_, r.Text(13), r.Int(14), r.Text(12), url);
    if (t.ok()) return std::move(t->text);
    ++unreadable_;
    return "";
  }

  // export/page_optout.h; null when unreadable.
  nlohmann::json OptOut(const DbRow& r) const {
    if (r.Text(4) != "ok") return nlohmann::json::array();
    const std::string url = r.Text(2).empty() ? r.Text(1) : r.Text(2);
    auto o = StoredPageOptOut(dir_, {url, r.Text(12), r.Text(13), r.Int(14)}, hosts_);
    return o.ok() ? nlohmann::json(o->signals) : nlohmann::json(nullptr);
  }

  const std::string& dir_;
  const std::set<std::string>& fields_;
  const HostOptOut& hosts_;
  std::ostream& out_;
  int64_t written_ = 0, unreadable_ = 0;
};

// The query's WHERE clause and its arguments: ok pages (or every row), of
// relevance >= beta with --relevant-only.
std::string ExportWhere(const ExportFlags& f, CrawlDbReader& db, std::vector<DbArg>* args) {
  std::string where = f.all_statuses ? "1" : "p.status = 'ok'";
  if (f.relevant_only) {
    double beta = f.beta;
    if (beta < 0) {
      auto b = db.QueryText("SELECT value FROM meta WHERE key = 'beta'");
      beta = b ? std::strtod(b->c_str(), nullptr) : 0.62;
    }
    where += " AND p.status = 'ok' AND p.relevance >= ?1";
    args->emplace_back(beta);
  }
  return where;
}

int RunJsonlExport(const ExportFlags& f) {
  const std::optional<std::set<std::string>> fields = ParseFields(f.fields);
  if (!fields) return kExitUsage;
  auto db = CrawlDbReader::Open(f.dir);
  if (!db.ok()) {
    std::cerr << "error: " << db.status().message() << "\n";
    return kExitUsage;
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
  std::vector<DbArg> args;
  const std::string where = ExportWhere(f, **db, &args);
  HostOptOut hosts("topicrawl");
  if (fields->count("optout")) {
    if (Status hs = hosts.Load(**db); !hs.ok()) {
      std::cerr << "error: " << hs.message() << "\n";
      return kExitFailure;
    }
  }
  JsonlRowWriter writer(f.dir, *fields, hosts, out);
  Status s = (*db)->Query(
      "SELECT p.id, p.url, p.final_url, p.fetched_at, p.status, p.http_code, p.title, "
      "p.relevance, p.link_score, p.explanation, p.depth, q.url, p.content_type, p.warc_file, "
      "p.warc_offset FROM pages p LEFT JOIN pages q ON q.id = p.parent_id WHERE " + where +
          " ORDER BY p.id",
      args, [&writer](const DbRow& r) { return writer.Write(r); });
  out.flush();
  if (!s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    return kExitFailure;
  }
  if (!out) {
    std::cerr << "error: write failed\n";
    return kExitFailure;
  }
  const int64_t unreadable = writer.unreadable();
  std::fprintf(stderr, "exported %lld pages%s\n", static_cast<long long>(writer.written()),
               unreadable ? (" (" + std::to_string(unreadable) + " without readable text)").c_str()
                          : "");
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
