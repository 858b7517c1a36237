#include "eval/metrics.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_set>

namespace topicrawl::eval {
namespace {

// Running mean and population variance (Welford), exact for every prefix.
struct RunningStats {
  int64_t n = 0;
  double mean = 0;
  double m2 = 0;
  void Add(double x) {
    ++n;
    double delta = x - mean;
    mean += delta / static_cast<double>(n);
    m2 += delta * (x - mean);
  }
  double PopulationSd() const {
    return n == 0 ? 0.0 : std::sqrt(std::max(0.0, m2 / static_cast<double>(n)));
  }
};

// Ground-truth state while walking the downloads in order.
class LabelTracker {
 public:
  LabelTracker(const LabelSet& labels, const UrlSet* reachable)
      : labels_(labels), reachable_(reachable) {
    if (reachable_ == nullptr) return;
    for (const std::string& url : labels_.relevant()) {
      if (reachable_->ContainsCanonical(url)) ++reachable_relevant_total_;
    }
  }

  // `judged`: the crawl judged the page relevant (R(P) >= beta).
  void Add(const DownloadedPage& page, bool judged) {
    std::string canonical = CanonicalizeLabelUrl(page.EffectiveUrl());
    std::optional<bool> label = labels_.LookupCanonical(canonical);
    if (!label) {
      ++unlabelled_;
      return;
    }
    if (!judged_.insert(canonical).second) return;  // judged at its first download
    if (!*label) {
      ++(judged ? judge_.fp : judge_.tn);
      return;
    }
    ++(judged ? judge_.tp : judge_.fn);
    ++relevant_found_;
    if (reachable_ && reachable_->ContainsCanonical(canonical)) ++reachable_found_;
  }

  int64_t relevant_found() const { return relevant_found_; }
  int64_t unlabelled() const { return unlabelled_; }
  double Recall() const {
    int64_t total = static_cast<int64_t>(labels_.relevant_count());
    return total == 0 ? 0.0 : static_cast<double>(relevant_found_) / total;
  }
  std::optional<double> RecallReachable() const {
    if (reachable_ == nullptr || reachable_relevant_total_ == 0) return std::nullopt;
    return static_cast<double>(reachable_found_) / reachable_relevant_total_;
  }
  std::optional<int64_t> reachable_relevant_total() const {
    if (reachable_ == nullptr) return std::nullopt;
    return reachable_relevant_total_;
  }
  JudgeQuality Judge() const {
    JudgeQuality q = judge_;
    if (q.tp + q.fp > 0) q.precision = static_cast<double>(q.tp) / static_cast<double>(q.tp + q.fp);
    if (q.tp + q.fn > 0) q.recall = static_cast<double>(q.tp) / static_cast<double>(q.tp + q.fn);
    if (q.precision && q.recall && *q.precision + *q.recall > 0) {
      q.f1 = 2 * *q.precision * *q.recall / (*q.precision + *q.recall);
    }
    return q;
  }

