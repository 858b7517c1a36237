// topicrawl tda judge --topic T --labels L.tsv CRAWL_DIR... [--seeds 1,2,3]
//                     [--train-fraction 0.6] [--out DIR]
// topicrawl tda seeds CRAWL_DIR [--topic T] [--n 20]
//
// `judge`: seed 002's relevance experiment (strategies/tda/judge_study.h)
// with eval's label file.
//
// `seeds`: TopicHub (graph/topic_hub.h) over a finished crawl: pages are
// fresh when first downloaded in this crawl (all of them), relevant when
// pages.relevance >= beta (--beta, default the topic's, else 0.5); prints the
// next round's seeds with their weights.
#include <sqlite3.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "cli/commands.h"
#include "eval/labels.h"
#include "graph/topic_hub.h"
#include "strategies/tda/judge_study.h"
#include "text/topic.h"
#include "text/utf8_util.h"
#include "url/url.h"

namespace topicrawl::cli {
namespace {

// ---- reading a crawl directory -------------------------------------------

struct CrawlPageRow {
  int64_t id = 0;
  std::string url;  // final URL when redirected
  std::string content_type, warc_file;
  int64_t offset = 0;
  double relevance = 0;
};

std::string Col(sqlite3_stmt* st, int i) {
  const unsigned char* t = sqlite3_column_text(st, i);
  return t ? reinterpret_cast<const char*>(t) : "";
}

Status Query(sqlite3* db, const std::string& sql,
             const std::function<void(sqlite3_stmt*)>& row) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    return Status::Error(std::string("sqlite: ") + sqlite3_errmsg(db));
  }
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) row(st);
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) return Status::Error(std::string("sqlite: ") + sqlite3_errmsg(db));
  return Status::Ok();
}

struct CrawlDbHandle {
  sqlite3* db = nullptr;
  ~CrawlDbHandle() { sqlite3_close(db); }
  Status Open(const std::string& dir) {
    const std::string path = dir + "/crawl.db";
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
      return Status::Error("cannot open " + path);
    }
    return Status::Ok();
  }
};

StatusOr<std::vector<CrawlPageRow>> ReadPageRows(sqlite3* db) {
  std::vector<CrawlPageRow> rows;
  Status s = Query(db,
                   "SELECT id, coalesce(nullif(final_url, ''), url), content_type, "
                   "coalesce(warc_file, ''), coalesce(warc_offset, 0), "
                   "coalesce(relevance, 0) FROM pages WHERE status = 'ok' ORDER BY id",
                   [&](sqlite3_stmt* st) {
                     CrawlPageRow r;
                     r.id = sqlite3_column_int64(st, 0);
                     r.url = Col(st, 1);
                     r.content_type = Col(st, 2);
                     r.warc_file = Col(st, 3);
                     r.offset = sqlite3_column_int64(st, 4);
                     r.relevance = sqlite3_column_double(st, 5);
                     rows.push_back(std::move(r));
                   });
  if (!s.ok()) return s;
  return rows;
}

// ---- judge ----------------------------------------------------------------

struct JudgeFlags {
  std::vector<std::string> crawls;
  std::string topic, labels, out;
  std::string seeds = "1";
  double train_fraction = 0.6;
  int max_pages = 0;
  bool reuse_vectors = false;
};

// eval's labels as the study reads them.
class EvalPageLabels : public tda::PageLabels {
 public:
  explicit EvalPageLabels(const eval::LabelSet& labels) : labels_(labels) {}
  std::optional<bool> Lookup(const std::string& url) const override {
    return labels_.Lookup(url);
  }
  std::string Canonical(const std::string& url) const override {
    return eval::CanonicalizeLabelUrl(url);
  }

 private:
  const eval::LabelSet& labels_;
};

std::vector<int> ParseSeeds(const std::string& s) {
  std::vector<int> out;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (!part.empty()) out.push_back(std::stoi(part));
  }
  return out;
}

