// Link contexts (parse/ internal): the two readings of "the text around a
// link" that the seeds use, computed after the DOM walk of html_parser.cc
// from what the walk recorded:
//   - seed 001 (§3.3): a window of words around the anchor in the page's
//     visible text stream (AttachTextContexts);
//   - seed 004 (§3.2.1): the text of the DOM nodes within tree distance
//     delta of the link (DomContext), over a compact copy of the visible DOM.
// Both write into the LinkRecords the walk produced; neither allocates per
// word (the scratch buffers are the caller's, reused across pages).
// Namespace html_walk: these are the parser's own types (a topicrawl::
// LinkRecord already exists in store/, and one name for two types would
// break the one-definition rule).
#ifndef TOPICRAWL_PARSE_LINK_CONTEXT_H_
#define TOPICRAWL_PARSE_LINK_CONTEXT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parse/html_parser.h"
#include "parse/html_text.h"

struct myhtml_tree_node;  // myhtml's node (myhtml_tree_node_t)

namespace topicrawl::html_walk {

// The part of the DOM that the seed-004 context needs, copied during the walk
// into a flat array: elements that were descended into (visible content),
// link elements, and non-blank visible text nodes. Hidden subtrees and
// whitespace-only text are left out: they hold no context text, and text
// nodes are leaves, so tree distances between the remaining nodes are
// unchanged. Walking this array is several times faster than following
// myhtml's pointers through its API, and skips the blank text nodes.
struct CompactNode {
  int32_t parent = -1;
  int32_t first_child = -1;
  int32_t last_child = -1;
  int32_t prev = -1;
  int32_t next = -1;
  int32_t piece = -1;  // index into the visible text pieces, -1: element
};

// A link found during the walk, before contexts are attached.
struct WalkedLink {
  Outlink link;
  myhtml_tree_node* node = nullptr;    // the element (null for meta/canonical)
  int32_t cnode = -1;                  // its CompactNode
  size_t text_begin = 0;               // anchor range in the text stream
  size_t text_end = 0;
  bool has_position = false;           // false: no textual position (meta)
};

// A view of the walk's visible text: the text stream and its pieces (one
// per non-blank visible text node, [begin, end) offsets into `text`).
struct VisibleText {
  std::string_view text;
  const std::vector<std::pair<uint32_t, uint32_t>>* pieces = nullptr;
};

// Seed 001 (§3.3) context of every link with a textual position:
// `window_words` words either side of the anchor; when other links fall in
// that window, the anchor texts of the nearest one before and after instead.
// Cut to `max_bytes` (UTF-8 safe). `out_of_time` is polled every 256 links;
// returns false when it stopped the work (the remaining links keep an empty
// context). `words` is scratch.
bool AttachTextContexts(std::string_view text, int window_words, size_t max_bytes,
                        const std::function<bool()>& out_of_time,
                        std::vector<WordSpan>* words, std::vector<WalkedLink>* links);

// Reused buffers of DomContext.
struct DomContextScratch {
  std::vector<std::pair<size_t, size_t>> taken;  // (piece index, bytes)
  std::vector<std::pair<int32_t, int>> stack;
};

// Seed 004 (§3.2.1) context of the link whose CompactNode is `link_node`:
// the text of the nodes within tree distance `delta`, nearest first, whole
// pieces under the `max_bytes` cap, returned in document order.
std::string DomContext(const std::vector<CompactNode>& nodes, const VisibleText& visible,
                       int32_t link_node, int delta, size_t max_bytes,
                       DomContextScratch* scratch);

}  // namespace topicrawl::html_walk

#endif  // TOPICRAWL_PARSE_LINK_CONTEXT_H_
