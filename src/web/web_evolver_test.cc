#include "web/web_evolver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace topicrawl::web {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

// Five pages on two hosts: a.test/ -> x, y; x -> y, b.test/; y -> x and a
// link off the web; b.test/ -> z; z links nowhere.
class BuildEvolveGraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("web_evolver_test_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    Page("http://a.test/index.html", "a.test", "<a href=x.html>x</a> <a href='/y.html'>y</a>");
    Page("http://a.test/x.html", "a.test", "<a href=y.html>y</a> <a href=http://b.test/>b</a>");
    Page("http://a.test/y.html", "a.test", "<a href=x.html>x</a> <a href=http://elsewhere.test/>e</a>");
    Page("http://b.test/index.html", "b.test", "<a href=z.html>z</a>");
    Page("http://b.test/z.html", "b.test", "<p>no links</p>");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Page(const std::string& url, const std::string& host, const std::string& body) {
    std::string file = dir_ + "/p" + std::to_string(base_.urls.size()) + ".html";
    std::ofstream(file) << "<html><body>" << body << "</body></html>";
    base_.urls.push_back(url);
    base_.hosts.push_back(host);
    base_.files.push_back(file);
  }
  std::string Homes(const std::string& text) {
    std::string path = dir_ + "/homes.tsv";
    std::ofstream(path) << text;
    return path;
  }

  std::string dir_;
  BaseWeb base_;
};

TEST_F(BuildEvolveGraphTest, LinksBetweenPagesOfTheWebAndHomesAsRoots) {
  auto g = BuildEvolveGraph(base_, {}, Homes("host\thome_url\trole\na.test\thttp://a.test/\tdocs\n"));
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_THAT(g->graph.links[0], ElementsAre(1u, 2u));
  EXPECT_THAT(g->graph.links[1], ElementsAre(2u, 3u));
  EXPECT_THAT(g->graph.links[2], ElementsAre(1u));  // elsewhere.test is not a page of the web
  EXPECT_THAT(g->graph.links[4], IsEmpty());
  EXPECT_EQ(g->links, 6u);
  EXPECT_THAT(g->graph.roots, ElementsAre(0u));
  EXPECT_EQ(g->graph.rate_base, 0u);  // every page: rates over size()
  EXPECT_EQ(g->index.at("http://b.test/z.html"), 4u);
}

TEST_F(BuildEvolveGraphTest, HostsKeepTheirPagesOnlyAndCountThemForRates) {
  auto g = BuildEvolveGraph(base_, {"a.test"}, "");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_THAT(g->included, ElementsAre(1, 1, 1, 0, 0));
  EXPECT_THAT(g->graph.links[1], ElementsAre(2u));  // the link to b.test/ is dropped
  EXPECT_THAT(g->graph.links[3], IsEmpty());
  EXPECT_EQ(g->graph.rate_base, 3u);
  // No homes: the included pages nobody links to (a.test/).
  EXPECT_THAT(g->graph.roots, UnorderedElementsAre(0u));
}

TEST_F(BuildEvolveGraphTest, BadHostsHomesAndFilesAreErrors) {
  auto none = BuildEvolveGraph(base_, {"c.test"}, "");
  ASSERT_FALSE(none.ok());
  EXPECT_THAT(none.status().message(), HasSubstr("none of the given hosts"));
  auto foreign = BuildEvolveGraph(base_, {}, Homes("q.test\thttp://q.test/\tdocs\n"));
  ASSERT_FALSE(foreign.ok());
  EXPECT_THAT(foreign.status().message(), HasSubstr("homes of another web"));
  auto off_hosts = BuildEvolveGraph(base_, {"b.test"}, Homes("a.test\thttp://a.test/\tdocs\n"));
  ASSERT_FALSE(off_hosts.ok());
  EXPECT_THAT(off_hosts.status().message(), HasSubstr("no home page on the --hosts"));
  auto missing = BuildEvolveGraph(base_, {}, dir_ + "/no-such-homes.tsv");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("cannot read homes file"));
  fs::remove(base_.files[2]);
  auto unreadable = BuildEvolveGraph(base_, {}, "");
  ASSERT_FALSE(unreadable.ok());
  EXPECT_THAT(unreadable.status().message(), HasSubstr("cannot read " + base_.files[2]));
}

}  // namespace
}  // namespace topicrawl::web
