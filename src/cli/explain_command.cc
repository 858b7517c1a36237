// topicrawl explain DIR URL: why was this page fetched? Prints the page's
// fate and relevance explanation, the score (with its parts) of the link
// that queued it, and the chain of discovering pages back to its seed
// (seed 004's LinkTable walk).
#include <sqlite3.h>

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "crawl/url_trap.h"
#include "robots/robots_cache.h"
#include "url/url.h"

namespace topicrawl::cli {
namespace {

struct Row {
  int64_t id = 0;
  std::string url, status, anchor, title, explanation;
  int http_code = 0, depth = 0;
  int64_t parent = 0;
  std::optional<double> relevance;
  double link_score = 0;
};

std::string Text(sqlite3_stmt* st, int col) {
  const unsigned char* t = sqlite3_column_text(st, col);
  return t ? reinterpret_cast<const char*>(t) : "";
}

std::optional<Row> LoadPage(sqlite3* db, const std::string& where, const std::string& arg) {
  std::string sql =
      "SELECT id, url, status, http_code, depth, parent_id, anchor, relevance, link_score, "
      "title, explanation FROM pages WHERE " + where + " ORDER BY id LIMIT 1";
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) return std::nullopt;
  sqlite3_bind_text(st, 1, arg.c_str(), -1, SQLITE_TRANSIENT);
  std::optional<Row> row;
  if (sqlite3_step(st) == SQLITE_ROW) {
    Row r;
    r.id = sqlite3_column_int64(st, 0);
    r.url = Text(st, 1);
    r.status = Text(st, 2);
    r.http_code = sqlite3_column_int(st, 3);
    r.depth = sqlite3_column_int(st, 4);
    r.parent = sqlite3_column_int64(st, 5);
    r.anchor = Text(st, 6);
    if (sqlite3_column_type(st, 7) != SQLITE_NULL) r.relevance = sqlite3_column_double(st, 7);
    r.link_score = sqlite3_column_double(st, 8);
    r.title = Text(st, 9);
    r.explanation = Text(st, 10);
    row = r;
  }
  sqlite3_finalize(st);
  return row;
}

// Schema 6: a URL refused before any fetch (a URL-trap rule) is a row of the
// `refusals` view, not of pages; id 0 marks it. Older crawls have no view.
std::optional<Row> LoadRefusal(sqlite3* db, const std::string& url, std::string* why) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db,
                         "SELECT url, status, error, depth, parent_id, anchor, score "
                         "FROM refusals WHERE url = ?1 LIMIT 1",
                         -1, &st, nullptr) != SQLITE_OK) {
    return std::nullopt;
  }
  sqlite3_bind_text(st, 1, url.c_str(), -1, SQLITE_TRANSIENT);
  std::optional<Row> row;
  if (sqlite3_step(st) == SQLITE_ROW) {
    Row r;
    r.url = Text(st, 0);
    r.status = Text(st, 1);
    *why = Text(st, 2);
    r.depth = sqlite3_column_int(st, 3);
    r.parent = sqlite3_column_int64(st, 4);
    r.anchor = Text(st, 5);
    r.link_score = sqlite3_column_double(st, 6);
    row = r;
  }
  sqlite3_finalize(st);
  return row;
}

// A link never queued because its URL-trap pattern had spent its budget
// (crawl/url_trap.h) is no row; the pattern's trap_pattern event says when
// that began. Empty when there is none.
std::string SpentTrapPattern(sqlite3* db, const std::string& url) {
  const std::string pattern = UrlPattern(url) + ": ";
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db,
                         "SELECT detail FROM events WHERE kind = 'trap_pattern' AND "
                         "substr(detail, 1, length(?1)) = ?1 LIMIT 1",
                         -1, &st, nullptr) != SQLITE_OK) {
    return "";
  }
  sqlite3_bind_text(st, 1, pattern.c_str(), -1, SQLITE_TRANSIENT);
  std::string out;
  if (sqlite3_step(st) == SQLITE_ROW) out = Text(st, 0);
  sqlite3_finalize(st);
  return out;
}

// The explanation recorded when the URL was admitted to the frontier (the
// merged table, or the log of a crawl that has not been closed).
std::string LinkExplanation(sqlite3* db, const std::string& url) {
  // The log first: schema 4's `frontier` is a view that sorts every row.
  for (const char* table : {"frontier_log", "frontier"}) {
    std::string sql = std::string("SELECT explanation FROM ") + table +
                      " WHERE url = ?1 AND explanation != '' LIMIT 1";
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) continue;
    sqlite3_bind_text(st, 1, url.c_str(), -1, SQLITE_TRANSIENT);
    std::string out;
    if (sqlite3_step(st) == SQLITE_ROW) out = Text(st, 0);
    sqlite3_finalize(st);
    if (!out.empty()) return out;
  }
  return "";
}

