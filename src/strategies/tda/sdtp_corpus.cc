#include "strategies/tda/sdtp_corpus.h"

#include <algorithm>

namespace topicrawl {

StatusOr<std::unique_ptr<SdtpCorpus>> SdtpCorpus::Create(const std::string& path) {
  std::unique_ptr<SdtpCorpus> c(new SdtpCorpus());
  c->path_ = path;
  c->out_.open(path, std::ios::trunc);
  if (!c->out_) return Status::Error("cannot write the SDTP corpus " + path);
  return c;
}

void SdtpCorpus::Add(const WeightedTokens& page, bool topical, std::string_view site) {
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
  uint32_t site_id = 0;
  if (topical) {
    ++topical_;
    site_id = site_ids_.try_emplace(site, static_cast<uint32_t>(site_ids_.size())).first->second;
  }
  const uint64_t page_no = pages_;
  for (size_t i = 0; i < page.tokens.size(); ++i) {
    TermStats& s = stats_[page.tokens[i]];
    s.total_weight += page.factors[i];
    if (!topical) continue;
    s.topical_weight += page.factors[i];
    if (i >= page.sequence_end) continue;
    ++s.topical_count;
    if (s.last_page == page_no) continue;  // document frequency: once a page
    s.last_page = page_no;
    ++s.topical_pages;
    bool known = false;
    const size_t kept = std::min<size_t>(s.topical_sites, TermStats::kMaxSites);
    for (size_t k = 0; k < kept && !known; ++k) known = s.site_ids[k] == site_id;
    if (!known && s.topical_sites < TermStats::kMaxSites) s.site_ids[s.topical_sites++] = site_id;
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
