#include "crawl/round_state.h"

namespace topicrawl {

Status RoundState::Load(CrawlStore* store, std::vector<RevisitRecord>* revisits) {
  if (store->schema_version() < 3) return Status::Ok();
  auto round = store->CurrentRound();
  if (!round.ok()) return round.status();
  round_ = *round;
  if (round_ > 0) {
    auto follow = store->GetMeta("round_follow_new_links." + std::to_string(round_));
    if (!follow.ok()) return follow.status();
    follow_new_links_ = !follow->has_value() || **follow != "0";
    Status s = store->LoadPendingRevisits(round_, [&](const RevisitRecord& r) {
      revisits_[r.url_id] = {r.version_id, r.digest,        r.simhash,
                             r.etag,       r.last_modified, r.out_links};
      revisits->push_back(r);
      return true;
    });
    if (!s.ok()) return s;
  }
  return store->LoadSimhashes([this](PageId id, UrlId url_id, uint64_t simhash) {
    index_.Add(simhash, id, url_id);
    return true;
  });
}

const RoundState::Revisit* RoundState::Find(UrlId url_id) const {
  if (revisits_.empty()) return nullptr;
  auto it = revisits_.find(url_id);
  return it == revisits_.end() ? nullptr : &it->second;
}

void RoundState::Prepare(CrawlTask* task) const {
  const Revisit* r = Find(task->url_id);
  if (r == nullptr || r->version_id == 0) return;  // nothing to validate against
  task->etag = r->etag;
  task->last_modified = r->last_modified;
}

std::optional<UrlState> RoundState::ClassifyBeforeParse(const Revisit& revisit,
                                                        const FetchResult& result,
                                                        uint64_t body_digest,
                                                        PageRecord::RevisitProfile* profile) {
  *profile = PageRecord::RevisitProfile::kNone;
  if (result.status == FetchStatus::kNotModified) {
    *profile = PageRecord::RevisitProfile::kServerNotModified;
    return UrlState::kUnchanged;
  }
  if (result.status == FetchStatus::kOk) {
    if (revisit.version_id != 0 && body_digest == revisit.digest) {
      *profile = PageRecord::RevisitProfile::kIdenticalPayloadDigest;
      return UrlState::kUnchanged;
    }
    return std::nullopt;  // new content: parse it
  }
  if (result.http_code == 404 || result.http_code == 410) return UrlState::kGone;
  return UrlState::kFailed;
}

UrlState RoundState::ClassifyChange(const Revisit& revisit, uint64_t simhash) {
  if (revisit.version_id == 0) return UrlState::kNew;  // nothing stored before (came back)
  if (revisit.simhash != 0 && simhash != 0 &&
      HammingDistance(revisit.simhash, simhash) <= kSimHashNearDistance) {
    return UrlState::kTriviallyChanged;
  }
  return UrlState::kChanged;
}

PageId RoundState::NearDuplicateAndAdd(uint64_t simhash, PageId id, UrlId url_id) {
  if (simhash == 0) return 0;
  std::optional<SimHashIndex::Match> m = index_.FindAndAdd(simhash, id, url_id);
  return m ? m->id : 0;
}

}  // namespace topicrawl
