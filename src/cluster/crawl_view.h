// CrawlView: several crawl directories read as one crawl (the workers of a
// clustered crawl), for `eval`, `search` and `export DIR...`.
//
// With one directory the view is that directory, read in place. With more,
// it is the directory `topicrawl merge` would write (MergeCrawls: one pages
// row per URL, its latest ok fetch; same ids), built in a temporary
// directory whose WARC files are symbolic links to the inputs' files, so no
// record is copied; the directory is removed with the view. Commands then
// read view.dir() exactly as they read one crawl, so their results equal
// those over `topicrawl merge OUT DIR...`.
#ifndef TOPICRAWL_CLUSTER_CRAWL_VIEW_H_
#define TOPICRAWL_CLUSTER_CRAWL_VIEW_H_

#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl {

class CrawlView {
 public:
  // Fails when a directory holds no crawl or the merge fails. The merged
  // view lives under $TMPDIR (default /tmp).
  static StatusOr<std::unique_ptr<CrawlView>> Open(const std::vector<std::string>& dirs);
  ~CrawlView();
  CrawlView(const CrawlView&) = delete;
  CrawlView& operator=(const CrawlView&) = delete;

  // The crawl directory to read.
  const std::string& dir() const { return dir_; }
  // True when dir() is a temporary merge of several directories.
  bool merged() const { return !temp_root_.empty(); }

 private:
  CrawlView() = default;
  std::string dir_;
  std::string temp_root_;  // removed by the destructor
};

// True when `dir` holds one worker's part of a clustered crawl (`crawl
// --cluster` records a "cluster" event when it starts).
bool IsClusterWorkerDirectory(const std::string& dir);

}  // namespace topicrawl

#endif  // TOPICRAWL_CLUSTER_CRAWL_VIEW_H_
