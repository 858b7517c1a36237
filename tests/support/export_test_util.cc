#include "support/export_test_util.h"

#include <vector>

#include "core/hash.h"
#include "store/crawl_store.h"
#include "support/store_test_util.h"

namespace topicrawl::testing {

Status MakeExportCrawl(const std::string& dir, int n, bool revisits, const WarcOptions& warc) {
  CrawlStoreOptions options;
  options.warc = warc;
  auto store = CrawlStore::Open(dir, OpenMode::kCreate, options);
  if (!store.ok()) return store.status();
  std::vector<PageRecord> ok;
  for (int k = 1; k <= n; ++k) {
    PageRecord p = MakeTestPage(k);
    if (p.status == FetchStatus::kOk && k <= n / 2) ok.push_back(p);
    auto id = (*store)->AddPage(std::move(p));
    if (!id.ok()) return id.status();
  }
  if (revisits) {
    std::vector<std::pair<UrlId, double>> plan;
    for (const PageRecord& p : ok) plan.push_back({p.url_id, 1.0});
    if (Status s = (*store)->StartRound(1, plan, {}); !s.ok()) return s;
    for (const PageRecord& first : ok) {
      PageRecord p = first;
      const int k = std::stoi(first.url.substr(first.url.rfind("/p") + 2));
      p.round = 1;
      p.revisit = true;
      p.fetch_state = UrlState::kUnchanged;
      p.fetched_at = first.fetched_at + 86'400'000LL;
      p.links.clear();
      p.admitted.clear();
      p.store_version = false;
      p.version_id = k;
      p.digest = Hash64(first.body);
      if (k % 2 == 1) {
        p.http_code = 304;
        p.status = FetchStatus::kNotModified;
        p.response_head = "HTTP/1.1 304 Not Modified\r\n\r\n";
        p.body.clear();
        p.revisit_profile = PageRecord::RevisitProfile::kServerNotModified;
      } else {
        p.revisit_profile = PageRecord::RevisitProfile::kIdenticalPayloadDigest;
      }
      auto id = (*store)->AddPage(std::move(p));
      if (!id.ok()) return id.status();
    }
  }
  return (*store)->Close();
}

WarcOptions ZstdTestWarcOptions() {
  WarcOptions o;
  o.compression = WarcCompression::kZstd;
  o.zstd_dict_records = 30;
  return o;
}

}  // namespace topicrawl::testing
