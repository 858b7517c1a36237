// Politeness timing with a FakeClock: delay between request starts, per-host
// connection cap, Crawl-delay floor, Retry-After, back-off growth and reset,
// hold/release, the global in-flight limit.
#include <gtest/gtest.h>

#include "support/frontier_test_util.h"

namespace topicrawl {
namespace {

using testing::Link;
using testing::MakeFrontier;

class FrontierPolitenessTest : public ::testing::Test {
 protected:
  std::unique_ptr<Frontier> Make(FrontierOptions options) {
    return MakeFrontier(options, &clock_, "best-first");
  }
  void Advance(double seconds) { clock_.Advance(Seconds(seconds)); }
  double SecondsUntilWakeup(const Frontier& f) const {
    return std::chrono::duration<double>(f.NextWakeup() - clock_.Now()).count();
  }
  FakeClock clock_;
};

TEST_F(FrontierPolitenessTest, SpacesRequestStartsByTheDelay) {
  FrontierOptions o;
  o.min_delay_s = 1.0;
  auto f = Make(o);
  f->Add(Link("http://a.com/1", 0.9));
  f->Add(Link("http://a.com/2", 0.8));
  auto first = f->Next();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->url, "http://a.com/1");
  // The second connection is free, but the delay is not over.
  EXPECT_FALSE(f->Next());
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 1.0);
  Advance(0.999);
  EXPECT_FALSE(f->Next());
  Advance(0.001);
  auto second = f->Next();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->url, "http://a.com/2");
}

TEST_F(FrontierPolitenessTest, ZeroDelayIsAllowed) {
  FrontierOptions o;
  o.min_delay_s = 0;
  auto f = Make(o);
  f->Add(Link("http://a.com/1"));
  f->Add(Link("http://a.com/2"));
  EXPECT_TRUE(f->Next());
  EXPECT_TRUE(f->Next());
}

TEST_F(FrontierPolitenessTest, CapsConnectionsPerHost) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.max_connections_per_host = 2;
  auto f = Make(o);
  for (int i = 0; i < 3; ++i) f->Add(Link("http://a.com/" + std::to_string(i)));
  auto t1 = f->Next();
  auto t2 = f->Next();
  ASSERT_TRUE(t1 && t2);
  EXPECT_FALSE(f->Next());
  // Only a Complete can free the host: no timed wakeup.
  EXPECT_EQ(f->NextWakeup(), TimePoint::max());
  EXPECT_EQ(f->Complete(*t1, HostFeedback{}), CompleteResult::kFinal);
  EXPECT_TRUE(f->Next());
  EXPECT_EQ(f->InFlight(), 2u);
}

TEST_F(FrontierPolitenessTest, OtherHostsAreServedWhileOneWaits) {
  FrontierOptions o;
  o.min_delay_s = 10;
  auto f = Make(o);
  f->Add(Link("http://a.com/1", 0.9));
  f->Add(Link("http://a.com/2", 0.8));
  f->Add(Link("http://b.com/1", 0.1));
  EXPECT_EQ(f->Next()->url, "http://a.com/1");
  EXPECT_EQ(f->Next()->url, "http://b.com/1");
  EXPECT_FALSE(f->Next());
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 10.0);
}

// A host key interns to the host its URLs intern to, for every port form
// HostKeyOfUrl gives (default ports dropped, "h:80" only from https).
TEST_F(FrontierPolitenessTest, InternHostKeyIsTheHostOfItsUrls) {
  auto f = Make(FrontierOptions());
  const HostId a = *f->InternHost("http://a.com/x");
  const HostId b443 = *f->InternHost("http://b.com:443/");
  const HostId c80 = *f->InternHost("https://c.com:80/");
  EXPECT_EQ(f->InternHostKey("a.com"), a);
  EXPECT_EQ(*f->InternHost("https://a.com/y"), a);
  EXPECT_EQ(f->InternHostKey("b.com:443"), b443);
  EXPECT_EQ(f->InternHostKey("c.com:80"), c80);
  const HostId d = f->InternHostKey("d.com:8080");
  EXPECT_EQ(*f->InternHost("http://d.com:8080/z"), d);
  EXPECT_EQ(f->HostKey(d), "d.com:8080");
  EXPECT_EQ(f->Hosts(), 4u);
}

