// LinkGraph: the link structure a crawl has seen, as a directed graph of
// pages. Nodes are URL ids (UrlId, the frontier's de-duplication key); a node
// exists for every URL the crawl chose to know about (the Wang-Landau crawler
// adds a node per admitted URL: crawled or still queued). Edges go from a
// crawled page to the nodes its outlinks point at; several links from one
// page to one target are one edge (seed 000 eq. 6 counts the SET C_i of
// out-links).
//
// Users: PageRank (graph/page_rank.h) for seed 000's importance, and seed
// 004's JLSE link graph Gw (parents = the pages that link to a page).
//
// Cost: a node costs ~24 bytes in the id map plus two small vectors; an edge
// 8 bytes (stored once as child, once as parent). AddNode/FindNode are O(1)
// expected; SetOutlinks(n, k targets) is O(k + old out-degree).
//
// Thread-safety: none; callers that share a graph lock around it.
#ifndef TOPICRAWL_GRAPH_LINK_GRAPH_H_
#define TOPICRAWL_GRAPH_LINK_GRAPH_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/crawl_task.h"

namespace topicrawl {

// Dense node index, 0..NodeCount()-1 in order of creation.
using NodeId = uint32_t;

class LinkGraph {
 public:
  // The node of `url_id`, created (with no edges) when new.
  NodeId AddNode(UrlId url_id);
  std::optional<NodeId> FindNode(UrlId url_id) const;
  // REQUIRES: node < NodeCount().
  UrlId UrlOf(NodeId node) const { return url_of_[node]; }

  // Replaces the out-edges of `from` by the distinct `targets` (self-links
  // kept: a page that links to itself votes for itself, as in eq. 6).
  // Unknown node ids are ignored. REQUIRES: from < NodeCount().
  void SetOutlinks(NodeId from, std::span<const NodeId> targets);

  // REQUIRES (all below): node < NodeCount().
  std::span<const NodeId> Children(NodeId node) const { return children_[node]; }
  std::span<const NodeId> Parents(NodeId node) const { return parents_[node]; }
  size_t OutDegree(NodeId node) const { return children_[node].size(); }
  size_t InDegree(NodeId node) const { return parents_[node].size(); }

  size_t NodeCount() const { return url_of_.size(); }
  size_t EdgeCount() const { return edges_; }

 private:
  absl::flat_hash_map<UrlId, NodeId> node_of_;
  std::vector<UrlId> url_of_;
  std::vector<std::vector<NodeId>> children_;
  std::vector<std::vector<NodeId>> parents_;
  size_t edges_ = 0;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_GRAPH_LINK_GRAPH_H_
