// topicrawl score FILE.html --topic TOPIC [--base URL] [--df-from DIR|FILE]
//                 [--strategy relevance|shark-search] [--links N]
//                 [--scorer relevance|sdtp [--vectors DIR]]
//
// Scores one saved page by hand: the report of strategies/baselines/
// score_report.h (R(P), its terms, the outlinks' scores) or, with
// --scorer sdtp, of strategies/tda/sdtp_report.h (the parts of Sim(p)).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "strategies/baselines/score_report.h"
#include "strategies/tda/sdtp_report.h"

namespace topicrawl::cli {
namespace {

struct ScoreFlags {
  std::string file;
  std::string topic;
  std::string base;
  std::string df_from;
  std::string strategy = "relevance";
  std::string scorer = "relevance";
  std::string vectors;
  int links = 20;
};

int Run(const ScoreFlags& flags) {
  std::ifstream in(flags.file, std::ios::binary);
  if (!in) {
    std::cerr << "score: cannot open " << flags.file << "\n";
    return kExitUsage;
  }
  std::stringstream body;
  body << in.rdbuf();
  auto topic = LoadTopicFile(flags.topic);
  if (!topic.ok()) {
    std::cerr << "score: " << topic.status().message() << "\n";
    return kExitUsage;
  }
  Status s;
  if (flags.scorer == "sdtp") {
    s = WriteSdtpReport(*topic, body.str(), {flags.file, flags.base, flags.vectors}, stdout);
  } else {
    s = WriteScoreReport(*topic, body.str(), {flags.file, flags.base, flags.df_from, flags.strategy, flags.links},
                         stdout, stderr);
  }
  if (!s.ok()) {
    std::cerr << "score: " << s.message() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

void AddScoreCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<ScoreFlags>();
  auto* cmd = app.add_subcommand(
      "score", "Score a saved HTML page against a topic: R(P), terms, outlinks");
  cmd->add_option("file", flags->file, "HTML file")->required();
  cmd->add_option("--topic", flags->topic,
                  "Topic file (.toml, or keyword<TAB>weight lines)")
      ->required();
  cmd->add_option("--base", flags->base,
                  "URL the page was served at (default http://localhost/<file name>)");
  cmd->add_option("--df-from", flags->df_from,
                  "Document-frequency snapshot: a crawl directory (df.tsv) or file");
  cmd->add_option("--strategy", flags->strategy, "Link scorer")
      ->check(CLI::IsMember({"relevance", "shark-search"}));
  cmd->add_option("--links", flags->links, "How many outlinks to print (default 20)");
  cmd->add_option("--scorer", flags->scorer,
                  "Page scorer: relevance (seed 000) or sdtp (seed 002, prints its parts)")
      ->check(CLI::IsMember({"relevance", "sdtp"}));
  cmd->add_option("--vectors", flags->vectors,
                  "sdtp: a crawl directory with tda-vectors.bin + tda-dsv.tsv");
  cmd->callback([flags, exit_code] { *exit_code = Run(*flags); });
}

}  // namespace topicrawl::cli
