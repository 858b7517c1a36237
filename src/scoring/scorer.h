// The two scoring roles of a crawl strategy:
//   PageScorer: ParsedPage -> PageScore (R(P), the page's topical relevance)
//   LinkScorer: Outlink + its parent page -> LinkScore (priority of the link)
// Implementations, one file each: RelevancePageScorer (seed 000 eq. 3-4),
// RelevanceLinkScorer (seed 000 eq. 5), SharkSearchLinkScorer (Hersovici et
// al. 1998).
//
// Thread-safety: every Score() method may be called from many threads at
// once (the parse pool). Page scorers may update shared crawl statistics
// (document frequencies) internally.
#ifndef TOPICRAWL_SCORING_SCORER_H_
#define TOPICRAWL_SCORING_SCORER_H_

#include <string>
#include <vector>

#include "core/crawl_task.h"
#include "text/tfidf.h"

namespace topicrawl {

struct PageScore {
  double relevance = 0;          // R(P) in [0, 1]
  int total_terms = 0;           // tokens of the scored text (sum_k n_jk)
  std::vector<TermWeight> terms;  // topic terms present, largest contribution first
  // Compact JSON: {"r":0.83,"n":412,"terms":[["网络",7,0.017,0.41,1.0],...]}
  // with each term as [term, count, tf, idf, topic weight]; at most 10 terms.
  std::string ExplanationJson() const;
};

class PageScorer {
 public:
  virtual ~PageScorer() = default;
  virtual PageScore Score(const ParsedPage& page) const = 0;
};

// State a strategy passes from a page to the links found on it, to be
// carried by the child's CrawlTask and handed back when the child page's
// links are scored (Shark-search: the inherited score and the remaining
// depth). Strategies that need nothing leave the defaults.
struct LinkCarry {
  double inherited = 0;   // Shark-search inherited score of this page
  int depth_left = -1;    // Shark-search remaining depth; -1: not tracked
};

// What is known about the page that contains the link.
struct LinkParent {
  const PageScore* page = nullptr;    // REQUIRED: the parent's PageScore
  const CrawlTask* task = nullptr;    // the parent's task, when known
  LinkCarry carry;                    // what the parent's task carried
};

struct LinkScorePart {
  std::string name;  // "anchor", "parent", "inherited", "context", ...
  double value = 0;
};

struct LinkScore {
  double score = 0;                  // priority, in [0, 1]
  std::vector<LinkScorePart> parts;  // the components the score combines
  // Compact JSON: {"s":0.41,"parts":{"anchor":0.8,"parent":0.24},
  // "anchor_terms":[["tcp",1,...]]}
  std::string explanation;
  bool admit = true;   // false: the strategy cuts this link (e.g. depth 0)
  LinkCarry carry;     // for the child's CrawlTask
};

class LinkScorer {
 public:
  virtual ~LinkScorer() = default;
  // REQUIRES: parent.page != nullptr.
  virtual LinkScore Score(const Outlink& link,
                          const LinkParent& parent) const = 0;
  // The link contexts Score() reads; the crawler's parser skips the others.
  // Default: both (safe for scorers that do not say).
  virtual LinkContextNeeds NeededContexts() const { return {}; }
};

}  // namespace topicrawl

#endif  // TOPICRAWL_SCORING_SCORER_H_
