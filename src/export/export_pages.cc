#include "export/export_pages.h"

#include <cstdlib>
#include <vector>

namespace topicrawl {

Status CheckExportSchema(CrawlDbReader& db) {
  static const char* const kColumns[] = {"url",        "final_url",   "fetched_at",
                                         "title",      "relevance",   "link_score",
                                         "explanation", "warc_file",  "warc_offset",
                                         "warc_length", "content_type", "depth"};
  std::string missing;
  for (const char* c : kColumns) {
    if (!db.HasColumn("pages", c)) missing += std::string(missing.empty() ? "" : ", ") + c;
  }
  if (missing.empty()) return Status::Ok();
  auto version = db.QueryText("SELECT value FROM meta WHERE key = 'schema_version'");
  return Status::Error(db.dir() + "/crawl.db is a store of an older schema (schema_version " +
                       version.value_or("unknown") + ") whose pages table lacks " + missing +
                       ": resume it once with this version's `topicrawl crawl --resume` "
                       "to upgrade it, or export with the version that wrote it");
}

double ExportBeta(CrawlDbReader& db, double flag_beta) {
  if (flag_beta >= 0) return flag_beta;
  auto b = db.QueryText("SELECT value FROM meta WHERE key = 'beta'");
  return b ? std::strtod(b->c_str(), nullptr) : 0.62;
}

Status ForEachExportPage(CrawlDbReader& db, const ExportFilter& filter,
                         const std::function<bool(const ExportPage&)>& visit) {
  if (Status s = CheckExportSchema(db); !s.ok()) return s;
  std::string where = "status = 'ok' AND warc_file IS NOT NULL AND warc_file != ''";
  std::vector<DbArg> args;
  if (filter.relevant_only) {
    where += " AND relevance >= ?1";
    args.emplace_back(filter.beta);
  }
  const std::string order = filter.by_warc_position ? "warc_file, warc_offset" : "id";
  return db.Query(
      "SELECT id, url, final_url, fetched_at, title, relevance, link_score, explanation, "
      "depth, content_type, warc_file, warc_offset, warc_length FROM pages WHERE " +
          where + " ORDER BY " + order,
      args, [&](const DbRow& r) {
        ExportPage p;
        p.id = r.Int(0);
        p.requested_url = r.Text(1);
        p.url = r.Text(2).empty() ? p.requested_url : r.Text(2);
        p.fetched_at = r.Int(3);
        p.title = r.Text(4);
        if (!r.IsNull(5)) p.relevance = r.Double(5);
        p.link_score = r.Double(6);
        p.explanation = r.Text(7);
        p.depth = r.Int(8);
        p.content_type = r.Text(9);
        p.warc_file = r.Text(10);
        p.warc_offset = r.Int(11);
        p.warc_length = r.Int(12);
        return visit(p);
      });
}

}  // namespace topicrawl
