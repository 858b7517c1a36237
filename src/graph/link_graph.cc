#include "graph/link_graph.h"

#include <algorithm>

namespace topicrawl {

NodeId LinkGraph::AddNode(UrlId url_id) {
  auto [it, inserted] =
      node_of_.try_emplace(url_id, static_cast<NodeId>(url_of_.size()));
  if (inserted) {
    url_of_.push_back(url_id);
    children_.emplace_back();
    parents_.emplace_back();
  }
  return it->second;
}

std::optional<NodeId> LinkGraph::FindNode(UrlId url_id) const {
  auto it = node_of_.find(url_id);
  if (it == node_of_.end()) return std::nullopt;
  return it->second;
}

void LinkGraph::SetOutlinks(NodeId from, std::span<const NodeId> targets) {
  // Drop the old edges (a re-crawled page replaces its links).
  for (NodeId child : children_[from]) {
    auto& p = parents_[child];
    p.erase(std::find(p.begin(), p.end(), from));
  }
  edges_ -= children_[from].size();
  std::vector<NodeId> out;
  out.reserve(targets.size());
  for (NodeId t : targets) {
    if (t < url_of_.size()) out.push_back(t);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  for (NodeId child : out) parents_[child].push_back(from);
  edges_ += out.size();
  children_[from] = std::move(out);
}

}  // namespace topicrawl
