#include "strategies/tda/sdtp_report.h"

#include <filesystem>

#include "fetch/charset.h"
#include "parse/html_parser.h"
#include "strategies/baselines/score_report.h"
#include "strategies/tda/sdtp_scorer.h"

namespace topicrawl {
namespace {

// Installs the vectors and DSV of the tda crawl in `dir` into `sdtp`.
Status InstallCrawlModel(const std::string& dir, SdtpScorer* sdtp) {
  auto vectors = WordVectors::Load(dir + "/tda-vectors.bin");
  if (!vectors.ok()) return vectors.status();
  auto dsv = ReadDsvTsv(dir + "/tda-dsv.tsv", **vectors);
  if (!dsv.ok()) return dsv.status();
  sdtp->InstallModel(*vectors, std::move(*dsv));
  return Status::Ok();
}

void PrintSdtpParts(const SdtpScorer& sdtp, const SdtpParts& p, const Topic& topic, const std::string& dir,
                    std::FILE* out) {
  const SdtpOptions& o = sdtp.options();
  auto dsv = sdtp.dsv();
  std::fprintf(out, "vectors     %s\n",
               p.has_vectors ? (dir + " (" + std::to_string(sdtp.vectors()->size()) + " words; DSV " +
                                std::to_string(dsv->terms.size()) + " terms, " +
                                std::to_string(dsv->NewTerms()) + " new)")
                                   .c_str()
                             : "none: DynamicSim off, Sim = StaticSim");
  std::fprintf(out, "Sim(p)      %.4f  (%s; %d tokens)\n", p.sim,
               p.sim >= topic.beta ? "relevant" : "not relevant", p.tokens);
  std::fprintf(out, "StaticSim   %.4f\n", p.static_sim);
  if (o.combine == SdtpOptions::Combine::kGated) {
    std::fprintf(out, "DynamicSim  %.4f  (alpha %.2f, gated: x min(1, StaticSim / %.3f))\n", p.dynamic_sim,
                 o.alpha, sdtp.gate());
  } else {
    std::fprintf(out, "DynamicSim  %.4f  (alpha %.2f, linear)\n", p.dynamic_sim, o.alpha);
  }
  std::fprintf(out, "contradict  %s\n", p.contradiction.empty() ? "-" : p.contradiction.c_str());
  std::fprintf(out, "  %-20s %6s %12s %6s\n", "ontology term", "count", "eq.8 weight", "w");
  for (const TermWeight& t : p.static_terms) {
    std::fprintf(out, "  %-20s %6d %12.6f %6.2f\n", t.term.c_str(), t.count, t.weight, t.topic_weight);
  }
  if (p.has_vectors && dsv->NewTerms() > 0) {
    std::fprintf(out, "DSV new terms:");
    for (const DsvTerm& t : dsv->terms) {
      if (!t.is_static) std::fprintf(out, " %s(%.2f)", t.term.c_str(), t.rd);
    }
    std::fprintf(out, "\n");
  }
}

}  // namespace

Status WriteSdtpReport(const Topic& topic, const std::string& html, const SdtpReportOptions& r,
                       std::FILE* out) {
  auto options = SdtpOptionsFromTopic(topic);
  if (!options.ok()) return options.status();
  auto sdtp = SdtpScorer::Create(topic, *options);
  if (!sdtp.ok()) return sdtp.status();
  const std::string dir = r.vectors.empty() ? options->vectors : r.vectors;
  if (!dir.empty()) {
    if (Status s = InstallCrawlModel(dir, sdtp->get()); !s.ok()) return s;
  }
  DecodedText text = DecodeToUtf8(html, "");
  std::string base =
      r.base.empty() ? "http://localhost/" + std::filesystem::path(r.file).filename().string() : r.base;
  ParsedPage page = ParseHtml(text.utf8, base);
  SdtpParts p = (*sdtp)->ScoreParts(page);
  std::fprintf(out, "file        %s (%s via %s)\n", r.file.c_str(), text.charset.c_str(), text.source.c_str());
  std::fprintf(out, "title       %s\n", ClipUtf8(page.title, 120).c_str());
  std::fprintf(out, "topic       %s: %zu ontology terms, %zu contradiction words, beta %.2f\n",
               topic.name.c_str(), (*sdtp)->ontology().size(), topic.contradiction_words.size(), topic.beta);
  PrintSdtpParts(**sdtp, p, topic, dir, out);
  return Status::Ok();
}

}  // namespace topicrawl