// --render auto: the decision recorded for the page's host ("" if none).
std::string RenderDecision(sqlite3* db, const std::string& url) {
  const std::string key = RobotsHostKey(url);
  if (key.empty()) return "";
  sqlite3_stmt* st = nullptr;
  const char* sql =
      "SELECT detail FROM events WHERE kind = 'render_decision' AND substr(detail, 1, ?2) = ?1 "
      "LIMIT 1";
  if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK) return "";
  const std::string prefix = key + ": ";
  sqlite3_bind_text(st, 1, prefix.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st, 2, static_cast<int>(prefix.size()));
  std::string out;
  if (sqlite3_step(st) == SQLITE_ROW) out = Text(st, 0).substr(prefix.size());
  sqlite3_finalize(st);
  return out;
}

int RunExplain(const std::string& dir, const std::string& input) {
  sqlite3* db = nullptr;
  std::string path = dir + "/crawl.db";
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    std::cerr << "error: cannot open " << path << "\n";
    sqlite3_close(db);
    return kExitUsage;
  }
  std::string url = ResolveLink("", input).value_or(input);
  std::optional<Row> page = LoadPage(db, "url = ?1 OR final_url = ?1", url);
  std::string refused_why;
  if (!page) page = LoadRefusal(db, url, &refused_why);
  if (!page) {
    if (std::string trap = SpentTrapPattern(db, url); !trap.empty()) {
      std::printf("not queued: %s\n  its URL-trap pattern had spent its budget before a "
                  "link to it was found: %s\n",
                  url.c_str(), trap.c_str());
      sqlite3_close(db);
      return kExitOk;
    }
    std::cerr << "error: " << url << " is not a page of this crawl\n";
    sqlite3_close(db);
    return kExitFailure;
  }
  if (page->id == 0) {
    // Schema 6: a refusal has no pages row (no id, nothing fetched).
    std::printf("refused: %s\n  status %s: %s, depth %d\n", page->url.c_str(),
                page->status.c_str(), refused_why.c_str(), page->depth);
    std::printf("  admitted with link score %.4f via anchor \"%s\"\n", page->link_score,
                page->anchor.c_str());
    std::printf("path back to the seed:\n");
    std::printf("  [-] depth %d  %s\n", page->depth, page->url.c_str());
    std::optional<Row> cur;
    if (page->parent != 0) cur = LoadPage(db, "id = ?1", std::to_string(page->parent));
    for (int hops = 0; cur && hops < 1000; ++hops) {
      std::printf("  [%lld] depth %d  %s\n", static_cast<long long>(cur->id), cur->depth,
                  cur->url.c_str());
      if (cur->parent == 0) break;
      cur = LoadPage(db, "id = ?1", std::to_string(cur->parent));
    }
    sqlite3_close(db);
    return kExitOk;
  }
  std::printf("page %lld: %s\n  status %s (HTTP %d), depth %d, title \"%s\"\n",
              static_cast<long long>(page->id), page->url.c_str(), page->status.c_str(),
              page->http_code, page->depth, page->title.c_str());
  if (page->relevance) std::printf("  relevance R(P) = %.4f\n", *page->relevance);
  if (!page->explanation.empty()) std::printf("  why relevant: %s\n", page->explanation.c_str());
  std::printf("  selected with link score %.4f via anchor \"%s\"\n", page->link_score,
              page->anchor.c_str());
  std::string link = LinkExplanation(db, page->url);
  if (!link.empty()) std::printf("  why queued: %s\n", link.c_str());
  if (std::string r = RenderDecision(db, page->url); !r.empty()) {
    std::printf("  rendering (its host): %s\n", r.c_str());
  }
  std::printf("path back to the seed:\n");
  std::optional<Row> cur = page;
  for (int hops = 0; cur && hops < 1000; ++hops) {
    std::printf("  [%lld] depth %d  %s%s%s\n", static_cast<long long>(cur->id), cur->depth,
                cur->url.c_str(), cur->anchor.empty() ? "" : "  <- \"",
                cur->anchor.empty() ? "" : (cur->anchor + "\"").c_str());
    if (cur->parent == 0) break;
    cur = LoadPage(db, "id = ?1", std::to_string(cur->parent));
  }
  sqlite3_close(db);
  return kExitOk;
}

}  // namespace

void AddExplainCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "explain", "Why was a page fetched: its relevance, the link score that queued it, "
                 "and its path back to the seed");
  auto dir = std::make_shared<std::string>();
  auto url = std::make_shared<std::string>();
  cmd->add_option("DIR", *dir, "Crawl directory")->required();
  cmd->add_option("URL", *url, "Page URL (as crawled or after redirects)")->required();
  cmd->callback([dir, url, exit_code] { *exit_code = RunExplain(*dir, *url); });
}

}  // namespace topicrawl::cli
