// The page region a link sits in, for learners that value links by where
// they appear (navigation, content, footer; strategies/online's b:, hb:,
// bk: features and its region bandit arms).
#ifndef TOPICRAWL_PARSE_LINK_BLOCK_H_
#define TOPICRAWL_PARSE_LINK_BLOCK_H_

#include <string>

struct myhtml_tree_node;  // myhtml's node (myhtml_tree_node_t)

namespace topicrawl {

// "landmark|container" of the element `anchor`, e.g. "nav|ul.toctree",
// "main|div#content", "body|td".
//   landmark   the innermost enclosing nav, header, footer, aside or main
//              element, or an element with the ARIA role navigation, banner,
//              contentinfo, complementary or main (mapped to those names);
//              "body" when there is none.
//   container  the nearest enclosing element (the anchor excluded) with a
//              class (tag "." its first class token) or else an id
//              (tag "#" id), looked for at most 6 levels up; else the tag
//              name of the anchor's parent.
// ASCII letters are lower-cased; the container part is cut at 40 bytes.
// Empty for a node without a parent.
std::string LinkBlock(myhtml_tree_node* anchor);

}  // namespace topicrawl

#endif  // TOPICRAWL_PARSE_LINK_BLOCK_H_
