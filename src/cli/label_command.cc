// topicrawl label result-pages: seed 004's result-page training data
// (004_d65f8d41b01a9f7d §3.1, data set WebSet2): every page of a finished
// crawl with its <TextDegree, LinkDegree, Aggregation> features and its
// DetailPage (1) / LinkPage (0) label by the documented URL rule
// (strategies/jlse/result_page_features.h, docs/strategies/jlse.md). With --labels the topic
// label of the page is added (a result page = relevant DetailPage).
//   label result-pages --crawl DIR --out FILE.tsv [--labels LABELS.tsv]
// Output columns: url, label, text_degree, link_degree, aggregation,
// total_words, plain_words, links, big_blocks, relevant (1/0/-, from --labels).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli/commands.h"
#include "eval/labels.h"
#include "strategies/jlse/result_page_features.h"
#include "strategies/naive_bayes/crawl_export.h"

namespace topicrawl::cli {
namespace {

struct LabelFlags {
  std::string crawl_dir;
  std::string out;
  std::string labels;
};

int RunLabelResultPages(const LabelFlags& f) {
  std::optional<eval::LabelSet> labels;
  if (!f.labels.empty()) {
    auto l = eval::LabelSet::Load(f.labels);
    if (!l.ok()) {
      std::cerr << "error: " << l.status().message() << "\n";
      return kExitUsage;
    }
    labels = std::move(l).value();
  }
  std::ofstream out(f.out);
  if (!out) {
    std::cerr << "error: cannot write " << f.out << "\n";
    return kExitFailure;
  }
  out << "url\tlabel\ttext_degree\tlink_degree\taggregation\ttotal_words\tplain_words\t"
         "links\tbig_blocks\trelevant\n";
  int64_t detail = 0, link = 0, unreadable = 0;
  Status s = ForEachStoredPage(
      f.crawl_dir,
      [&](const StoredPage& page) {
        if (!page.parsed) return;
        ResultPageFeatures rf = ComputeResultPageFeatures(*page.parsed);
        const bool is_detail = IsDetailPageUrl(page.url);
        ++(is_detail ? detail : link);
        std::string rel = "-";
        if (labels) {
          auto r = labels->Lookup(page.url);
          if (r) rel = *r ? "1" : "0";
        }
        char buf[256];
        std::snprintf(buf, sizeof(buf), "\t%d\t%.6f\t%.6f\t%.6f\t%d\t%d\t%d\t%d\t%s\n",
                      is_detail ? 1 : 0, rf.text_degree, rf.link_degree, rf.aggregation,
                      rf.total_words, rf.plain_words, rf.links, rf.big_blocks, rel.c_str());
        out << page.url << buf;
      },
      &unreadable);
  if (!s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    return kExitFailure;
  }
  out.close();
  if (!out) {
    std::cerr << "error: writing " << f.out << " failed\n";
    return kExitFailure;
  }
  std::printf("%lld DetailPages, %lld LinkPages (%lld unreadable) -> %s\n",
              static_cast<long long>(detail), static_cast<long long>(link),
              static_cast<long long>(unreadable), f.out.c_str());
  return kExitOk;
}

}  // namespace

void AddLabelCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("label", "Label pages of a crawl for training (seed 004)");
  cmd->require_subcommand(1);
  auto* rp = cmd->add_subcommand(
      "result-pages", "DetailPage/LinkPage labels + TextDegree, LinkDegree, Aggregation");
  auto f = std::make_shared<LabelFlags>();
  rp->add_option("--crawl", f->crawl_dir, "Crawl directory (crawl.db + warc/)")->required();
  rp->add_option("--out", f->out, "TSV file to write")->required();
  rp->add_option("--labels", f->labels, "Topic labels (url, relevant) to add a column");
  rp->callback([f, exit_code] { *exit_code = RunLabelResultPages(*f); });
}

}  // namespace topicrawl::cli
