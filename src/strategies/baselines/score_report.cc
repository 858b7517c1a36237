#include "strategies/baselines/score_report.h"

#include <filesystem>
#include <memory>

#include "fetch/charset.h"
#include "parse/html_parser.h"
#include "scoring/relevance_link_scorer.h"
#include "scoring/relevance_scorer.h"
#include "strategies/baselines/shark_search_link_scorer.h"

namespace topicrawl {
namespace {

void PrintTerms(const PageScore& score, std::FILE* out) {
  std::fprintf(out, "  %-20s %6s %9s %8s %9s %6s\n", "term", "count", "tf", "idf", "weight", "w_tk");
  for (const TermWeight& t : score.terms) {
    std::fprintf(out, "  %-20s %6d %9.5f %8.4f %9.6f %6.2f\n", t.term.c_str(), t.count, t.tf, t.idf,
                 t.weight, t.topic_weight);
  }
}

// The document frequencies the page is scored with: the snapshot of
// `df_from` (not observed), or a fresh table the page is added to.
struct ReportDf {
  std::shared_ptr<DocumentFrequencies> df = std::make_shared<DocumentFrequencies>();
  bool observe = true;
  std::string note = "none: page scored as the first page of a crawl (D = 1, IDFs equal)";
};

StatusOr<ReportDf> LoadReportDf(const std::string& df_from) {
  ReportDf r;
  if (df_from.empty()) return r;
  std::string path = std::filesystem::is_directory(df_from) ? df_from + "/df.tsv" : df_from;
  if (Status s = r.df->ReadSnapshot(path); !s.ok()) return s;
  r.observe = false;
  r.note = path + " (D = " + std::to_string(r.df->documents()) + ")";
  return r;
}

// The link scorer of `name` and the carry a seed page hands its links.
struct ReportLinkScorer {
  std::unique_ptr<LinkScorer> scorer;
  LinkCarry carry;
};

StatusOr<ReportLinkScorer> MakeReportLinkScorer(const std::string& name,
                                                const std::shared_ptr<const TopicRelevance>& relevance) {
  ReportLinkScorer r;
  if (name == "shark-search") {
    auto shark = SharkSearchLinkScorer::Create(relevance);
    if (!shark.ok()) return shark.status();
    r.carry = (*shark)->SeedCarry();
    r.scorer = std::move(*shark);
  } else {
    r.scorer = std::make_unique<RelevanceLinkScorer>(relevance);
  }
  return r;
}

void PrintLinks(const ParsedPage& page, const PageScore& score, const ReportLinkScorer& links,
                const ScoreReportOptions& o, std::FILE* out) {
  std::fprintf(out, "links     %zu (%s), showing %d\n", page.links.size(), o.link_scorer.c_str(),
               std::min<int>(o.links, page.links.size()));
  int shown = 0;
  for (const Outlink& link : page.links) {
    if (shown++ >= o.links) break;
    LinkScore ls = links.scorer->Score(link, {&score, nullptr, links.carry});
    std::string parts;
    for (const LinkScorePart& p : ls.parts) {
      char buf[64];
      std::snprintf(buf, sizeof buf, " %s=%.3f", p.name.c_str(), p.value);
      parts += buf;
    }
    std::fprintf(out, "  %.4f%s%s  %s  \"%s\"\n", ls.score, ls.admit ? "" : " (cut)", parts.c_str(),
                 link.url.c_str(), ClipUtf8(link.anchor, 60).c_str());
  }
}

}  // namespace

std::string ClipUtf8(std::string s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "…";
}

Status WriteScoreReport(const Topic& topic, const std::string& html, const ScoreReportOptions& o,
                        std::FILE* out, std::FILE* warnings) {
  StatusOr<ReportDf> df = LoadReportDf(o.df_from);
  if (!df.ok()) return df.status();
  auto relevance = TopicRelevance::Create(topic, {}, df->df);
  if (!relevance.ok()) return relevance.status();
  StatusOr<ReportLinkScorer> links = MakeReportLinkScorer(o.link_scorer, *relevance);
  if (!links.ok()) return links.status();
  for (const std::string& w : (*relevance)->warnings()) std::fprintf(warnings, "score: warning: %s\n", w.c_str());

  DecodedText text = DecodeToUtf8(html, "");
  std::string base =
      o.base.empty() ? "http://localhost/" + std::filesystem::path(o.file).filename().string() : o.base;
  ParsedPage page = ParseHtml(text.utf8, base);
  RelevancePageScorer page_scorer(*relevance, df->observe);
  PageScore score = page_scorer.Score(page);
  std::fprintf(out, "file      %s (%s via %s)\n", o.file.c_str(), text.charset.c_str(), text.source.c_str());
  std::fprintf(out, "title     %s\n", ClipUtf8(page.title, 120).c_str());
  std::fprintf(out, "topic     %s: %zu keywords, alpha %.2f, beta %.2f; segmenter %s\n", topic.name.c_str(),
               topic.keywords.size(), topic.alpha, topic.beta,
               std::string((*relevance)->tokenizer().segmenter_name()).c_str());
  std::fprintf(out, "df        %s\n", df->note.c_str());
  std::fprintf(out, "R(P)      %.4f  (%s; %d tokens)\n", score.relevance,
               score.relevance >= topic.beta ? "relevant" : "not relevant", score.total_terms);
  PrintTerms(score, out);
  PrintLinks(page, score, *links, o, out);
  return Status::Ok();
}

}  // namespace topicrawl
