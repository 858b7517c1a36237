// Save/restore of the JLSE learner's state (jlse_learner.h): a versioned
// binary record of what the crawl taught it; Gw, Q and the BM25 index are
// rebuilt from it on restore.
#include <algorithm>
#include <cstring>

#include "strategies/jlse/jlse_learner.h"

namespace topicrawl {
namespace {

// Binary state encoding: varints, length-prefixed strings, raw doubles.
class Writer {
 public:
  void U(uint64_t v) {
    while (v >= 0x80) {
      out_ += static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    out_ += static_cast<char>(v);
  }
  void I(int64_t v) { U(static_cast<uint64_t>(v)); }
  void S(std::string_view s) {
    U(s.size());
    out_.append(s);
  }
  void D(double d) {
    char b[8];
    std::memcpy(b, &d, 8);
    out_.append(b, 8);
  }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool U(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= in_.size()) return false;
      const uint8_t b = static_cast<uint8_t>(in_[pos_++]);
      *v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool I(int64_t* v) {
    uint64_t u;
    if (!U(&u)) return false;
    *v = static_cast<int64_t>(u);
    return true;
  }
  bool S(std::string* s) {
    uint64_t n;
    if (!U(&n) || n > in_.size() - pos_) return false;
    s->assign(in_.substr(pos_, n));
    pos_ += n;
    return true;
  }
  bool D(double* d) {
    if (in_.size() - pos_ < 8) return false;
    std::memcpy(d, in_.data() + pos_, 8);
    pos_ += 8;
    return true;
  }
  bool done() const { return pos_ == in_.size(); }

 private:
  std::string_view in_;
  size_t pos_ = 0;
};

constexpr char kStateMagic[] = "topicrawl-jlse-state-3";

void PutFields(Writer* w, const JlseLinkFields& f) {
  w->S(f.anchor_raw);
  for (const auto& t : f.terms) w->S(t);
}
bool GetFields(Reader* r, JlseLinkFields* f) {
  if (!r->S(&f->anchor_raw)) return false;
  for (auto& t : f->terms) {
    if (!r->S(&t)) return false;
  }
  return true;
}

}  // namespace

std::string JlseLearner::SaveState() const {
  Writer w;
  w.S(kStateMagic);
  w.U(fingerprint_);
  w.U(pages_.size());
  for (const auto& p : pages_) {
    w.I(p.id);
    w.I(p.parent);
    w.U(p.depth);
    w.U(p.result ? 1 : 0);
    w.S(p.url);
    PutFields(&w, p.fields);
  }
  w.U(results_.size());
  for (PageId r : results_) w.I(r);
  w.I(results_since_rebuild_);
  // Side tables, sorted so that equal states give equal bytes.
  std::vector<UrlId> ids;
  for (const auto& [u, q] : queued_) ids.push_back(u);
  std::sort(ids.begin(), ids.end());
  w.U(ids.size());
  for (UrlId u : ids) {
    const QueuedLink& q = queued_.at(u);
    w.U(u);
    w.I(q.parent);
    w.D(q.sim_anchor);
    w.U(q.mapped ? 1 : 0);
    w.I(q.vertex);
    w.D(q.bm25);
    PutFields(&w, q.fields);
  }
  std::vector<PageId> pids;
  for (const auto& [p, info] : parents_) pids.push_back(p);
  std::sort(pids.begin(), pids.end());
  w.U(pids.size());
  for (PageId p : pids) {
    const ParentInfo& info = parents_.at(p);
    w.I(p);
    w.D(info.p_page);
    w.D(info.denominator);
  }
  // Whether a snapshot exists (rebuilt at least once), to redo it on restore.
  w.U(snapshot()->index.size() > 0 ? 1 : 0);
  return std::move(w.out());
}

namespace {

// A field that cannot be read means the bytes end early: "truncated".
Status TruncatedState(const char* what) {
  return Status::Error(std::string("jlse: malformed saved state (truncated at ") + what + ")");
}

Status ReadStateHeader(Reader& r, uint64_t fingerprint) {
  std::string magic;
  uint64_t saved = 0;
  if (!r.S(&magic) || magic != kStateMagic) return TruncatedState("header");
  if (!r.U(&saved)) return TruncatedState("topic fingerprint");
  // The page classifier, its dictionary and the result-page model are the
  // topic of jlse/ata (from the topic file, never changed by the crawl): a
  // state learned with others rewarded other pages, and its LinkTable and
  // Q values mean nothing here.
  if (saved != fingerprint) {
    return Status::Error(
        "jlse: the saved state was learned for another topic (its page classifier, "
        "dictionary or result-page model differ from this crawl's topic); start a new crawl "
        "directory");
  }
  return Status::Ok();
}

// The tables' element types are the learner's own (PageNode, QueuedLink,
// ParentInfo): deduced here.
template <typename Node>
Status ReadPageNodes(Reader& r, std::vector<Node>* pages) {
  uint64_t n;
  if (!r.U(&n)) return TruncatedState("pages");
  for (uint64_t i = 0; i < n; ++i) {
    Node p;
    uint64_t depth, result;
    if (!r.I(&p.id) || !r.I(&p.parent) || !r.U(&depth) || !r.U(&result) || !r.S(&p.url) ||
        !GetFields(&r, &p.fields)) {
      return TruncatedState("page");
    }
    p.depth = static_cast<uint32_t>(depth);
    p.result = result != 0;
    pages->push_back(std::move(p));
  }
  return Status::Ok();
}

Status ReadResultIds(Reader& r, std::vector<PageId>* results) {
  uint64_t n;
  if (!r.U(&n)) return TruncatedState("results");
  for (uint64_t i = 0; i < n; ++i) {
    int64_t id;
    if (!r.I(&id)) return TruncatedState("result");
    results->push_back(id);
  }
  return Status::Ok();
}

template <typename Queued>
Status ReadQueuedLinks(Reader& r, absl::flat_hash_map<UrlId, Queued>* queued) {
  uint64_t n;
  if (!r.U(&n)) return TruncatedState("queued");
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t u, mapped;
    Queued q;
    double sim;
    if (!r.U(&u) || !r.I(&q.parent) || !r.D(&sim) || !r.U(&mapped) || !r.I(&q.vertex) ||
        !r.D(&q.bm25) ||
        !GetFields(&r, &q.fields)) {
      return TruncatedState("queued link");
    }
    q.sim_anchor = sim;
    q.mapped = mapped != 0;
    (*queued)[u] = std::move(q);
  }
  return Status::Ok();
}

template <typename Parent>
Status ReadParents(Reader& r, absl::flat_hash_map<PageId, Parent>* parents) {
  uint64_t n;
  if (!r.U(&n)) return TruncatedState("parents");
  for (uint64_t i = 0; i < n; ++i) {
    int64_t p;
    Parent info;
    if (!r.I(&p) || !r.D(&info.p_page) || !r.D(&info.denominator)) return TruncatedState("parent");
    (*parents)[p] = info;
  }
  return Status::Ok();
}

}  // namespace

Status JlseLearner::RestoreState(std::string_view bytes) {
  Reader r(bytes);
  if (Status s = ReadStateHeader(r, fingerprint_); !s.ok()) return s;
  std::vector<PageNode> pages;
  if (Status s = ReadPageNodes(r, &pages); !s.ok()) return s;
  std::vector<PageId> results;
  if (Status s = ReadResultIds(r, &results); !s.ok()) return s;
  int64_t since;
  if (!r.I(&since)) return TruncatedState("counter");
  absl::flat_hash_map<UrlId, QueuedLink> queued;
  if (Status s = ReadQueuedLinks(r, &queued); !s.ok()) return s;
  absl::flat_hash_map<PageId, ParentInfo> parents;
  if (Status s = ReadParents(r, &parents); !s.ok()) return s;
  uint64_t had_snapshot;
  if (!r.U(&had_snapshot)) return TruncatedState("trailer");
  if (!r.done()) return Status::Error("jlse: malformed saved state (unexpected bytes after it)");

  pages_ = std::move(pages);
  page_index_.clear();
  for (size_t i = 0; i < pages_.size(); ++i) page_index_[pages_[i].id] = i;
  results_ = std::move(results);
  queued_ = std::move(queued);
  parents_ = std::move(parents);
  ReindexRestored(had_snapshot != 0, since);
  return Status::Ok();
}

void JlseLearner::ReindexRestored(bool had_snapshot, int64_t since) {
  by_vertex_.clear();
  unmapped_.clear();
  to_rescore_.clear();
  value_by_page_.clear();
  if (params_.use_graph) {
    std::vector<UrlId> ids;
    for (const auto& [u, q] : queued_) ids.push_back(u);
    std::sort(ids.begin(), ids.end());  // vertex lists in a fixed order
    for (UrlId u : ids) IndexQueued(u, queued_.at(u));
  }
  // The snapshot of the saved crawl: its last rebuild did not yet see the
  // `since` results found after it.
  if (had_snapshot && params_.use_graph) {
    RebuildFrom(results_.size() - static_cast<size_t>(std::min<int64_t>(
                                      since, static_cast<int64_t>(results_.size()))));
  }
  // The restored links keep the priorities the frontier saved with them.
  to_rescore_.clear();
  results_since_rebuild_ = since;
}

}  // namespace topicrawl