TEST_F(FrontierPolitenessTest, CrawlDelayFloorRaisesTheDelay) {
  FrontierOptions o;
  o.min_delay_s = 1;
  auto f = Make(o);
  f->Add(Link("http://a.com/1", 0.9));
  f->Add(Link("http://a.com/2", 0.8));
  HostId a = *f->InternHost("http://a.com/");
  f->SetHostMinDelay(a, 5);
  ASSERT_TRUE(f->Next());
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 5.0);
  Advance(4.5);
  EXPECT_FALSE(f->Next());
  Advance(0.5);
  EXPECT_TRUE(f->Next());
}

TEST_F(FrontierPolitenessTest, CrawlDelayBelowTheDefaultDoesNotLowerIt) {
  FrontierOptions o;
  o.min_delay_s = 2;
  auto f = Make(o);
  f->Add(Link("http://a.com/1"));
  f->Add(Link("http://a.com/2"));
  f->SetHostMinDelay(*f->InternHost("http://a.com/"), 0.5);
  ASSERT_TRUE(f->Next());
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 2.0);
}

TEST_F(FrontierPolitenessTest, RetryAfterHoldsTheHost) {
  FrontierOptions o;
  o.min_delay_s = 0;
  auto f = Make(o);
  f->Add(Link("http://a.com/1", 0.9));
  f->Add(Link("http://a.com/2", 0.8));
  auto t = f->Next();
  ASSERT_TRUE(t);
  HostFeedback fb{FetchStatus::kHttpError, 429, 30};
  EXPECT_EQ(f->Complete(*t, fb), CompleteResult::kRetryQueued);
  EXPECT_FALSE(f->Next());
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 30.0);
  Advance(30);
  auto retry = f->Next();
  ASSERT_TRUE(retry);
  EXPECT_EQ(retry->url, "http://a.com/1");  // same score, kept its place
  EXPECT_EQ(retry->attempt, 1u);
}

TEST_F(FrontierPolitenessTest, RetryAfterIsCapped) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.max_retry_after_s = 100;
  auto f = Make(o);
  f->Add(Link("http://a.com/1"));
  auto t = f->Next();
  f->Complete(*t, HostFeedback{FetchStatus::kHttpError, 503, 1e9});
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 100.0);
}

TEST_F(FrontierPolitenessTest, BackOffDoublesToACapAndResetsOnSuccess) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.max_connections_per_host = 1;
  o.backoff_base_s = 1;
  o.backoff_max_s = 10;
  o.max_retries = 100;
  auto f = Make(o);
  f->Add(Link("http://a.com/1"));
  const double expected[] = {1, 2, 4, 8, 10, 10};
  o.retry_delay_s = 0;
  o.host_failure_budget = 0;
  f = Make(o);
  f->Add(Link("http://a.com/1"));
  for (double wait : expected) {
    auto t = f->Next();
    ASSERT_TRUE(t);
    // 503: a host-wide signal.
    EXPECT_EQ(f->Complete(*t, HostFeedback{FetchStatus::kHttpError, 503, -1}),
              CompleteResult::kRetryQueued);
    EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), wait);
    Advance(wait);
  }
  auto t = f->Next();
  f->Add(Link("http://a.com/2"));
  f->Complete(*t, HostFeedback{FetchStatus::kOk, 200, -1});
  // Success: no back-off, next request at once.
  EXPECT_EQ(f->NextWakeup(), clock_.Now());
  t = f->Next();
  ASSERT_TRUE(t);
  f->Complete(*t, HostFeedback{FetchStatus::kHttpError, 503, -1});
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 1.0);
}