int RunJudge(const JudgeFlags& flags) {
  auto topic = LoadTopicFile(flags.topic);
  if (!topic.ok()) {
    std::cerr << "tda judge: " << topic.status().message() << "\n";
    return kExitUsage;
  }
  auto labels = eval::LabelSet::Load(flags.labels);
  if (!labels.ok()) {
    std::cerr << "tda judge: " << labels.status().message() << "\n";
    return kExitUsage;
  }
  tda::JudgeStudyOptions options;
  options.crawls = flags.crawls;
  options.train_fraction = flags.train_fraction;
  options.max_pages = flags.max_pages;
  options.out_dir = flags.out;
  options.reuse_vectors = flags.reuse_vectors;
  try {
    options.seeds = ParseSeeds(flags.seeds);
  } catch (const std::exception&) {
    std::cerr << "tda judge: --seeds must be a comma-separated list of integers\n";
    return kExitUsage;
  }
  auto study = tda::JudgeStudy::Create(*topic, std::move(options));
  if (!study.ok()) {
    std::cerr << "tda judge: " << study.status().message() << "\n";
    return kExitUsage;
  }
  Status s = (*study)->Run(EvalPageLabels(*labels), stdout);
  if (!s.ok()) {
    std::cerr << "tda judge: " << s.message() << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

// ---- seeds ----------------------------------------------------------------

struct SeedsFlags {
  std::string crawl, topic;
  double beta = -1;
  int n = 20;
};

// TopicHub's input from a crawl: its pages (crawled ones and link targets)
// and sites by first appearance, and the links between them.
class HubInputBuilder {
 public:
  uint32_t PageId(const std::string& url) {
    auto [it, inserted] = page_of_.try_emplace(url, urls_.size());
    if (inserted) {
      urls_.push_back(url);
      std::string host = UrlHostPort(url);
      auto [sit, snew] = site_of_.try_emplace(host, sites_.size());
      if (snew) sites_.push_back(host);
      TopicHubPage p;
      p.site = sit->second;
      in_.pages.push_back(p);
    }
    return it->second;
  }

  // A crawled page: fresh, with its relevance, relevant at >= beta.
  void AddCrawled(const CrawlPageRow& r, double beta) {
    const uint32_t p = PageId(r.url);
    in_.pages[p].crawled = true;
    in_.pages[p].fresh = true;
    in_.pages[p].sim = static_cast<float>(r.relevance);
    in_.pages[p].relevant = r.relevance >= beta;
    by_row_[r.id] = p;
  }

  // The links table's rows from crawled pages.
  Status AddLinks(sqlite3* db) {
    return Query(db, "SELECT from_id, to_url FROM links", [&](sqlite3_stmt* st) {
      auto it = by_row_.find(sqlite3_column_int64(st, 0));
      std::string to = Col(st, 1);
      if (it == by_row_.end() || to.empty()) return;
      edges_.emplace_back(it->second, PageId(to));
    });
  }

  TopicHubInput& Finish() {
    in_.site_count = sites_.size();
    in_.links = CsrGraph::FromEdges(in_.pages.size(), edges_, /*dedup=*/true);
    return in_;
  }
  const std::vector<std::string>& urls() const { return urls_; }
  size_t sites() const { return sites_.size(); }

 private:
  TopicHubInput in_;
  StringMap<uint32_t> page_of_, site_of_;
  std::vector<std::string> urls_, sites_;
  std::unordered_map<int64_t, uint32_t> by_row_;
  std::vector<CsrGraph::Edge> edges_;
};

int RunSeeds(const SeedsFlags& flags) {
  double beta = flags.beta;
  if (beta < 0 && !flags.topic.empty()) {
    auto topic = LoadTopicFile(flags.topic);
    if (!topic.ok()) {
      std::cerr << "tda seeds: " << topic.status().message() << "\n";
      return kExitUsage;
    }
    beta = topic->beta;
  }
  if (beta < 0) beta = 0.5;
  CrawlDbHandle db;
  Status s = db.Open(flags.crawl);
  auto rows = s.ok() ? ReadPageRows(db.db) : StatusOr<std::vector<CrawlPageRow>>(s);
  if (!rows.ok()) {
    std::cerr << "tda seeds: " << rows.status().message() << "\n";
    return kExitFailure;
  }
  HubInputBuilder hub;
  for (const CrawlPageRow& r : *rows) hub.AddCrawled(r, beta);
  if (s = hub.AddLinks(db.db); !s.ok()) {
    std::cerr << "tda seeds: " << s.message() << "\n";
    return kExitFailure;
  }
  const TopicHubInput& in = hub.Finish();
  TopicHubOptions options;
  options.seeds = flags.n;
  TopicHubResult r = RunTopicHub(in, options);
  std::printf("pages %zu (%zu crawled), links %zu, sites %zu; SiteRank %d sweeps; "
              "%zu THub pages\n",
              in.pages.size(), rows->size(), in.links.EdgeCount(), hub.sites(),
              r.siterank_iterations, r.thub_pages);
  std::printf("%-10s %-8s %-8s %s\n", "weight", "TSI", "I(p)", "url");
  for (const ThubPage& t : r.seeds) {
    std::printf("%-10.5f %-8.4f %-8.4f %s\n", t.weight, t.site_weight, t.page_weight,
                hub.urls()[t.page].c_str());
  }
  return kExitOk;
}

}  // namespace

void AddTdaCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("tda", "Seed 002 (TDA-Crawler): SDTP judgements, TopicHub seeds");
  cmd->require_subcommand(1);
  auto judge = std::make_shared<JudgeFlags>();
  auto* j = cmd->add_subcommand("judge",
                                "SDTP vs static ontology vs VSM vs doc vectors on labelled pages");
  j->add_option("crawls", judge->crawls, "Crawl directories")->required();
  j->add_option("--topic", judge->topic, "Topic file")->required();
  j->add_option("--labels", judge->labels, "Label file (url, relevant)")->required();
  j->add_option("--seeds", judge->seeds, "RNG seeds of the splits, e.g. 1,2,3,4,5");
  j->add_option("--train-fraction", judge->train_fraction, "Training share (seed: 3:2 = 0.6)");
  j->add_option("--max-pages", judge->max_pages, "Use at most this many labelled pages");
  j->add_option("--out", judge->out, "Directory for corpora, DSV files and per-page scores");
  j->add_flag("--reuse-vectors", judge->reuse_vectors,
              "Keep each seed's word vectors in OUT/vectors-SEED.bin and load them when present");
  j->callback([judge, exit_code] { *exit_code = RunJudge(*judge); });
  auto seeds = std::make_shared<SeedsFlags>();
  auto* s = cmd->add_subcommand("seeds", "TopicHub: the next round's seeds from a crawl");
  s->add_option("crawl", seeds->crawl, "Crawl directory")->required();
  s->add_option("--topic", seeds->topic, "Topic file (for beta)");
  s->add_option("--beta", seeds->beta, "Relevance threshold (default: the topic's)");
  s->add_option("--n", seeds->n, "How many seeds (default 20)");
  s->callback([seeds, exit_code] { *exit_code = RunSeeds(*seeds); });
}

}  // namespace topicrawl::cli
