#include "eval/link_graph.h"

#include <sqlite3.h>

#include <algorithm>
#include <utility>

#include "eval/labels.h"
#include "eval/sqlite_handles.h"

namespace topicrawl::eval {
namespace {

// The crawl's database opened read-only, and its path for error messages.
struct CrawlDb {
  std::string path;
  DbPtr db;
};

StatusOr<CrawlDb> OpenCrawlDb(const std::string& crawl_dir) {
  StatusOr<std::string> path = CrawlDbPath(crawl_dir);
  if (!path.ok()) return path.status();
  StatusOr<DbPtr> db = OpenReadOnly(*path);
  if (!db.ok()) return db.status();
  return CrawlDb{*path, std::move(*db)};
}

}  // namespace

LinkGraph LinkGraph::Build(const std::vector<std::string>& nodes,
                           const std::vector<std::pair<std::string, std::string>>& aliases,
                           const std::vector<std::pair<std::string, std::string>>& edges) {
  LinkGraph g;
  for (const std::string& url : nodes) {
    std::string canonical = CanonicalizeLabelUrl(url);
    if (g.index_.emplace(canonical, static_cast<int32_t>(g.urls_.size())).second) {
      g.urls_.push_back(std::move(canonical));
    }
  }
  for (const auto& [alias, target] : aliases) {
    if (std::optional<int32_t> node = g.Find(target)) {
      g.index_.emplace(CanonicalizeLabelUrl(alias), *node);
    }
  }
  std::vector<std::pair<int32_t, int32_t>> ids;
  ids.reserve(edges.size());
  for (const auto& [from, to] : edges) {
    std::optional<int32_t> a = g.Find(from), b = g.Find(to);
    if (a && b && *a != *b) ids.emplace_back(*a, *b);
  }
  g.SetEdges(std::move(ids));
  return g;
}

void LinkGraph::SetEdges(std::vector<std::pair<int32_t, int32_t>> edges) {
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  const size_t n = urls_.size();
  out_start_.assign(n + 1, 0);
  in_start_.assign(n + 1, 0);
  for (const auto& [a, b] : edges) ++out_start_[a + 1], ++in_start_[b + 1];
  for (size_t i = 0; i < n; ++i) {
    out_start_[i + 1] += out_start_[i];
    in_start_[i + 1] += in_start_[i];
  }
  out_targets_.resize(edges.size());
  in_sources_.resize(edges.size());
  std::vector<int64_t> in_fill(in_start_.begin(), in_start_.end() - 1);
  for (size_t i = 0; i < edges.size(); ++i) {
    out_targets_[i] = edges[i].second;  // sorted by source: rows are in order
    in_sources_[in_fill[edges[i].second]++] = edges[i].first;
  }
}

std::optional<int32_t> LinkGraph::Find(const std::string& url) const {
  auto it = index_.find(CanonicalizeLabelUrl(url));
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

StatusOr<LinkGraph> ReadLinkGraph(const std::string& crawl_dir) {
  StatusOr<CrawlDb> db = OpenCrawlDb(crawl_dir);
  if (!db.ok()) return db.status();
  const std::string& path = db->path;
  // Page ids to their effective URL; requested URLs of redirects are aliases.
  std::unordered_map<int64_t, std::string> page_url;
  std::vector<std::string> nodes;
  std::vector<std::pair<std::string, std::string>> aliases;
  Status s = ForEachRow(
      db->db.get(), path, "SELECT id, url, coalesce(final_url, '') FROM pages WHERE status = 'ok'",
      [&](sqlite3_stmt* st) {
        std::string url = ColumnText(st, 1), final_url = ColumnText(st, 2);
        if (!final_url.empty() && final_url != url) aliases.emplace_back(url, final_url);
        nodes.push_back(final_url.empty() ? url : final_url);
        page_url[sqlite3_column_int64(st, 0)] = nodes.back();
      });
  if (!s.ok()) return s;
  if (nodes.empty()) return Status::Error(path + ": no downloaded pages to take a link graph from");
  std::vector<std::pair<std::string, std::string>> edges;
  s = ForEachRow(db->db.get(), path, "SELECT from_id, to_url FROM links", [&](sqlite3_stmt* st) {
    auto it = page_url.find(sqlite3_column_int64(st, 0));
    if (it != page_url.end()) edges.emplace_back(it->second, ColumnText(st, 1));
  });
  if (!s.ok()) return s;
  if (edges.empty()) {
    return Status::Error(path + ": no stored links (was it crawled with link storage off?)");
  }
  return LinkGraph::Build(nodes, aliases, edges);
}

StatusOr<std::vector<std::string>> ReadCrawlSeeds(const std::string& crawl_dir) {
  StatusOr<CrawlDb> db = OpenCrawlDb(crawl_dir);
  if (!db.ok()) return db.status();
  const std::string& path = db->path;
  std::vector<std::string> seeds;
  auto add = [&seeds](sqlite3_stmt* st) { seeds.push_back(ColumnText(st, 0)); };
  Status s = ForEachRow(db->db.get(), path, "SELECT url FROM pages WHERE depth = 0 ORDER BY id", add);
  if (!s.ok()) return s;
  // Schema 5+: admissions are frontier_log rows; older stores have a table
  // `frontier`. A seed has no parent, so its URL is stored whole.
  if (!ForEachRow(db->db.get(), path, "SELECT url FROM frontier_log WHERE depth = 0", add).ok()) {
    ForEachRow(db->db.get(), path, "SELECT url FROM frontier WHERE depth = 0", add);
  }
  std::sort(seeds.begin(), seeds.end());
  seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
  if (seeds.empty()) return Status::Error(path + ": no seed rows (depth 0) found");
  return seeds;
}

}  // namespace topicrawl::eval
