#include "graph/link_graph.h"

#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace topicrawl {
namespace {

using ::testing::ElementsAre;

std::vector<NodeId> V(std::span<const NodeId> s) { return {s.begin(), s.end()}; }

TEST(LinkGraphTest, NodesAreDenseAndFoundByUrlId) {
  LinkGraph g;
  EXPECT_EQ(g.AddNode(1001), 0u);
  EXPECT_EQ(g.AddNode(2002), 1u);
  EXPECT_EQ(g.AddNode(1001), 0u);  // same URL, same node
  EXPECT_EQ(g.NodeCount(), 2u);
  EXPECT_EQ(g.FindNode(2002), 1u);
  EXPECT_FALSE(g.FindNode(3003).has_value());
  EXPECT_EQ(g.UrlOf(1), 2002u);
}

TEST(LinkGraphTest, OutlinksAreASetAndParentsMirrorThem) {
  LinkGraph g;
  for (UrlId u = 0; u < 4; ++u) g.AddNode(100 + u);
  std::vector<NodeId> links = {2, 1, 2, 2, 0, 99};  // dup 2, self 0, unknown 99
  g.SetOutlinks(0, links);
  EXPECT_THAT(V(g.Children(0)), ElementsAre(0, 1, 2));
  EXPECT_EQ(g.OutDegree(0), 3u);
  EXPECT_THAT(V(g.Parents(2)), ElementsAre(0));
  EXPECT_EQ(g.InDegree(1), 1u);
  EXPECT_EQ(g.InDegree(3), 0u);
  EXPECT_EQ(g.EdgeCount(), 3u);
}

TEST(LinkGraphTest, SettingOutlinksAgainReplacesTheEdges) {
  LinkGraph g;
  for (UrlId u = 0; u < 4; ++u) g.AddNode(u);
  std::vector<NodeId> first = {1, 2};
  std::vector<NodeId> second = {3};
  g.SetOutlinks(0, first);
  g.SetOutlinks(0, second);
  EXPECT_THAT(V(g.Children(0)), ElementsAre(3));
  EXPECT_EQ(g.InDegree(1), 0u);
  EXPECT_EQ(g.InDegree(2), 0u);
  EXPECT_THAT(V(g.Parents(3)), ElementsAre(0));
  EXPECT_EQ(g.EdgeCount(), 1u);
}

}  // namespace
}  // namespace topicrawl
