#include "export/jsonl_export.h"

#include <fstream>
#include <sstream>

#include "export/host_optout.h"
#include "export/page_optout.h"
#include "nlohmann/json.hpp"
#include "search/page_text.h"

namespace topicrawl {
namespace {

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
// relevance >= beta with relevant_only.
std::string ExportWhere(const JsonlExportOptions& o, CrawlDbReader& db, std::vector<DbArg>* args) {
  std::string where = o.all_statuses ? "1" : "p.status = 'ok'";
  if (o.relevant_only) {
    double beta = o.beta;
    if (beta < 0) {
      auto b = db.QueryText("SELECT value FROM meta WHERE key = 'beta'");
      beta = b ? std::strtod(b->c_str(), nullptr) : 0.62;
    }
    where += " AND p.status = 'ok' AND p.relevance >= ?1";
    args->emplace_back(beta);
  }
  return where;
}

}  // namespace

const std::vector<std::string>& JsonlExportFields() {
  static const std::vector<std::string> kFields = {
      "id",        "url",        "final_url",   "fetched_at", "status",     "http_code",  "title",
      "text",      "relevance",  "link_score",  "explanation", "depth",     "parent_url", "optout"};
  return kFields;
}

StatusOr<std::set<std::string>> ParseJsonlFields(const std::string& list) {
  const std::vector<std::string>& all = JsonlExportFields();
  if (list.empty()) return std::set<std::string>(all.begin(), all.end());
  const std::set<std::string> known(all.begin(), all.end());
  std::set<std::string> fields;
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (!known.count(name)) {
      std::string names;
      for (const std::string& n : all) names += (names.empty() ? "" : ", ") + n;
      return Status::Error("unknown field '" + name + "' (fields: " + names + ")");
    }
    fields.insert(name);
  }
  return fields;
}

StatusOr<JsonlExportStats> WriteJsonlExport(CrawlDbReader& db, const std::string& crawl_dir,
                                            const std::string& out_path, std::ostream& stream,
                                            const JsonlExportOptions& options) {
  std::ofstream file;
  if (!out_path.empty()) {
    file.open(out_path, std::ios::binary | std::ios::trunc);
    if (!file) return Status::Error("cannot write " + out_path);
  }
  std::ostream& out = out_path.empty() ? stream : file;
  std::vector<DbArg> args;
  const std::string where = ExportWhere(options, db, &args);
  HostOptOut hosts(options.robots_agent);
  if (options.fields.count("optout")) {
    if (Status hs = hosts.Load(db); !hs.ok()) return hs;
  }
  JsonlRowWriter writer(crawl_dir, options.fields, hosts, out);
  Status s = db.Query(
      "SELECT p.id, p.url, p.final_url, p.fetched_at, p.status, p.http_code, p.title, "
      "p.relevance, p.link_score, p.explanation, p.depth, q.url, p.content_type, p.warc_file, "
      "p.warc_offset FROM pages p LEFT JOIN pages q ON q.id = p.parent_id WHERE " + where +
          " ORDER BY p.id",
      args, [&writer](const DbRow& r) { return writer.Write(r); });
  out.flush();
  if (!s.ok()) return s;
  if (!out) return Status::Error("write failed");
  return JsonlExportStats{writer.written(), writer.unreadable()};
}

std::string JsonlExportSummary(const JsonlExportStats& stats) {
  std::string line = "exported " + std::to_string(stats.written) + " pages";
  if (stats.unreadable) line += " (" + std::to_string(stats.unreadable) + " without readable text)";
  return line;
}

}  // namespace topicrawl
