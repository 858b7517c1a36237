#include "scoring/sdtp_corpus.h"

namespace topicrawl {

StatusOr<std::unique_ptr<SdtpCorpus>> SdtpCorpus::Create(const std::string& path) {
  std::unique_ptr<SdtpCorpus> c(new SdtpCorpus());
  c->path_ = path;
  c->out_.open(path, std::ios::trunc);
  if (!c->out_) return Status::Error("cannot write the SDTP corpus " + path);
  return c;
}

void SdtpCorpus::Add(const WeightedTokens& page, bool topical) {
  std::string line;
  for (size_t i = 0; i < page.sequence_end; ++i) {
    if (i) line += ' ';
    line += page.tokens[i];
  }
  // Tokens never hold spaces or newlines (the tokeniser splits at them).
  std::lock_guard<std::mutex> lock(mu_);
  if (page.sequence_end == 0) return;
  out_ << line << '\n';
  ++pages_;
  if (topical) ++topical_;
  for (size_t i = 0; i < page.tokens.size(); ++i) {
    TermStats& s = stats_[page.tokens[i]];
    s.total_weight += page.factors[i];
    if (topical) {
      s.topical_weight += page.factors[i];
      if (i < page.sequence_end) ++s.topical_count;
    }
  }
}

Status SdtpCorpus::Flush() {
  std::lock_guard<std::mutex> lock(mu_);
  out_.flush();
  if (!out_) return Status::Error("error writing " + path_);
  return Status::Ok();
}

size_t SdtpCorpus::pages() const {
  std::lock_guard<std::mutex> lock(mu_);
  return pages_;
}

size_t SdtpCorpus::topical_pages() const {
  std::lock_guard<std::mutex> lock(mu_);
  return topical_;
}

StringMap<TermStats> SdtpCorpus::Stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

}  // namespace topicrawl
