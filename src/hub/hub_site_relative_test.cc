// Site-relative percentiles (hub_site_relative.h).
#include "hub/hub_site_relative.h"

#include <gtest/gtest.h>

namespace topicrawl::hub {
namespace {

TEST(HubSiteRelativeTest, NumericFeaturesBecomeMidRankPercentilesWithinTheirSite) {
  // Two sites whose URL lengths differ by a factor of ten: the same rank
  // within a site gives the same value.
  std::vector<std::string_view> hosts = {"a", "a", "a", "a", "b", "b", "b", "b"};
  std::vector<std::vector<double>> rows = {{10, 9}, {20, 9}, {20, 60.4}, {40, 9},
                                           {100, 9}, {200, 9}, {200, 60.4}, {400, 9}};
  ToSitePercentiles(hosts, {true, false}, &rows);
  const std::vector<double> want = {0.125, 0.5, 0.5, 0.875};  // ties share the mid rank
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(rows[i][0], want[i]) << i;
    EXPECT_DOUBLE_EQ(rows[i + 4][0], want[i]) << i;
  }
  // The categorical dimension keeps its encoding.
  EXPECT_EQ(rows[2][1], 60.4);
  EXPECT_EQ(rows[3][1], 9);
}

TEST(HubSiteRelativeTest, OnlyTheNumericFeaturesAreSiteRelative) {
  const std::vector<std::string>& names = HubFeatureNames(HubFeatureSet::kFull);
  const std::vector<bool> dims = SiteRelativeDims(HubFeatureSet::kFull);
  ASSERT_EQ(dims.size(), names.size());
  for (size_t d = 0; d < names.size(); ++d) {
    const bool categorical = names[d] == "contains_date" || names[d] == "file_name" ||
                             names[d] == "file_type" || names[d] == "param_name";
    EXPECT_EQ(dims[d], !categorical) << names[d];
  }
}

TEST(HubSiteRelativeTest, ASiteOfOneUrlGivesOneHalf) {
  std::vector<std::string_view> hosts = {"only"};
  std::vector<std::vector<double>> rows = {{57}};
  ToSitePercentiles(hosts, {true}, &rows);
  EXPECT_DOUBLE_EQ(rows[0][0], 0.5);
}

}  // namespace
}  // namespace topicrawl::hub