TEST_F(FrontierPolitenessTest, TransientFailuresRetryThenBecomeFinal) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.backoff_base_s = 0;
  o.retry_delay_s = 0;
  o.max_retries = 2;
  auto f = Make(o);
  f->Add(Link("http://a.com/1"));
  HostFeedback timeout{FetchStatus::kTimeout, 0, -1};
  for (uint32_t attempt = 0; attempt < 2; ++attempt) {
    auto t = f->Next();
    ASSERT_TRUE(t);
    EXPECT_EQ(t->attempt, attempt);
    EXPECT_EQ(f->Complete(*t, timeout), CompleteResult::kRetryQueued);
  }
  auto last = f->Next();
  ASSERT_TRUE(last);
  EXPECT_EQ(last->attempt, 2u);
  EXPECT_EQ(f->Complete(*last, timeout), CompleteResult::kFinal);
  EXPECT_EQ(f->Queued(), 0u);
  EXPECT_FALSE(f->Next());
}

TEST_F(FrontierPolitenessTest, ASickUrlDoesNotBlockItsHost) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.max_connections_per_host = 1;
  o.retry_delay_s = 5;
  auto f = Make(o);
  f->Add(Link("http://a.com/1", 0.9));
  f->Add(Link("http://a.com/2", 0.5));
  auto t = f->Next();
  ASSERT_EQ(t->url, "http://a.com/1");
  // A timeout after connecting is the URL's problem: only it waits.
  EXPECT_EQ(f->Complete(*t, HostFeedback{FetchStatus::kTimeout, 0, -1}),
            CompleteResult::kRetryQueued);
  EXPECT_EQ(f->Queued(), 2u);
  auto other = f->Next();
  ASSERT_TRUE(other);
  EXPECT_EQ(other->url, "http://a.com/2");
  f->Complete(*other, HostFeedback{});
  EXPECT_FALSE(f->Next());
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 5.0);
  Advance(5);
  auto retry = f->Next();
  ASSERT_TRUE(retry);
  EXPECT_EQ(retry->url, "http://a.com/1");
  EXPECT_EQ(retry->attempt, 1u);
  // The second retry waits twice as long.
  EXPECT_EQ(f->Complete(*retry, HostFeedback{FetchStatus::kConnectError, 0, -1}),
            CompleteResult::kRetryQueued);
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 10.0);
}

TEST_F(FrontierPolitenessTest, HostSignalsBackTheWholeHostOff) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.retry_delay_s = 0;
  auto f = Make(o);
  f->Add(Link("http://a.com/1", 0.9));
  f->Add(Link("http://a.com/2", 0.5));
  f->Add(Link("http://b.com/1", 0.1));
  auto t = f->Next();
  ASSERT_EQ(t->url, "http://a.com/1");
  HostFeedback refused{FetchStatus::kConnectError, 0, -1};
  refused.host_unreachable = true;
  EXPECT_EQ(f->Complete(*t, refused), CompleteResult::kRetryQueued);
  auto next = f->Next();
  ASSERT_TRUE(next);
  EXPECT_EQ(next->url, "http://b.com/1");  // a.com waits, b.com goes on
  EXPECT_FALSE(f->Next());
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 1.0);
  HostHealth h = f->Health(t->host_id);
  EXPECT_EQ(h.backoff_level, 1);
  EXPECT_EQ(h.consecutive_failures, 1u);
  EXPECT_EQ(h.last_failure, "connect_error");
}

TEST_F(FrontierPolitenessTest, ConsecutiveFailuresAcrossUrlsBecomeAHostSignal) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.max_connections_per_host = 3;
  o.retry_delay_s = 100;
  o.host_backoff_after = 3;
  auto f = Make(o);
  for (int i = 0; i < 4; ++i) f->Add(Link("http://a.com/" + std::to_string(i), 1.0 - i * 0.1));
  std::vector<CrawlTask> tasks;
  for (int i = 0; i < 3; ++i) tasks.push_back(*f->Next());
  HostFeedback timeout{FetchStatus::kTimeout, 0, -1};
  f->Complete(tasks[0], timeout);
  f->Complete(tasks[1], timeout);
  EXPECT_EQ(f->Health(tasks[0].host_id).backoff_level, 0);
  EXPECT_EQ(f->NextWakeup(), clock_.Now());  // a.com/3 is still ready
  f->Complete(tasks[2], timeout);
  EXPECT_EQ(f->Health(tasks[0].host_id).backoff_level, 1);
  EXPECT_FALSE(f->Next());
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 1.0);
  WaitReport w = f->Waiting();
  EXPECT_EQ(w.hosts_backed_off, 1u);
  EXPECT_EQ(w.retries_delayed, 3u);
  EXPECT_EQ(w.worst_host, "a.com");
  EXPECT_EQ(w.worst_failures, 3u);
}

