// StoreWriter: submission order, the queue bounds (count and bytes) and the
// time the caller waits for room.
#include "crawl/store_writer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "store/crawl_store.h"
#include "support/crawl_store_test_fixture.h"
#include "support/store_test_util.h"

namespace topicrawl {
namespace {

using testing::MakeTempDir;
using testing::MakeTestPage;
using testing::RemoveTree;
using testing::TestPageUrl;

class StoreWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    auto store = CrawlStore::Open(dir_, OpenMode::kCreate);
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(store).value();
  }
  void TearDown() override {
    store_.reset();
    RemoveTree(dir_);
  }
  std::string dir_;
  std::unique_ptr<CrawlStore> store_;
};

// Pages and posted operations run in submission order, whatever the bounds:
// one operation at a time, a byte bound smaller than any page (the first
// page of an empty queue still goes in), and the defaults of a crawl.
TEST_F(StoreWriterTest, RunsEverythingInOrderUnderAnyBound) {
  struct Bound {
    size_t ops, bytes;
  };
  int64_t k = 0;
  for (Bound b : {Bound{1, SIZE_MAX}, Bound{8192, 1}, Bound{8192, size_t{64} << 20}}) {
    std::vector<std::string> seen;
    StoreWriter writer(store_.get(), b.ops, b.bytes);
    writer.Start();
    for (int i = 0; i < 300; ++i) {
      PageRecord page = MakeTestPage(++k, 3, 0);
      const std::string url = page.url;
      writer.AddPage(std::move(page));
      writer.Post([&seen, url](CrawlStore* store) {
        // The page posted just before is in the store's batch already.
        seen.push_back(url);
        (void)store;
      });
    }
    writer.Stop();
    ASSERT_FALSE(writer.failed()) << writer.error().message();
    ASSERT_EQ(seen.size(), 300u);
    for (int i = 0; i < 300; ++i) EXPECT_EQ(seen[i], TestPageUrl(k - 299 + i));
    EXPECT_EQ(writer.queued(), 0u);
    // 600 small operations never fill the crawl's default bounds: the
    // caller never waited. (The tighter bounds wait or not depending on
    // how fast the writer thread drains; CountsTheTimeSpentWaitingForRoom
    // forces a wait.)
    if (b.ops > 600 && b.bytes > (size_t{1} << 20)) {
      EXPECT_EQ(writer.blocked_seconds(), 0.0);
    }
  }
  ASSERT_TRUE(store_->Close().ok());
  store_test::Reader reader(dir_);
  EXPECT_EQ(reader.Rows("SELECT count(*) FROM pages"), std::vector<std::string>{"900"});
}

// A queue bounded to one operation makes the caller wait while the writer
// works; the wait is counted.
TEST_F(StoreWriterTest, CountsTheTimeSpentWaitingForRoom) {
  StoreWriter writer(store_.get(), 1);
  writer.Start();
  writer.Post([](CrawlStore*) { std::this_thread::sleep_for(std::chrono::milliseconds(50)); });
  writer.Post([](CrawlStore*) { std::this_thread::sleep_for(std::chrono::milliseconds(50)); });
  writer.Post([](CrawlStore*) {});  // waits until the second one was taken
  writer.Stop();
  EXPECT_GT(writer.blocked_seconds(), 0.02);
}

TEST(StoreWriterPageBytes, CountsBodiesLinksAndAdmittedRows) {
  PageRecord small = MakeTestPage(1, 0, 0);
  PageRecord big = MakeTestPage(1, 0, 0);
  big.body.assign(100000, 'x');
  EXPECT_EQ(StoreWriter::PageBytes(big),
            StoreWriter::PageBytes(small) - small.body.size() + 100000);
  PageRecord linked = MakeTestPage(1, 50, 20);
  EXPECT_GT(StoreWriter::PageBytes(linked), StoreWriter::PageBytes(small) + 50 * sizeof(LinkRecord));
}

}  // namespace
}  // namespace topicrawl
