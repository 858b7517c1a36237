// topicrawl score FILE.html --topic TOPIC [--base URL] [--df-from DIR|FILE]
//                 [--strategy relevance|shark-search] [--links N]
//                 [--scorer relevance|sdtp [--vectors DIR]]
//
// Scores one saved page by hand: decodes it (BOM, meta, uchardet), parses it,
// prints R(P) (seed 000 eq. 3-4) with the contributing topic terms, then
// every outlink's score with its parts (eq. 5, or Shark-search).
//
// Document frequencies: with --df-from, the snapshot a crawl wrote
// (DIR/df.tsv, or the named file; see DocumentFrequencies::WriteSnapshot)
// is used as is and the page is not added to it. Without it the page is
// scored exactly as the first page of a crawl: D = 1 after observing it, so
// every IDF is clamped to the same floor and R(P) is the cosine between the
// topic weights and the page's term frequencies (text/tfidf.h).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "fetch/charset.h"
#include "parse/html_parser.h"
#include "scoring/relevance_link_scorer.h"
#include "scoring/relevance_scorer.h"
#include "strategies/baselines/shark_search_link_scorer.h"
#include "strategies/tda/sdtp_scorer.h"

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

std::string Clip(std::string s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "…";
}

void PrintTerms(const PageScore& score) {
  std::printf("  %-20s %6s %9s %8s %9s %6s\n", "term", "count", "tf", "idf",
              "weight", "w_tk");
  for (const TermWeight& t : score.terms) {
    std::printf("  %-20s %6d %9.5f %8.4f %9.6f %6.2f\n", t.term.c_str(),
                t.count, t.tf, t.idf, t.weight, t.topic_weight);
  }
}