TEST_F(FrontierPolitenessTest, BackOffIsCappedAtAMinuteByDefault) {
  FrontierOptions o;
  EXPECT_LE(o.backoff_max_s, 60.0);
  o.min_delay_s = 0;
  o.retry_delay_s = 0;
  o.max_retries = 100;
  o.host_failure_budget = 0;
  auto f = Make(o);
  f->Add(Link("http://a.com/1"));
  for (int i = 0; i < 12; ++i) {
    auto t = f->Next();
    ASSERT_TRUE(t);
    f->Complete(*t, HostFeedback{FetchStatus::kHttpError, 429, -1});
    EXPECT_LE(SecondsUntilWakeup(*f), 60.0);
    Advance(SecondsUntilWakeup(*f));
  }
  EXPECT_DOUBLE_EQ(std::chrono::duration<double>(f->Health(0).next_start - clock_.Now()).count(),
                   0.0);
}

TEST_F(FrontierPolitenessTest, FailureBudgetGivesTheHostUpAndHandsBackItsUrls) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.max_connections_per_host = 2;
  o.retry_delay_s = 1000;
  o.host_failure_budget = 3;
  auto f = Make(o);
  for (int i = 0; i < 5; ++i) f->Add(Link("http://a.com/" + std::to_string(i), 1.0 - i * 0.1));
  f->Add(Link("http://b.com/1"));
  HostFeedback timeout{FetchStatus::kTimeout, 0, -1};
  auto t0 = f->Next();
  auto t1 = f->Next();
  ASSERT_EQ(t0->host_id, t1->host_id);
  EXPECT_EQ(f->Complete(*t0, timeout), CompleteResult::kRetryQueued);
  EXPECT_EQ(f->Complete(*t1, timeout), CompleteResult::kRetryQueued);
  Advance(1);  // host back-off from the 2nd..: not reached yet (after = 3)
  auto t2 = f->Next();
  ASSERT_TRUE(t2);
  ASSERT_EQ(t2->host_id, t0->host_id);
  // The third consecutive failure spends the budget: final, host given up.
  EXPECT_EQ(f->Complete(*t2, timeout), CompleteResult::kFinal);
  EXPECT_TRUE(f->Health(t0->host_id).failed);
  std::vector<CrawlTask> gone = f->TakeAbandoned();
  // a.com/3 and a.com/4 (queued) plus the retries of a.com/0 and a.com/1.
  EXPECT_EQ(gone.size(), 4u);
  for (const CrawlTask& g : gone) EXPECT_EQ(g.host_id, t0->host_id);
  EXPECT_EQ(f->Queued(), 1u);  // b.com/1
  ASSERT_TRUE(f->Next());
  EXPECT_FALSE(f->Next());
  EXPECT_NE(f->HostFailureReason(t0->host_id).find("3 consecutive failures"), std::string::npos)
      << f->HostFailureReason(t0->host_id);
  // Links of a given-up host found later are admitted and handed back too.
  EXPECT_EQ(f->Add(Link("http://a.com/late")), AddResult::kAdded);
  gone = f->TakeAbandoned();
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0].url, "http://a.com/late");
  EXPECT_TRUE(f->TakeAbandoned().empty());
}

