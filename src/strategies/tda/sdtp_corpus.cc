#include "strategies/tda/sdtp_corpus.h"

#include <algorithm>
#include <filesystem>
#include <random>
#include <vector>

namespace topicrawl {

StatusOr<std::unique_ptr<SdtpCorpus>> SdtpCorpus::Create(const std::string& path) {
  std::unique_ptr<SdtpCorpus> c(new SdtpCorpus());
  c->path_ = path;
  // Fails here, not at the first page, when the directory is not writable.
  std::error_code ec;
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
    return Status::Error("cannot write the SDTP corpus " + path + ": no directory");
  }
  return c;
}

bool SdtpCorpus::OpenLocked() {
  if (!opened_) {
    out_.open(path_, std::ios::trunc);
    opened_ = true;
    bytes_ = 0;
  }
  return static_cast<bool>(out_);
}

Status SdtpCorpus::Resume(SdtpCorpusSnapshot snapshot) {
  std::lock_guard<std::mutex> lock(mu_);
  std::error_code ec;
  const uint64_t size = std::filesystem::exists(path_, ec) ? std::filesystem::file_size(path_, ec) : 0;
  if (ec || size < snapshot.bytes) {
    return Status::Error(path_ + " holds " + std::to_string(size) + " bytes, the saved state " +
                         std::to_string(snapshot.bytes));
  }
  if (out_.is_open()) out_.close();
  if (!std::filesystem::exists(path_, ec)) std::ofstream(path_, std::ios::app).flush();
  std::filesystem::resize_file(path_, snapshot.bytes, ec);
  if (ec) return Status::Error("cannot cut " + path_ + " back: " + ec.message());
  out_.clear();
  out_.open(path_, std::ios::app);
  if (!out_) return Status::Error("cannot append to the SDTP corpus " + path_);
  opened_ = true;
  bytes_ = snapshot.bytes;
  pages_ = snapshot.pages;
  topical_ = snapshot.topical;
  stats_ = std::move(snapshot.stats);
  site_ids_.clear();
  for (size_t i = 0; i < snapshot.sites.size(); ++i) {
    site_ids_.emplace(snapshot.sites[i], static_cast<uint32_t>(i));
  }
  return Status::Ok();
}

SdtpCorpusSnapshot SdtpCorpus::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (opened_) out_.flush();
  SdtpCorpusSnapshot s;
  s.bytes = bytes_;
  s.pages = pages_;
  s.topical = topical_;
  s.stats = stats_;
  s.sites.resize(site_ids_.size());
  for (const auto& [site, id] : site_ids_) s.sites[id] = site;
  return s;
}

StatusOr<size_t> SdtpCorpus::WriteSample(const std::string& out, size_t max_pages,
                                         uint64_t seed) const {
  std::ifstream in(path_);
  if (!in) return Status::Error("cannot read " + path_);
  // Reservoir sampling (Vitter's algorithm R) of line numbers, then a
  // second pass copies the chosen lines in file order.
  std::vector<uint64_t> keep;
  std::mt19937_64 rng(seed);
  uint64_t n = 0;
  for (std::string line; std::getline(in, line); ++n) {
    if (keep.size() < max_pages) {
      keep.push_back(n);
    } else if (const uint64_t j = rng() % (n + 1); j < max_pages) {
      keep[j] = n;
    }
  }
  std::sort(keep.begin(), keep.end());
  in.clear();
  in.seekg(0);
  std::ofstream o(out, std::ios::trunc);
  size_t k = 0;
  n = 0;
  for (std::string line; k < keep.size() && std::getline(in, line); ++n) {
    if (n != keep[k]) continue;
    o << line << '\n';
    ++k;
  }
  o.flush();
  if (!o) return Status::Error("cannot write " + out);
  return k;
}

void SdtpCorpus::Add(const WeightedTokens& page, bool topical, std::string_view site) {
  std::string line;
  for (size_t i = 0; i < page.sequence_end; ++i) {
    if (i) line += ' ';
    line += page.tokens[i];
  }
  // Tokens never hold spaces or newlines (the tokeniser splits at them).
  std::lock_guard<std::mutex> lock(mu_);
  if (page.sequence_end == 0 || !OpenLocked()) return;
  out_ << line << '\n';
  bytes_ += line.size() + 1;
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
  if (!OpenLocked()) return Status::Error("cannot write the SDTP corpus " + path_);
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
