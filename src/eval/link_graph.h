// The link graph of a benchmark web as a crawler sees it, for the oracle
// crawl (eval/oracle_crawl.h).
//
// Source: a crawl directory of a crawl that fetched the whole reachable web
// (`topicrawl crawl --strategy bfs` from the homes with no page budget, the
// same --connect-to/--cacert and the default link storage). That crawl's
// `pages` rows with status 'ok' are the nodes and its `links` view the
// edges. Taking the graph from a crawl instead of parsing the web's files
// makes it exactly the graph the strategies walk: the same HTML parser, the
// same <base href>, https-to-http and junk-href handling, the same 404s and
// redirects. Its limits are those of that crawl: a page it did not reach
// (orphans, URL-trap refusals) is no node, so the oracle cannot fetch it
// either.
//
// Nodes are canonical label URLs (CanonicalizeLabelUrl), so they match the
// label files; a redirected request is an alias of its final URL's node.
// Edges to URLs that are no node (404s, external hosts, non-ok rows) are
// dropped, as are self-loops and duplicates.
#ifndef TOPICRAWL_EVAL_LINK_GRAPH_H_
#define TOPICRAWL_EVAL_LINK_GRAPH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/status.h"

namespace topicrawl::eval {

// A directed graph in compressed sparse row form, forward and reverse.
class LinkGraph {
 public:
  // Builds from (from, to) URL pairs; both ends are canonicalised. `nodes`
  // lists every page URL (canonicalised, duplicates merged) and `aliases`
  // maps further URLs (e.g. a redirect's request URL) to a node's URL.
  // Pairs whose ends are no node are dropped.
  static LinkGraph Build(const std::vector<std::string>& nodes,
                         const std::vector<std::pair<std::string, std::string>>& aliases,
                         const std::vector<std::pair<std::string, std::string>>& edges);

  int32_t node_count() const { return static_cast<int32_t>(urls_.size()); }
  int64_t edge_count() const { return static_cast<int64_t>(out_targets_.size()); }
  const std::string& url(int32_t node) const { return urls_[node]; }
  // The node of a URL (canonicalised here), or nullopt.
  std::optional<int32_t> Find(const std::string& url) const;

  // Out-neighbours [begin, end) of `node`, and in-neighbours.
  const int32_t* OutBegin(int32_t node) const { return out_targets_.data() + out_start_[node]; }
  const int32_t* OutEnd(int32_t node) const { return out_targets_.data() + out_start_[node + 1]; }
  const int32_t* InBegin(int32_t node) const { return in_sources_.data() + in_start_[node]; }
  const int32_t* InEnd(int32_t node) const { return in_sources_.data() + in_start_[node + 1]; }

 private:
  void SetEdges(std::vector<std::pair<int32_t, int32_t>> edges);

  std::vector<std::string> urls_;
  std::unordered_map<std::string, int32_t> index_;  // canonical URL (and aliases) -> node
  std::vector<int64_t> out_start_, in_start_;
  std::vector<int32_t> out_targets_, in_sources_;
};

// Reads the graph of the crawl in `crawl_dir` (see above). Fails with a
// message naming the file when it is no crawl database or has no links.
StatusOr<LinkGraph> ReadLinkGraph(const std::string& crawl_dir);

// The seed URLs of a crawl: its pages and frontier rows at depth 0.
// Fails when there are none.
StatusOr<std::vector<std::string>> ReadCrawlSeeds(const std::string& crawl_dir);

}  // namespace topicrawl::eval

#endif  // TOPICRAWL_EVAL_LINK_GRAPH_H_
