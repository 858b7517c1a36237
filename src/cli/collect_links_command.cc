// topicrawl collect-links: seed 001's automatic collection of labelled links
// (§3.2.2): a generic BFS crawl, then every stored link labelled by whether
// its target lies under an on-topic or off-topic URL prefix of the topic
// file, split 7:3 (stratified). Output files: strategies/naive_bayes/link_dataset.h and
// docs/strategies/naive-bayes.md.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/crawl_runner.h"
#include "crawl/crawl_config.h"
#include "crawl/crawler.h"
#include "strategies/naive_bayes/crawl_export.h"
#include "strategies/naive_bayes/url_prefix_labeler.h"
#include "text/topic.h"

namespace topicrawl::cli {
namespace {


struct CollectFlags {
  CrawlConfig crawl;
  std::string topic_file;
  std::string out_dir;
  std::string from_crawl;
  bool resume = false;
  uint64_t split_seed = 1;
  double train_fraction = 0.7;
  bool keep_duplicates = false;
  bool no_pages = false;
};

int RunCrawlStep(CollectFlags* f, const std::string& crawl_dir) {
  CrawlConfig config = f->crawl;
  config.strategy = "bfs";  // the seed's generic crawler
  config.out_dir = crawl_dir;
  config.resume = f->resume;
  config.store_links = true;
  config.store_link_details = true;  // the export reads link contexts
  if (int rc = PrepareCrawlConfig(&config); rc != kExitOk) return rc;
  CrawlOutcome outcome = RunCrawlWithSignals(config);
  if (!outcome.status.ok()) {
    std::cerr << "error: crawl: " << outcome.status.message() << "\n";
    return kExitFailure;
  }
  const CrawlStats& st = outcome.stats;
  std::fprintf(stderr, "collect-links: crawl %s, %lld pages ok, %lld links seen -> %s\n",
               outcome.interrupted ? "interrupted" : "finished",
               static_cast<long long>(st.pages_ok), static_cast<long long>(st.links_seen),
               crawl_dir.c_str());
  return outcome.interrupted ? kExitInterrupted : kExitOk;
}

int RunCollect(CollectFlags* f) {
  auto topic = LoadTopicFile(f->topic_file);
  if (!topic.ok()) {
    std::cerr << "error: " << topic.status().message() << "\n";
    return kExitUsage;
  }
  auto labeler = UrlPrefixLabeler::Create(topic->on_topic_prefixes, topic->off_topic_prefixes);
  if (!labeler.ok()) {
    std::cerr << "error: " << f->topic_file << ": " << labeler.status().message() << "\n";
    return kExitUsage;
  }
  if (f->train_fraction < 0 || f->train_fraction > 1) {
    std::cerr << "error: --train-fraction must be in [0, 1]\n";
    return kExitUsage;
  }
  std::string crawl_dir = f->from_crawl;
  if (crawl_dir.empty()) {
    crawl_dir = f->out_dir + "/crawl";
    int rc = RunCrawlStep(f, crawl_dir);
    if (rc != kExitOk) return rc;
  }
  ExportOptions options;
  options.seed = f->split_seed;
  options.train_fraction = f->train_fraction;
  options.dedup = !f->keep_duplicates;
  options.pages = !f->no_pages;
  auto sum = ExportLabelledData(crawl_dir, *topic, f->out_dir, options);
  if (!sum.ok()) {
    std::cerr << "error: " << sum.status().message() << "\n";
    return kExitFailure;
  }
  std::printf(
      "links: %lld read, %lld duplicates dropped, %lld positive, %lld negative, %lld "
      "unlabelled\n"
      "split: train %lld+ / %lld-, test %lld+ / %lld-\n"
      "pages: %lld positive, %lld negative, %lld unlabelled, %lld unreadable\n"
      "-> %s/{links,train,test,pages}.tsv, dataset.json\n",
      static_cast<long long>(sum->links_read), static_cast<long long>(sum->duplicates),
      static_cast<long long>(sum->links_positive), static_cast<long long>(sum->links_negative),
      static_cast<long long>(sum->links_unlabelled), static_cast<long long>(sum->train_positive),
      static_cast<long long>(sum->train_negative), static_cast<long long>(sum->test_positive),
      static_cast<long long>(sum->test_negative), static_cast<long long>(sum->pages_positive),
      static_cast<long long>(sum->pages_negative), static_cast<long long>(sum->pages_unlabelled),
      static_cast<long long>(sum->pages_unreadable), f->out_dir.c_str());
  if (sum->links_positive == 0 || sum->links_negative == 0) {
    std::fprintf(stderr,
                 "warning: one class has no links; check the topic's prefixes and the crawl "
                 "size before training\n");
  }
  return kExitOk;
}

}  // namespace

void AddCollectLinksCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "collect-links",
      "Crawl (BFS) and export every link labelled by the topic's URL prefixes (seed 001)");
  auto f = std::make_shared<CollectFlags>();
  CrawlConfig& c = f->crawl;
  cmd->add_option("--topic", f->topic_file,
                  "Topic file with on_topic_prefixes / off_topic_prefixes (and dictionary)")
      ->required();
  cmd->add_option("--out", f->out_dir, "Data directory (the crawl goes to OUT/crawl)")->required();
  cmd->add_option("--from-crawl", f->from_crawl,
                  "Export from this existing crawl directory instead of crawling");
  cmd->add_flag("--resume", f->resume, "Resume the crawl in OUT/crawl, then export");
  AddEngineFlags(cmd, &c);
  cmd->add_option("--split-seed", f->split_seed, "Seed of the stratified train/test split");
  cmd->add_option("--train-fraction", f->train_fraction, "Training share (default 0.7)");
  cmd->add_flag("--keep-duplicates", f->keep_duplicates,
                "Keep repeated (to_url, anchor, context) links");
  cmd->add_flag("--no-pages", f->no_pages, "Do not export pages.tsv");
  cmd->callback([cmd, f, exit_code] {
    // Valued options wrote into f->crawl directly; flags such as
    // --no-robots are applied here.
    ApplyGivenEngineFlags(*cmd, f->crawl, &f->crawl);
    *exit_code = RunCollect(f.get());
  });
}

}  // namespace topicrawl::cli