TEST_F(FrontierPolitenessTest, ASuccessEndsTheFailureStreak) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.retry_delay_s = 0;
  o.host_failure_budget = 2;
  o.max_connections_per_host = 1;
  auto f = Make(o);
  for (int i = 0; i < 4; ++i) f->Add(Link("http://a.com/" + std::to_string(i), 1.0 - i * 0.1));
  f->Complete(*f->Next(), HostFeedback{FetchStatus::kTimeout, 0, -1});
  f->Complete(*f->Next(), HostFeedback{FetchStatus::kHttpError, 404, -1});
  f->Complete(*f->Next(), HostFeedback{FetchStatus::kTimeout, 0, -1});
  EXPECT_FALSE(f->Health(0).failed);
  EXPECT_EQ(f->Health(0).consecutive_failures, 1u);
  EXPECT_EQ(f->Health(0).total_failures, 2u);
}

TEST_F(FrontierPolitenessTest, AnAnswerLiftsTheBackOffButNotRetryAfter) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.retry_delay_s = 100;
  o.max_connections_per_host = 2;
  auto f = Make(o);
  for (int i = 0; i < 4; ++i) f->Add(Link("http://a.com/" + std::to_string(i), 1.0 - i * 0.1));
  auto t0 = f->Next();
  auto t1 = f->Next();
  // A 503 backs the host off while t1 is still out...
  f->Complete(*t0, HostFeedback{FetchStatus::kHttpError, 503, -1});
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 1.0);
  // ...which then comes back fine: the host is up, the back-off is lifted.
  f->Complete(*t1, HostFeedback{});
  EXPECT_EQ(f->NextWakeup(), clock_.Now());
  auto t2 = f->Next();
  ASSERT_TRUE(t2);
  // A Retry-After is the server's request and stays in force.
  f->Complete(*t2, HostFeedback{FetchStatus::kHttpError, 429, 20});
  auto t3 = f->Next();
  EXPECT_FALSE(t3);
  Advance(1);
  EXPECT_FALSE(f->Next());
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 19.0);
}

TEST_F(FrontierPolitenessTest, PermanentErrorsAreFinalAtOnce) {
  FrontierOptions o;
  o.min_delay_s = 0;
  auto f = Make(o);
  f->Add(Link("http://a.com/1"));
  auto t = f->Next();
  EXPECT_EQ(f->Complete(*t, HostFeedback{FetchStatus::kHttpError, 404, -1}),
            CompleteResult::kFinal);
  EXPECT_EQ(f->NextWakeup(), TimePoint::max());
}

TEST_F(FrontierPolitenessTest, HeldHostHandsOutNothingUntilReleased) {
  FrontierOptions o;
  o.min_delay_s = 0;
  auto f = Make(o);
  f->Add(Link("http://a.com/1"));
  HostId a = *f->InternHost("http://a.com/x");
  f->HoldHost(a);
  EXPECT_FALSE(f->Next());
  EXPECT_EQ(f->NextWakeup(), TimePoint::max());
  f->Add(Link("http://a.com/2"));
  EXPECT_FALSE(f->Next());
  f->ReleaseHost(a);
  EXPECT_EQ(f->NextWakeup(), clock_.Now());
  EXPECT_TRUE(f->Next());
}

TEST_F(FrontierPolitenessTest, RequeueWhileRobotsPendingKeepsTheTask) {
  FrontierOptions o;
  o.min_delay_s = 0;
  auto f = Make(o);
  f->Add(Link("http://a.com/1", 0.9));
  f->Add(Link("http://a.com/2", 0.1));
  auto t = f->Next();
  ASSERT_TRUE(t);
  f->HoldHost(t->host_id);
  EXPECT_TRUE(f->Requeue(*t));
  EXPECT_FALSE(f->Requeue(*t));  // no longer in flight
  EXPECT_EQ(f->InFlight(), 0u);
  EXPECT_EQ(f->Queued(), 2u);
  EXPECT_FALSE(f->Next());
  f->ReleaseHost(t->host_id);
  auto again = f->Next();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->url, "http://a.com/1");
  EXPECT_EQ(again->attempt, 0u);
}

