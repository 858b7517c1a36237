// The link features of strategy `online` (docs/strategies/online.md): sparse,
// hashed, one namespace each, so that what is learned about a link carries
// over to links never seen that share a part of it.
//
//   h:   host of the target          x:   target on another host than the page
//   p:   every directory prefix of the target (host/a/, host/a/b/, ...)
//   s:   every path segment          u:   URL tokens (path and query words)
//   e:   file extension              a:   anchor words
//   c:   link-context words (Outlink::context, seed 001's window)
//   b:   the link's page region (Outlink::block), bk: its landmark kind,
//   hb:  host + region               pr:  parent relevance bucket
//   d:   depth bucket                yd:, yp:, yb: yield buckets of the
//        target's directory, its parent directory and the link's region
//        (from GroupBandit: what links of that group paid so far)
//   bias
//
// What RescoreAll cannot recompute from a queued link (QueuedLinkView has
// the URL, anchor and depth) is kept in a LinkSide per queued link: 32 bytes.
#ifndef TOPICRAWL_STRATEGIES_ONLINE_LINK_FEATURES_H_
#define TOPICRAWL_STRATEGIES_ONLINE_LINK_FEATURES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strategies/online/ftrl.h"
#include "strategies/online/group_bandit.h"

namespace topicrawl {

// Lower-case words of a text: ASCII letter/digit runs (other non-ASCII
// letters join the word), and each CJK character alone plus each pair of
// adjacent CJK characters (Chinese has no spaces). Numbers become "#".
// At most `max_words`.
std::vector<std::string> OnlineWords(std::string_view text, size_t max_words);

// Host ("host[:port]") and path ("/a/b.html", query dropped) of an absolute URL.
std::string_view UrlHost(std::string_view url);
std::string_view UrlPath(std::string_view url);
// host + the directory part of the path ("host/a/b/"); `up` levels higher.
std::string UrlDirectory(std::string_view url, int up = 0);

// Landmark kinds of Outlink::block ("nav|ul.menu" -> kind 1).
uint8_t BlockKind(std::string_view block);

// Group keys of the bandit (GroupBandit).
uint64_t DirectoryGroup(std::string_view url, int up = 0);
uint64_t BlockGroup(std::string_view parent_host, std::string_view block);

struct LinkSide {
  uint64_t block_group = 0;   // BlockGroup(parent host, block); 0: none
  uint32_t block_hash = 0;    // Hash of the block descriptor alone
  uint32_t context[3] = {0, 0, 0};  // hashed link-context words (0: none)
  uint16_t prior = 0;         // cold-start prior * 65535
  uint8_t parent_bucket = 0;  // ParentBucket(R(parent), beta)
  uint8_t kind = 0;           // BlockKind(block)
  uint16_t generation = 0;    // rescore generation when recorded
  uint8_t cross_host = 0;     // 1: the target is on another host than the page
  uint8_t reserved = 0;
};

uint8_t ParentBucket(double relevance, double beta);

struct LinkInput {
  std::string_view url;
  std::string_view anchor;
  uint32_t depth = 0;
  const LinkSide* side = nullptr;  // null: only URL, anchor and depth
  // For readable names only (Build with `names`): the words and region
  // behind side->context and side->block_hash.
  const std::vector<std::string>* context_words = nullptr;
  std::string_view block;
};

// Builds the hashed features of a link into *out (cleared first); when
// `names` is not null, also the readable name of each (for explanations).
class LinkFeaturizer {
 public:
  LinkFeaturizer(const FtrlProximal* model, const GroupBandit* bandit, size_t max_words)
      : model_(model), bandit_(bandit), max_words_(max_words) {}

  void Build(const LinkInput& in, std::vector<HashedFeature>* out,
             std::vector<std::string>* names = nullptr) const;
  // Hash of one link-context word as LinkSide::context stores it.
  static uint32_t ContextHash(std::string_view word);

 private:
  void Add(std::string_view ns, std::string_view value, std::vector<HashedFeature>* out,
           std::vector<std::string>* names) const;
  void AddHash(uint64_t hash, std::vector<HashedFeature>* out, std::vector<std::string>* names,
               std::string_view name) const;
  void AddYield(std::string_view ns, uint64_t group, std::vector<HashedFeature>* out,
                std::vector<std::string>* names) const;

  const FtrlProximal* model_;
  const GroupBandit* bandit_;
  size_t max_words_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_ONLINE_LINK_FEATURES_H_
