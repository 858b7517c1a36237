#include "support/search_test_util.h"

#include <unistd.h>

#include <filesystem>

#include "core/fetch_status.h"
#include "core/hash.h"
#include "store/crawl_store.h"

namespace topicrawl::testing {

std::string FreshTempDir(const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/topicrawl-" + name + "-" +
                    std::to_string(getpid());
  std::filesystem::remove_all(dir);
  return dir;
}

Status WriteTestCrawl(const std::string& dir, const std::vector<TestDoc>& docs, double beta) {
  auto store = CrawlStore::Open(dir, OpenMode::kCreate);
  if (!store.ok()) return store.status();
  (*store)->SetMeta("beta", std::to_string(beta));
  (*store)->SetMeta("strategy", "test");
  int64_t at = 1700000000000;
  for (size_t i = 0; i < docs.size(); ++i) {
    const TestDoc& d = docs[i];
    PageRecord rec;
    rec.url = d.url;
    rec.url_id = Hash64(d.url);
    rec.status = FetchStatusFromName(d.status).value_or(FetchStatus::kOtherError);
    rec.http_code = d.http_code;
    rec.content_type = "text/html; charset=utf-8";
    rec.fetched_at = at + static_cast<int64_t>(i) * 300;
    rec.depth = d.parent ? 1 : 0;
    rec.parent_id = d.parent;
    rec.anchor = "anchor " + std::to_string(i);
    rec.relevance = d.relevance;
    rec.link_score = 0.5;
    rec.title = d.title;
    rec.explanation = d.explanation;
    if (d.status == "ok") {
      rec.body = "<!doctype html><html><head><meta charset=\"utf-8\"><title>" + d.title +
                 "</title></head><body><p>" + d.body_text + "</p></body></html>";
      rec.response_head = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                          "Content-Length: " + std::to_string(rec.body.size()) + "\r\n\r\n";
      rec.request_head = "GET / HTTP/1.1\r\nHost: test\r\n\r\n";
    }
    if (i + 1 < docs.size()) rec.links.push_back({docs[i + 1].url, "next", "", 0.25, "{}"});
    auto id = (*store)->AddPage(std::move(rec));
    if (!id.ok()) return id.status();
  }
  (*store)->SetMeta("finished_at", std::to_string(at + 100000));
  return (*store)->Close();
}

}  // namespace topicrawl::testing