TEST_F(FrontierPolitenessTest, GlobalInFlightLimit) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.max_in_flight = 2;
  auto f = Make(o);
  f->Add(Link("http://a.com/1"));
  f->Add(Link("http://b.com/1"));
  f->Add(Link("http://c.com/1"));
  auto t1 = f->Next();
  ASSERT_TRUE(t1);
  ASSERT_TRUE(f->Next());
  EXPECT_FALSE(f->Next());
  EXPECT_EQ(f->NextWakeup(), TimePoint::max());
  f->Complete(*t1, HostFeedback{});
  EXPECT_TRUE(f->Next());
}

TEST_F(FrontierPolitenessTest, UnknownTaskIsReportedNotApplied) {
  FrontierOptions o;
  auto f = Make(o);
  CrawlTask bogus;
  bogus.url_id = 12345;
  bogus.host_id = 99;
  EXPECT_EQ(f->Complete(bogus, HostFeedback{}), CompleteResult::kUnknownTask);
  EXPECT_FALSE(f->Requeue(bogus));
  f->HoldHost(99);  // unknown hosts are ignored
  f->SetHostMinDelay(99, 3);
  EXPECT_EQ(f->Hosts(), 0u);
}

TEST_F(FrontierPolitenessTest, WakeupIsTheEarliestHost) {
  FrontierOptions o;
  o.min_delay_s = 3;
  auto f = Make(o);
  f->Add(Link("http://a.com/1", 0.9));
  f->Add(Link("http://a.com/2", 0.9));
  f->Add(Link("http://b.com/1", 0.5));
  f->Add(Link("http://b.com/2", 0.5));
  ASSERT_TRUE(f->Next());  // a
  Advance(1);
  ASSERT_TRUE(f->Next());  // b, ready at t=4
  EXPECT_FALSE(f->Next());
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 2.0);  // a at t=3
  Advance(2);
  EXPECT_EQ(f->Next()->url, "http://a.com/2");
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 1.0);
}

// Cluster hand-over (docs/guides/scale-out.md): the state another process had for
// a host holds here too.
class FrontierAdoptTest : public FrontierPolitenessTest {};

TEST_F(FrontierAdoptTest, AdoptedHealthHoldsTheHostAndEscalatesFromItsLevel) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.retry_delay_s = 0;
  auto f = Make(o);
  f->Add(Link("http://a.com/1", 0.9));
  const HostId a = *f->InternHost("http://a.com/");
  HostHealth h;
  h.backoff_level = 2;
  h.consecutive_failures = 4;
  h.next_start = clock_.Now() + Seconds(3);
  f->AdoptHostHealth(a, h);
  EXPECT_FALSE(f->Next());
  EXPECT_DOUBLE_EQ(SecondsUntilWakeup(*f), 3.0);
  Advance(3);
  auto t = f->Next();
  ASSERT_TRUE(t);
  // The next host signal is step 3 (4 s), not a fresh step 1.
  f->Complete(*t, HostFeedback{FetchStatus::kHttpError, 503, -1});
  EXPECT_EQ(f->Health(a).backoff_level, 3);
  EXPECT_EQ(f->Health(a).consecutive_failures, 5u);
  // Adopting never lowers what this frontier has.
  h.next_start = clock_.Now();
  h.backoff_level = 1;
  f->AdoptHostHealth(a, h);
  EXPECT_EQ(f->Health(a).backoff_level, 3);
}

TEST_F(FrontierAdoptTest, AHostGivenUpElsewhereIsGivenUpHere) {
  FrontierOptions o;
  o.min_delay_s = 0;
  auto f = Make(o);
  f->Add(Link("http://a.com/1", 0.9));
  f->Add(Link("http://a.com/2", 0.8));
  HostHealth h;
  h.failed = true;
  h.consecutive_failures = 6;
  f->AdoptHostHealth(*f->InternHost("http://a.com/"), h);
  EXPECT_FALSE(f->Next());
  EXPECT_EQ(f->TakeAbandoned().size(), 2u);  // recorded as host_failed by the crawler
}

}  // namespace
}  // namespace topicrawl