// --scorer sdtp: the parts of seed 002's Sim(p) (strategies/tda/sdtp_scorer.h).
int RunSdtp(const ScoreFlags& flags, const Topic& topic, const std::string& html) {
  auto options = SdtpOptionsFromTopic(topic);
  if (!options.ok()) {
    std::cerr << "score: " << options.status().message() << "\n";
    return kExitUsage;
  }
  auto sdtp = SdtpScorer::Create(topic, *options);
  if (!sdtp.ok()) {
    std::cerr << "score: " << sdtp.status().message() << "\n";
    return kExitUsage;
  }
  std::string dir = flags.vectors.empty() ? options->vectors : flags.vectors;
  if (!dir.empty()) {
    auto vectors = WordVectors::Load(dir + "/tda-vectors.bin");
    if (!vectors.ok()) {
      std::cerr << "score: " << vectors.status().message() << "\n";
      return kExitUsage;
    }
    auto dsv = ReadDsvTsv(dir + "/tda-dsv.tsv", **vectors);
    if (!dsv.ok()) {
      std::cerr << "score: " << dsv.status().message() << "\n";
      return kExitUsage;
    }
    (*sdtp)->InstallModel(*vectors, std::move(*dsv));
  }
  DecodedText text = DecodeToUtf8(html, "");
  std::string base = flags.base.empty()
                         ? "http://localhost/" +
                               std::filesystem::path(flags.file).filename().string()
                         : flags.base;
  ParsedPage page = ParseHtml(text.utf8, base);
  SdtpParts p = (*sdtp)->ScoreParts(page);
  const SdtpOptions& o = *options;
  std::printf("file        %s (%s via %s)\n", flags.file.c_str(), text.charset.c_str(),
              text.source.c_str());
  std::printf("title       %s\n", Clip(page.title, 120).c_str());
  std::printf("topic       %s: %zu ontology terms, %zu contradiction words, beta %.2f\n",
              topic.name.c_str(), (*sdtp)->ontology().size(),
              topic.contradiction_words.size(), topic.beta);
  auto dsv = (*sdtp)->dsv();
  std::printf("vectors     %s\n",
              p.has_vectors ? (dir + " (" + std::to_string((*sdtp)->vectors()->size()) +
                               " words; DSV " + std::to_string(dsv->terms.size()) +
                               " terms, " + std::to_string(dsv->NewTerms()) + " new)")
                                  .c_str()
                            : "none: DynamicSim off, Sim = StaticSim");
  std::printf("Sim(p)      %.4f  (%s; %d tokens)\n", p.sim,
              p.sim >= topic.beta ? "relevant" : "not relevant", p.tokens);
  std::printf("StaticSim   %.4f\n", p.static_sim);
  if (o.combine == SdtpOptions::Combine::kGated) {
    std::printf("DynamicSim  %.4f  (alpha %.2f, gated: x min(1, StaticSim / %.3f))\n",
                p.dynamic_sim, o.alpha, (*sdtp)->gate());
  } else {
    std::printf("DynamicSim  %.4f  (alpha %.2f, linear)\n", p.dynamic_sim, o.alpha);
  }
  std::printf("contradict  %s\n", p.contradiction.empty() ? "-" : p.contradiction.c_str());
  std::printf("  %-20s %6s %12s %6s\n", "ontology term", "count", "eq.8 weight", "w");
  for (const TermWeight& t : p.static_terms) {
    std::printf("  %-20s %6d %12.6f %6.2f\n", t.term.c_str(), t.count, t.weight,
                t.topic_weight);
  }
  if (p.has_vectors && dsv->NewTerms() > 0) {
    std::printf("DSV new terms:");
    for (const DsvTerm& t : dsv->terms) {
      if (!t.is_static) std::printf(" %s(%.2f)", t.term.c_str(), t.rd);
    }
    std::printf("\n");
  }
  return kExitOk;
}

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
  if (flags.scorer == "sdtp") return RunSdtp(flags, *topic, body.str());
  auto df = std::make_shared<DocumentFrequencies>();
  bool observe = true;
  std::string df_note = "none: page scored as the first page of a crawl (D = 1, IDFs equal)";
  if (!flags.df_from.empty()) {
    std::string path = std::filesystem::is_directory(flags.df_from)
                           ? flags.df_from + "/df.tsv"
                           : flags.df_from;
    Status s = df->ReadSnapshot(path);
    if (!s.ok()) {
      std::cerr << "score: " << s.message() << "\n";
      return kExitUsage;
    }
    observe = false;
    df_note = path + " (D = " + std::to_string(df->documents()) + ")";
  }
  auto relevance = TopicRelevance::Create(*topic, {}, df);
  if (!relevance.ok()) {
    std::cerr << "score: " << relevance.status().message() << "\n";
    return kExitUsage;
  }
  std::unique_ptr<LinkScorer> link_scorer;
  LinkCarry carry;
  if (flags.strategy == "shark-search") {
    auto shark = SharkSearchLinkScorer::Create(*relevance);
    if (!shark.ok()) {
      std::cerr << "score: " << shark.status().message() << "\n";
      return kExitUsage;
    }
    carry = (*shark)->SeedCarry();
    link_scorer = std::move(*shark);
  } else {
    link_scorer = std::make_unique<RelevanceLinkScorer>(*relevance);
  }
  for (const std::string& w : (*relevance)->warnings()) {
    std::cerr << "score: warning: " << w << "\n";
  }

  DecodedText text = DecodeToUtf8(body.str(), "");
  std::string base = flags.base.empty()
                         ? "http://localhost/" +
                               std::filesystem::path(flags.file).filename().string()
                         : flags.base;
  ParsedPage page = ParseHtml(text.utf8, base);
  RelevancePageScorer page_scorer(*relevance, observe);
  PageScore score = page_scorer.Score(page);

  std::printf("file      %s (%s via %s)\n", flags.file.c_str(), text.charset.c_str(),
              text.source.c_str());
  std::printf("title     %s\n", Clip(page.title, 120).c_str());
  std::printf("topic     %s: %zu keywords, alpha %.2f, beta %.2f; segmenter %s\n",
              topic->name.c_str(), topic->keywords.size(), topic->alpha,
              topic->beta, std::string((*relevance)->tokenizer().segmenter_name()).c_str());
  std::printf("df        %s\n", df_note.c_str());
  std::printf("R(P)      %.4f  (%s; %d tokens)\n", score.relevance,
              score.relevance >= topic->beta ? "relevant" : "not relevant",
              score.total_terms);
  PrintTerms(score);

  std::printf("links     %zu (%s), showing %d\n", page.links.size(),
              flags.strategy.c_str(), std::min<int>(flags.links, page.links.size()));
  int shown = 0;
  for (const Outlink& link : page.links) {
    if (shown++ >= flags.links) break;
    LinkScore ls = link_scorer->Score(link, {&score, nullptr, carry});
    std::string parts;
    for (const LinkScorePart& p : ls.parts) {
      char buf[64];
      std::snprintf(buf, sizeof buf, " %s=%.3f", p.name.c_str(), p.value);
      parts += buf;
    }
    std::printf("  %.4f%s%s  %s  \"%s\"\n", ls.score, ls.admit ? "" : " (cut)",
                parts.c_str(), link.url.c_str(), Clip(link.anchor, 60).c_str());
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
