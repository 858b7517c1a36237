// Internals of the main-content extraction (main_content.h), in files along
// its flow: main_content_index.cc indexes the elements of <body> with their
// own facts, main_content_passes.cc runs Readability's attempts (Pass),
// main_content_score.cc scores the candidates of one attempt and chooses
// the article, main_content_render.cc renders it to text and Markdown;
// main_content.cc parses the page and reads its title, language and
// opt-out meta tags.
#ifndef TOPICRAWL_PARSE_MAIN_CONTENT_INTERNAL_H_
#define TOPICRAWL_PARSE_MAIN_CONTENT_INTERNAL_H_

#include <myhtml/api.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parse/main_content.h"

namespace topicrawl::main_content_internal {

// One HTML element of <body> outside hidden subtrees (script, style, nav,
// aside, footer, invisible ...). The facts of the page are set once; the
// rest is recomputed for each extraction attempt (Pass).
struct Element {
  myhtml_tree_node_t* node = nullptr;
  int parent = -1;
  int first_child = -1;
  int next_sibling = -1;
  myhtml_tag_id_t tag = 0;
  bool hidden = false;      // dropped in every pass (its subtree is not indexed)
  bool unlikely = false;    // dropped when the pass strips unlikely candidates
  int own_weight = 0;       // +-25 per class and id pattern
  uint32_t own_chars = 0, own_link_chars = 0, own_heading_chars = 0, own_commas = 0;
  // --- per pass ---
  bool dropped = false;     // itself or an ancestor: not rendered, not counted
  bool data_table = false;  // tables: looks like data (kept by cleaning)
  int class_weight = 0;     // +-25 per class and id pattern
  uint32_t chars = 0;       // code points of text in the subtree
  uint32_t link_chars = 0;  // of which inside <a>
  uint32_t heading_chars = 0;
  uint32_t commas = 0;
  uint32_t p = 0, img = 0, li = 0, input = 0, embeds = 0;  // descendants
  uint32_t list_chars = 0;  // of `chars`, inside ul/ol descendants
  uint32_t rows = 0, cells = 0, th = 0;                      // tables
  // A descendant is one of Readability's DIV_TO_P_ELEMS (blockquote, dl,
  // div, img, ol, p, pre, table, ul): a div without one scores as a
  // paragraph. Set once a page, dropped descendants included (Readability
  // looks before it removes them).
  bool has_block_child = false;
  bool scored = false;
  double score = 0;

  double LinkDensity() const { return chars == 0 ? 0.0 : double(link_chars) / chars; }
};

// The rules of one extraction attempt: Readability's FLAG_STRIP_UNLIKELYS
// (class/id patterns, roles, a header outside article/main),
// FLAG_WEIGHT_CLASSES (class/id weights) and FLAG_CLEAN_CONDITIONALLY.
// An article under 500 characters is extracted again with the first, then
// the second, then the third turned off; the longest attempt wins.
struct Pass {
  bool strip_unlikely = true;
  bool weight_classes = true;
  bool clean_conditionally = true;
};

// Element index + 1 stored in a node's myhtml data slot (0: not indexed).
inline int IndexOf(myhtml_tree_node_t* node) {
  return static_cast<int>(reinterpret_cast<intptr_t>(myhtml_node_get_data(node))) - 1;
}

// The value of `node`'s attribute `key` ("" when it has none).
std::string_view AttrOf(myhtml_tree_node_t* node, std::string_view key);

// `s` with ASCII letters lower-cased.
std::string LowerAscii(std::string_view s);

// Replaces `elements` with the index of `body` (element 0) and the
// elements below it in document order, hidden subtrees left out, each with
// its page facts and has_block_child set.
void IndexBody(myhtml_tree_node_t* body, std::vector<Element>* elements);

// Sets the per-pass fields of every element for `pass`: what it drops, the
// class weights it uses, and the counts over what is left.
void PrepareForPass(std::vector<Element>& el, const Pass& pass);

// Readability's paragraph scores, propagated to 5 ancestors.
void ScoreParagraphs(std::vector<Element>& el);

// The article of a scored pass: the roots to render (element indexes, in
// document order); {0}, the whole body, when no candidate scored.
std::vector<int> ChooseArticle(std::vector<Element>& el);

// Readability's attempts (Pass) over `body`: the first whose text has 500
// characters, else the longest, into out->text and out->markdown. Returns
// the text's code points.
size_t ExtractArticle(myhtml_tree_node_t* body, std::string_view page_url, MainContent* out);

// Renders the subtrees of `roots` (element indexes, in order) as text and
// Markdown, skipping dropped elements and cleaning conditionally (see
// main_content.h). Links resolve against `page_url`.
void RenderContent(const std::vector<Element>& elements, const std::vector<int>& roots,
                   std::string_view page_url, bool clean_conditionally, std::string* text,
                   std::string* markdown);

// True for elements that end a line of text (HTML block-level and br).
bool IsBlockTag(myhtml_tag_id_t tag);

}  // namespace topicrawl::main_content_internal

#endif  // TOPICRAWL_PARSE_MAIN_CONTENT_INTERNAL_H_
