#include "url/url_filter.h"

#include <gtest/gtest.h>

#include "url/url.h"

namespace topicrawl {
namespace {

TEST(HostUrlFilterTest, MatchesExactHostIgnoringPortAndUserinfo) {
  auto f = NewHostUrlFilter({"Example.com"}, FilterDecision::kAccept, false);
  EXPECT_EQ(f->Decide("http://example.com/a"), FilterDecision::kAccept);
  EXPECT_EQ(f->Decide("http://u@example.com:8080/a"), FilterDecision::kAccept);
  EXPECT_EQ(f->Decide("http://www.example.com/a"), FilterDecision::kNoOpinion);
  EXPECT_EQ(f->Decide("http://other.org/example.com"), FilterDecision::kNoOpinion);
}

TEST(HostUrlFilterTest, SuffixMatchRespectsLabelBoundary) {
  auto f = NewHostUrlFilter({"https://example.com/"}, FilterDecision::kReject, true);
  EXPECT_EQ(f->Decide("http://a.b.example.com/"), FilterDecision::kReject);
  EXPECT_EQ(f->Decide("http://example.com/"), FilterDecision::kReject);
  EXPECT_EQ(f->Decide("http://badexample.com/"), FilterDecision::kNoOpinion);
}

TEST(HostUrlFilterTest, NormalisesIdnEntries) {
  auto f = NewHostUrlFilter({"\xE4\xB8\xAD\xE6\x96\x87.COM"}, FilterDecision::kAccept, true);
  EXPECT_EQ(f->Decide(*ResolveLink("", "http://www.\xE4\xB8\xAD\xE6\x96\x87.com/")),
            FilterDecision::kAccept);
}

TEST(RegexUrlFilterTest, SearchesAnywhereAndReportsBadPatterns) {
  auto f = NewRegexUrlFilter(R"(\.(pdf|zip)$)", FilterDecision::kReject);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)->Decide("http://h/a.pdf"), FilterDecision::kReject);
  EXPECT_EQ((*f)->Decide("http://h/a.pdf.html"), FilterDecision::kNoOpinion);
  auto bad = NewRegexUrlFilter("([", FilterDecision::kReject);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("invalid URL regex"), std::string::npos);
}

TEST(UrlFilterChainTest, LastOpinionWinsElseDefault) {
  UrlFilterChain chain(FilterDecision::kReject);
  chain.Add(NewHostUrlFilter({"example.com"}, FilterDecision::kAccept, true));
  chain.Add(NewRegexUrlFilter("/private/", FilterDecision::kReject).value());
  chain.Add(NewMaxLengthUrlFilter(kMaxUrlLength, FilterDecision::kReject));
  EXPECT_TRUE(chain.Accepts("http://www.example.com/a"));
  EXPECT_EQ(chain.Decide("http://www.example.com/private/x"), FilterDecision::kReject);
  EXPECT_EQ(chain.Decide("http://other.org/"), FilterDecision::kReject);
  EXPECT_EQ(chain.Decide("http://example.com/" + std::string(kMaxUrlLength, 'a')),
            FilterDecision::kReject);
  EXPECT_TRUE(UrlFilterChain().Accepts("http://anything/"));
}

TEST(UrlFilterTest, DescribesItself) {
  EXPECT_EQ(NewHostUrlFilter({"a.com", "b.org"}, FilterDecision::kAccept, false)->Describe(),
            "host in {a.com, b.org} -> accept");
  EXPECT_EQ(FilterDecisionName(FilterDecision::kNoOpinion), "no_opinion");
}

}  // namespace
}  // namespace topicrawl
