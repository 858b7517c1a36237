#include "export/text_export.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "export/export_pages.h"
#include "export/host_optout.h"
#include "export/optout.h"
#include "fetch/charset.h"
#include "nlohmann/json.hpp"
#include "parse/main_content.h"
#include "store/crawl_db_reader.h"
#include "store/warc_reader.h"

namespace topicrawl {
namespace {

bool IsHtml(const std::string& content_type) {
  return content_type.empty() || content_type.find("html") != std::string::npos;
}

// Writes the lines of every page to `out`.
Status WriteLines(CrawlDbReader& db, const std::string& crawl_dir, const ExportFilter& filter,
                  const HostOptOut& hosts, const TextExportOptions& options, std::ostream& out,
                  TextExportStats* stats) {
  const char* field = options.markdown ? "markdown" : "text";
  return ForEachExportPage(db, filter, [&](const ExportPage& p) {
    ++stats->pages;
    if (!IsHtml(p.content_type)) {
      ++stats->not_html;
      return true;
    }
    std::string_view head, body;
    StatusOr<ParsedWarcRecord> rec = Status::Error("suspicious WARC file name");
    if (p.warc_file.find("..") == std::string::npos && p.warc_file[0] != '/') {
      rec = ReadWarcRecordAt(crawl_dir + "/" + p.warc_file, static_cast<uint64_t>(p.warc_offset));
    }
    if (!rec.ok() || rec->Header("WARC-Type") != "response" ||
        !SplitHttpBlock(rec->block, &head, &body)) {
      ++stats->unreadable;
      return true;
    }
    const DecodedText decoded = DecodeToUtf8(body, p.content_type);
    MainContent m = ExtractMainContent(decoded.utf8, p.url);
    OptOutSignals optout = DetectOptOut(head, m.opt_out_meta);
    hosts.Apply(p.url, &optout);
    if (optout.reserved && options.respect_optout) {
      ++stats->opted_out;
      return true;
    }
    if (!m.found) {
      ++stats->no_main_content;
      return true;
    }
    if (m.truncated) ++stats->truncated;
    nlohmann::ordered_json j;
    j["url"] = p.url;
    j["title"] = m.title.empty() ? p.title : m.title;
    j["lang"] = m.lang;
    j[field] = options.markdown ? std::move(m.markdown) : std::move(m.text);
    if (!optout.signals.empty()) {
      j["optout"] = optout.signals;
      ++stats->with_signals;
    }
    out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    ++stats->written;
    return static_cast<bool>(out);
  });
}

}  // namespace

StatusOr<TextExportStats> WriteTextExport(const std::string& crawl_dir,
                                          const std::string& out_path, std::ostream& out,
                                          const TextExportOptions& options) {
  auto db = CrawlDbReader::Open(crawl_dir);
  if (!db.ok()) return db.status();
  if (Status s = CheckExportSchema(**db); !s.ok()) return s;
  ExportFilter filter;
  filter.relevant_only = options.relevant_only;
  filter.beta = ExportBeta(**db, options.beta);
  HostOptOut hosts(options.robots_agent);
  if (Status s = hosts.Load(**db); !s.ok()) return s;
  TextExportStats stats;
  if (out_path.empty()) {
    Status s = WriteLines(**db, crawl_dir, filter, hosts, options, out, &stats);
    out.flush();
    if (!s.ok()) return s;
    if (!out) return Status::Error("write failed");
    return stats;
  }
  const std::string tmp = out_path + ".tmp";
  std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
  if (!file) return Status::Error("cannot write " + tmp + ": " + std::strerror(errno));
  Status s = WriteLines(**db, crawl_dir, filter, hosts, options, file, &stats);
  file.close();
  if (s.ok() && !file) s = Status::Error("write failed for " + tmp);
  if (s.ok() && std::rename(tmp.c_str(), out_path.c_str()) != 0) {
    s = Status::Error("cannot rename " + tmp + ": " + std::strerror(errno));
  }
  if (!s.ok()) {
    std::remove(tmp.c_str());
    return s;
  }
  return stats;
}

std::string TextExportSummary(const TextExportStats& s) {
  std::string out = "exported " + std::to_string(s.written) + " of " + std::to_string(s.pages) +
                    " pages";
  std::string left;
  auto add = [&](int64_t n, const char* what) {
    if (n > 0) left += (left.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(s.opted_out, "opted out (--respect-optout)");
  add(s.no_main_content, "without main content");
  add(s.not_html, "not HTML");
  add(s.unreadable, "with an unreadable WARC record");
  if (!left.empty()) out += "; left out: " + left;
  if (s.with_signals > 0) {
    out += "; " + std::to_string(s.with_signals) + " written with opt-out signals";
  }
  if (s.truncated > 0) {
    out += "; " + std::to_string(s.truncated) + " cut at the 10 MB page bound";
  }
  return out;
}

}  // namespace topicrawl
