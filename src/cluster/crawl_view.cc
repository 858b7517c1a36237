#include "cluster/crawl_view.h"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>

#include "cluster/crawl_merge.h"
#include "store/crawl_db_reader.h"

namespace topicrawl {

namespace fs = std::filesystem;

StatusOr<std::unique_ptr<CrawlView>> CrawlView::Open(const std::vector<std::string>& dirs) {
  if (dirs.empty()) return Status::Error("no crawl directory");
  std::unique_ptr<CrawlView> view(new CrawlView());
  if (dirs.size() == 1) {
    view->dir_ = dirs[0];
    return view;
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/topicrawl-view-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    return Status::Error("cannot create a temporary directory for the merged view (" + pattern +
                         ")");
  }
  view->temp_root_ = pattern;
  view->dir_ = pattern + "/crawl";
  MergeOptions options;
  options.symlink_warc = true;  // read in place: nothing copied
  auto merged = MergeCrawls(view->dir_, dirs, options);
  if (!merged.ok()) return merged.status();  // the destructor cleans up
  return view;
}

CrawlView::~CrawlView() {
  if (temp_root_.empty()) return;
  std::error_code ec;
  fs::remove_all(temp_root_, ec);  // symlinks are removed, never followed
}

bool IsClusterWorkerDirectory(const std::string& dir) {
  auto db = CrawlDbReader::Open(dir);
  if (!db.ok()) return false;
  return (*db)->QueryText("SELECT 1 FROM events WHERE kind = 'cluster' LIMIT 1").has_value();
}

}  // namespace topicrawl
