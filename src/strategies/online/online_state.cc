// Strategy `online`'s learned state (CrawlStrategy::SaveState): what a
// resumed crawl needs to go on with the same model.
//
// Section "online" v1:
//   u64 Hash64 of the topic's terms (another topic is refused)
//   i64 D, u64 n, n x (str term, i64 D_i)     document frequencies, by term
//   u64 pages, u64 rescores, u32 pages_since_rescore, u32 generation
// Section "ftrl" (ftrl.h), section "bandit" (group_bandit.h), bool has
// judge, [section "judge" (page_judge.h)], then
// Section "side" v1: u64 n, then Packed(n x (u64 url_id, u64 block_group,
//   u32 block_hash, 3 x u32 context, u16 prior, u8 parent_bucket, u8 kind,
//   u16 generation, u8 cross_host)) sorted by url_id; u64 m, m x (u64 url_id,
//   f64 value) sorted by url_id.
#include <algorithm>
#include <utility>
#include <vector>

#include "core/hash.h"
#include "crawl/state_blob.h"
#include "strategies/online/online_strategy.h"

namespace topicrawl {

namespace {

constexpr uint32_t kOnlineVersion = 1;
constexpr uint32_t kSideVersion = 1;
constexpr size_t kSideBytes = 8 + 8 + 4 + 12 + 2 + 1 + 1 + 2 + 1;

uint64_t TopicFingerprint(const TopicRelevance& rel) {
  std::string joined;
  for (const std::string& t : rel.vector().terms) joined += t + '\n';
  return Hash64(joined);
}

template <typename T>
void Put(std::string* out, T v) {
  for (size_t k = 0; k < sizeof(T); ++k) out->push_back(static_cast<char>((v >> (8 * k)) & 0xFF));
}
template <typename T>
T Get(const char* p) {
  T v = 0;
  for (size_t k = 0; k < sizeof(T); ++k) {
    v |= static_cast<T>(static_cast<unsigned char>(p[k])) << (8 * k);
  }
  return v;
}

}  // namespace

Status OnlineStrategy::SaveState(std::string* blob) const {
  StateWriter w;
  w.Section("online", kOnlineVersion);
  w.U64(TopicFingerprint(*relevance_));
  std::vector<std::pair<std::string, int64_t>> counts;
  w.I64(relevance_->df().Counts(&counts));
  w.U64(counts.size());
  for (const auto& [term, n] : counts) {
    w.Str(term);
    w.I64(n);
  }
  w.U64(pages_);
  w.U64(rescores_);
  w.U32(static_cast<uint32_t>(pages_since_rescore_));
  w.U32(generation_.load());
  std::lock_guard<std::mutex> side_lock(side_mu_);
  {
    std::shared_lock<std::shared_mutex> lock(model_mu_);
    model_.Save(&w);
    bandit_.Save(&w);
  }
  w.Bool(judge_ != nullptr);
  if (judge_) judge_->Save(&w);
  w.Section("side", kSideVersion);
  std::vector<std::pair<UrlId, LinkSide>> sides(side_.begin(), side_.end());
  std::sort(sides.begin(), sides.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string raw;
  raw.reserve(sides.size() * kSideBytes);
  for (const auto& [id, s] : sides) {
    Put<uint64_t>(&raw, id);
    Put<uint64_t>(&raw, s.block_group);
    Put<uint32_t>(&raw, s.block_hash);
    for (uint32_t c : s.context) Put<uint32_t>(&raw, c);
    Put<uint16_t>(&raw, s.prior);
    Put<uint8_t>(&raw, s.parent_bucket);
    Put<uint8_t>(&raw, s.kind);
    Put<uint16_t>(&raw, s.generation);
    Put<uint8_t>(&raw, s.cross_host);
  }
  w.U64(sides.size());
  w.Packed(raw);
  std::vector<std::pair<UrlId, double>> values(page_value_.begin(), page_value_.end());
  std::sort(values.begin(), values.end());
  w.U64(values.size());
  for (const auto& [id, v] : values) {
    w.U64(id);
    w.F64(v);
  }
  *blob = w.Take();
  return Status::Ok();
}

Status OnlineStrategy::RestoreState(std::string_view blob) {
  if (blob.empty()) return Status::Ok();
  StateReader r(blob);
  uint32_t version = 0;
  if (Status s = r.Section("online", kOnlineVersion, &version); !s.ok()) return s;
  uint64_t fingerprint = 0, n = 0, pages = 0, rescores = 0;
  int64_t documents = 0;
  if (!r.U64(&fingerprint, "topic fingerprint")) return r.status();
  if (fingerprint != TopicFingerprint(*relevance_)) {
    return Status::Error(
        "the saved state was learned for another topic (its terms differ from this "
        "crawl's --topic)");
  }
  if (!r.I64(&documents, "D") || !r.Count(&n, 16, "document frequencies")) return r.status();
  std::vector<std::pair<std::string, int64_t>> counts(n);
  for (auto& [term, di] : counts) {
    if (!r.Str(&term, "term") || !r.I64(&di, "D_i")) return r.status();
    if (di < 0 || di > documents) return Status::Error("online: D_i out of range for " + term);
  }
  uint32_t since = 0, gen = 0;
  if (!r.U64(&pages, "pages") || !r.U64(&rescores, "rescores") ||
      !r.U32(&since, "pages_since_rescore") || !r.U32(&gen, "generation")) {
    return r.status();
  }
  if (gen > 0xFFFF) return Status::Error("online: generation out of range");
  std::lock_guard<std::mutex> side_lock(side_mu_);
  std::unique_lock<std::shared_mutex> lock(model_mu_);
  if (Status s = model_.Restore(&r); !s.ok()) return s;
  if (Status s = bandit_.Restore(&r); !s.ok()) return s;
  bool has_judge = false;
  if (!r.Bool(&has_judge, "has judge")) return r.status();
  if (has_judge != (judge_ != nullptr)) {
    return Status::Error(std::string("online: the saved state ") +
                         (has_judge ? "has" : "has no") +
                         " self-trained judge, this crawl's [strategy.online] judge is \"" +
                         JudgeName(params_.judge) + "\"");
  }
  if (judge_) {
    if (Status s = judge_->Restore(&r); !s.ok()) return s;
  }
  if (Status s = r.Section("side", kSideVersion, &version); !s.ok()) return s;
  uint64_t count = 0;
  std::string raw;
  if (!r.U64(&count, "side links") || !r.Packed(&raw, "side table", count * kSideBytes + 1)) {
    return r.status();
  }
  if (raw.size() != count * kSideBytes) return Status::Error("online: side table size mismatch");
  absl::flat_hash_map<UrlId, LinkSide> side;
  side.reserve(count);
  for (uint64_t k = 0; k < count; ++k) {
    const char* p = raw.data() + k * kSideBytes;
    LinkSide s;
    const UrlId id = Get<uint64_t>(p);
    s.block_group = Get<uint64_t>(p + 8);
    s.block_hash = Get<uint32_t>(p + 16);
    for (int c = 0; c < 3; ++c) s.context[c] = Get<uint32_t>(p + 20 + 4 * c);
    s.prior = Get<uint16_t>(p + 32);
    s.parent_bucket = Get<uint8_t>(p + 34);
    s.kind = Get<uint8_t>(p + 35);
    s.generation = Get<uint16_t>(p + 36);
    s.cross_host = Get<uint8_t>(p + 38);
    side[id] = s;
  }
  uint64_t m = 0;
  if (!r.Count(&m, 16, "page values")) return r.status();
  absl::flat_hash_map<UrlId, double> values;
  for (uint64_t k = 0; k < m; ++k) {
    uint64_t id = 0;
    double v = 0;
    if (!r.U64(&id, "page value id") || !r.F64(&v, "page value")) return r.status();
    values[id] = v;
  }
  if (!r.AtEnd()) {
    return Status::Error(std::to_string(r.remaining()) + " unexpected bytes after the saved state");
  }
  relevance_->df().SetCounts(documents, counts);
  pages_ = pages;
  rescores_ = rescores;
  pages_since_rescore_ = static_cast<int>(since);
  generation_.store(static_cast<uint16_t>(gen));
  side_ = std::move(side);
  page_value_ = std::move(values);
  return Status::Ok();
}

}  // namespace topicrawl
