#include "parse/link_context.h"

#include <algorithm>

namespace topicrawl::html_walk {

namespace {

// Word range [first, last) of a link that has words: a candidate neighbour.
struct LinkSpan {
  size_t first, last;
  size_t link;
};

// First word starting at/after an offset. Links come in document order, so
// the offsets asked for mostly grow: walk a cursor forward from the last
// answer and binary-search only when an offset goes backwards.
class WordCursor {
 public:
  explicit WordCursor(const std::vector<WordSpan>& words) : words_(words) {}
  size_t At(size_t offset) {
    if (offset < offset_) {
      index_ = static_cast<size_t>(
          std::lower_bound(words_.begin(), words_.end(), offset,
                           [](const WordSpan& w, size_t off) { return w.begin < off; }) -
          words_.begin());
    } else {
      while (index_ < words_.size() && words_[index_].begin < offset) ++index_;
    }
    offset_ = offset;
    return index_;
  }

 private:
  const std::vector<WordSpan>& words_;
  size_t index_ = 0;
  size_t offset_ = 0;
};

// The nearest other link ending at or before word `first` and the nearest
// starting at or after word `last` (spans sorted by first word), each kept
// only when it reaches into the window [lo, hi).
std::pair<const LinkSpan*, const LinkSpan*> NeighbourLinks(const std::vector<LinkSpan>& spans,
                                                           size_t self, size_t first,
                                                           size_t last, size_t lo, size_t hi) {
  auto it = std::lower_bound(spans.begin(), spans.end(), first,
                             [](const LinkSpan& s, size_t f) { return s.first < f; });
  const LinkSpan* before = nullptr;
  const LinkSpan* after = nullptr;
  for (auto b = it; b != spans.begin();) {
    --b;
    if (b->link != self && b->last <= first) {
      before = &*b;
      break;
    }
  }
  for (auto a = it; a != spans.end(); ++a) {
    if (a->link != self && a->first >= last) {
      after = &*a;
      break;
    }
  }
  if (before != nullptr && before->last <= lo) before = nullptr;
  if (after != nullptr && after->first >= hi) after = nullptr;
  return {before, after};
}

}  // namespace

// Seed 001 (§3.3): "for a window of fixed size before and after the link, if
// other links occur in it, take the anchor text of one link before and one
// after as the context; otherwise take a stretch of nearby text".
bool AttachTextContexts(std::string_view text, int window_words, size_t max_bytes,
                        const std::function<bool()>& out_of_time,
                        std::vector<WordSpan>* words_buf, std::vector<WalkedLink>* links) {
  if (window_words <= 0) return true;
  std::vector<WordSpan>& words = *words_buf;
  std::vector<WalkedLink>& links_ = *links;
  SplitWords(text, &words);
  const size_t window = static_cast<size_t>(window_words);
  WordCursor cursor(words);
  std::vector<LinkSpan> spans;
  std::vector<std::pair<size_t, size_t>> link_words(links_.size());
  for (size_t i = 0; i < links_.size(); ++i) {
    if (!links_[i].has_position) continue;
    size_t first = cursor.At(links_[i].text_begin);
    size_t last = cursor.At(links_[i].text_end);
    link_words[i] = {first, last};
    if (last > first) spans.push_back({first, last, i});
  }
  auto anchor_of = [&](const LinkSpan& s) {
    const WalkedLink& r = links_[s.link];
    return TrimSpaces(
        std::string_view(text).substr(r.text_begin, r.text_end - r.text_begin));
  };
  auto words_text = [&](size_t a, size_t b) -> std::string_view {  // [a, b)
    if (a >= b) return {};
    return std::string_view(text).substr(words[a].begin, words[b - 1].end - words[a].begin);
  };
  for (size_t i = 0; i < links_.size(); ++i) {
    if (!links_[i].has_position) continue;
    if ((i & 255) == 255 && out_of_time()) return false;
    auto [first, last] = link_words[i];
    size_t lo = first > window ? first - window : 0;
    size_t hi = std::min(words.size(), last + window);
    auto [before, after] = NeighbourLinks(spans, i, first, last, lo, hi);
    std::string context;
    if (before != nullptr || after != nullptr) {
      if (before != nullptr) context = anchor_of(*before);
      if (after != nullptr) {
        if (!context.empty()) context.push_back(' ');
        context += anchor_of(*after);
      }
    } else {
      context = words_text(lo, first);
      std::string_view right = words_text(last, hi);
      if (!context.empty() && !right.empty()) context.push_back(' ');
      context += right;
    }
    links_[i].link.context = std::string(Utf8Prefix(context, max_bytes));
  }
  return true;
}

// Seed 004 (§3.2.1): "the text of all DOM tree nodes whose distance to link
// u is at most delta". Tree distance counts edges, and the text of an element
// is its text content (all descendant text): with a strict text-node reading
// a link in a typical <li><a><code><span> list would get no context at all.
// The ancestors within delta are such nodes, so the context is the text of
// the delta-th ancestor's subtree without the link's own (anchor) text,
// taken nearest first under the byte cap: for each ancestor level
// k = 1..delta, the subtrees of the siblings of the path node, alternating
// outwards (previous, next, previous, ...). Output is in document order.
std::string DomContext(const std::vector<CompactNode>& cnodes, const VisibleText& visible,
                       int32_t a, int delta, size_t cap, DomContextScratch* scratch) {
  const std::vector<std::pair<uint32_t, uint32_t>>& pieces_ = *visible.pieces;
  // Bounds the cost on link lists with thousands of siblings.
  constexpr size_t kMaxVisits = 256;
  auto& taken = scratch->taken;  // (piece index, bytes)
  auto& stack = scratch->stack;
  taken.clear();
  size_t bytes = 0;
  size_t visits = 0;
  const CompactNode* nodes = cnodes.data();
  auto visit_subtree = [&](int32_t root) {
    stack.clear();
    stack.emplace_back(root, 0);
    while (!stack.empty() && bytes < cap && visits < kMaxVisits) {
      auto [n, d] = stack.back();
      stack.pop_back();
      ++visits;
      if (int32_t piece = nodes[n].piece; piece >= 0) {
        const auto& [b, e] = pieces_[piece];
        size_t len = e - b;
        if (bytes + len > cap) {
          // Whole pieces only, so the output has no cut words in the middle;
          // a first piece longer than the cap is cut at a space.
          if (taken.empty()) {
            std::string_view head = Utf8Prefix(
                visible.text.substr(b, e - b), cap);
            size_t space = head.rfind(' ');
            len = space != std::string_view::npos && space > 0 ? space : head.size();
            taken.emplace_back(piece, len);
          }
          bytes = cap;
          break;
        }
        taken.emplace_back(piece, len);
        bytes += len + 1;
        continue;
      }
      // Push children last-to-first so they pop in document order.
      for (int32_t c = nodes[n].last_child; c >= 0; c = nodes[c].prev) {
        stack.emplace_back(c, d + 1);
      }
    }
  };
  int32_t path = a;
  for (int k = 1; k <= delta && bytes < cap && visits < kMaxVisits; ++k) {
    int32_t parent = nodes[path].parent;
    if (parent < 0) break;
    int32_t prev = nodes[path].prev;
    int32_t next = nodes[path].next;
    while ((prev >= 0 || next >= 0) && bytes < cap && visits < kMaxVisits) {
      if (prev >= 0) {
        visit_subtree(prev);
        prev = nodes[prev].prev;
      }
      if (next >= 0 && bytes < cap) {
        visit_subtree(next);
        next = nodes[next].next;
      }
    }
    path = parent;
  }
  std::sort(taken.begin(), taken.end());
  std::string out;
  out.reserve(std::min(bytes, cap) + taken.size());
  const std::string_view text = visible.text;
  for (const auto& [piece, len] : taken) {
    const auto& [b, e] = pieces_[piece];
    std::string_view s = Utf8Prefix(text.substr(b, e - b), len);
    if (s.empty()) continue;
    if (!out.empty()) out.push_back(' ');
    out += s;
  }
  return out;
}

}  // namespace topicrawl::html_walk