 private:
  const LabelSet& labels_;
  const UrlSet* reachable_;
  std::unordered_set<std::string> judged_;  // distinct labelled downloads
  JudgeQuality judge_;
  int64_t relevant_found_ = 0;
  int64_t reachable_found_ = 0;
  int64_t reachable_relevant_total_ = 0;
  int64_t unlabelled_ = 0;
};

void ResolveBeta(const CrawlRecord& crawl, const MetricOptions& options,
                 CrawlMetrics* m) {
  if (options.beta) {
    m->beta = *options.beta;
    m->beta_source = "flag";
  } else if (std::optional<double> meta = crawl.MetaDouble("beta")) {
    m->beta = *meta;
    m->beta_source = "meta";
  } else {
    m->beta = kDefaultBeta;
    m->beta_source = "default";
  }
}

std::vector<int64_t> EffectiveCheckpoints(const std::vector<int64_t>& wanted,
                                          int64_t dp) {
  std::vector<int64_t> out;
  for (int64_t n : wanted) {
    if (n > 0 && n <= dp) out.push_back(n);
  }
  if (dp > 0) out.push_back(dp);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The crawl's start in unix ms: meta started_at, else the first download.
std::optional<int64_t> StartMs(const CrawlRecord& crawl, CrawlMetrics* m) {
  if (std::optional<int64_t> start = crawl.MetaInt("started_at")) return start;
  if (!crawl.pages.empty() && crawl.pages.front().fetched_at_ms) {
    m->notes.push_back("meta started_at missing: times count from the first download");
    return crawl.pages.front().fetched_at_ms;
  }
  m->notes.push_back("meta started_at missing: no wall time");
  return std::nullopt;
}

void ComputeWallTime(const CrawlRecord& crawl, std::optional<int64_t> start,
                     CrawlMetrics* m) {
  if (!start) return;
  std::optional<int64_t> end = crawl.MetaInt("finished_at");
  if (!end && !crawl.pages.empty() && crawl.pages.back().fetched_at_ms) {
    end = crawl.pages.back().fetched_at_ms;
    m->notes.push_back(
        "meta finished_at missing (crawl interrupted or running): wall time "
        "runs to the last download");
  }
  if (!end) return;
  m->wall_s = static_cast<double>(*end - *start) / 1000.0;
  if (*m->wall_s > 0) m->pages_per_s = static_cast<double>(m->dp) / *m->wall_s;
}

// A checkpoint's figures from the crawl's own relevance scores: dp, lp,
// accuracy, the mean and sd of every page's score (ardp, sddp) and of the
// pages judged relevant (arlp, sdlp).
CheckpointMetrics ScoreCheckpoint(int64_t n, const RunningStats& all,
                                  const RunningStats& relevant) {
  CheckpointMetrics c;
  c.n = c.dp = n;
  c.lp = relevant.n;
  c.accuracy = static_cast<double>(c.lp) / static_cast<double>(n);
  c.ardp = all.mean;
  c.sddp = all.PopulationSd();
  if (relevant.n > 0) {
    c.arlp = relevant.mean;
    c.sdlp = relevant.PopulationSd();
  }
  return c;
}

// The n-th download against the labels: the true harvest and recall curves,
// their running sums and the pages needed for 50 % and 90 % recall.
void TrackLabels(const DownloadedPage& page, bool judged_relevant, int64_t n,
                 LabelTracker* tracker, double* harvest_sum, double* recall_sum,
                 CrawlMetrics* m) {
  tracker->Add(page, judged_relevant);
  const double harvest = static_cast<double>(tracker->relevant_found()) / static_cast<double>(n);
  const double recall = tracker->Recall();
  *harvest_sum += harvest;
  *recall_sum += recall;
  m->curves.true_harvest.push_back(harvest);
  m->curves.recall.push_back(recall);
  if (recall >= 0.5 && !m->pages_to_recall_50) m->pages_to_recall_50 = n;
  if (recall >= 0.9 && !m->pages_to_recall_90) m->pages_to_recall_90 = n;
}

}  // namespace

CrawlMetrics ComputeMetrics(const CrawlRecord& crawl, const MetricOptions& options,
                            const LabelSet* labels, const UrlSet* reachable) {
  CrawlMetrics m;
  ResolveBeta(crawl, options, &m);
  m.dp = static_cast<int64_t>(crawl.pages.size());
  m.failed_rows = crawl.failed_rows;
  m.has_labels = labels != nullptr;
  std::optional<LabelTracker> tracker;
  if (labels) {
    tracker.emplace(*labels, reachable);
    m.relevant_total = static_cast<int64_t>(labels->relevant_count());
    m.reachable_relevant_total = tracker->reachable_relevant_total();
    if (!reachable) {
      m.notes.push_back(
          "recall_reachable needs --reachable (the ok pages of a full BFS crawl "
          "from the homes); omitted");
    }
  }
  std::optional<int64_t> start = StartMs(crawl, &m);
  std::vector<int64_t> checkpoints = EffectiveCheckpoints(options.checkpoints, m.dp);
  size_t next_checkpoint = 0;

  RunningStats all, relevant;
  double harvest_sum = 0, recall_sum = 0;
  m.curves.accuracy.reserve(crawl.pages.size());
  for (size_t i = 0; i < crawl.pages.size(); ++i) {
    const DownloadedPage& page = crawl.pages[i];
    int64_t n = static_cast<int64_t>(i) + 1;
    if (!page.relevance) ++m.unscored_pages;
    double r = page.relevance.value_or(0.0);
    all.Add(r);
    if (r >= m.beta) relevant.Add(r);
    m.curves.accuracy.push_back(static_cast<double>(relevant.n) / n);
    if (tracker) TrackLabels(page, r >= m.beta, n, &*tracker, &harvest_sum, &recall_sum, &m);
    if (next_checkpoint >= checkpoints.size() || checkpoints[next_checkpoint] != n) {
      continue;
    }
    ++next_checkpoint;
    CheckpointMetrics c = ScoreCheckpoint(n, all, relevant);
    if (start && page.fetched_at_ms) {
      c.elapsed_s = static_cast<double>(*page.fetched_at_ms - *start) / 1000.0;
    }
    if (tracker) {
      c.relevant_found = tracker->relevant_found();
      c.true_harvest = m.curves.true_harvest.back();
      c.recall = m.curves.recall.back();
      c.recall_reachable = tracker->RecallReachable();
      c.avg_harvest_rate = harvest_sum / n;
      c.avg_target_recall = recall_sum / n;
    }
    m.checkpoints.push_back(c);
  }
  if (tracker) {
    m.unlabelled_pages = tracker->unlabelled();
    m.judge = tracker->Judge();
  }
  if (m.dp == 0) m.notes.push_back("no downloaded pages (status 'ok')");
  ComputeWallTime(crawl, start, &m);
  return m;
}

void AddOracleCurve(const std::vector<double>& oracle_recall, const std::string& source,
                    CrawlMetrics* m) {
  m->oracle_graph = source;
  m->curves.oracle_recall = oracle_recall;
  if (oracle_recall.empty()) return;
  for (CheckpointMetrics& c : m->checkpoints) {
    size_t i = std::min<size_t>(static_cast<size_t>(c.n), oracle_recall.size()) - 1;
    c.oracle_recall = oracle_recall[i];
    if (c.recall && oracle_recall[i] > 0) c.share_of_oracle = *c.recall / oracle_recall[i];
  }
}

StatusOr<std::vector<int64_t>> ParseCheckpointList(const std::string& text) {
  std::vector<int64_t> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(start, comma - start);
    item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || v <= 0) {
      return Status::Error("checkpoint list: '" + item +
                           "' is not a positive integer (expected e.g. 1000,5000)");
    }
    out.push_back(v);
    start = comma + 1;
  }
  return out;
}

}  // namespace topicrawl::eval
