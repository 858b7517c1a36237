// Readability's retries (main_content_internal.h, Pass): the extraction
// is run again with fewer rules while the article is short.
#include <string>
#include <vector>

#include "parse/main_content_internal.h"

namespace topicrawl::main_content_internal {
namespace {

size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

// Readability's attempts (Pass): the first whose text has 500 characters,
// else the longest. Returns the text's code points.
size_t ExtractArticle(myhtml_tree_node_t* body, std::string_view page_url, MainContent* out) {
  constexpr size_t kEnough = 500;
  constexpr Pass kPasses[] = {{true, true, true}, {false, true, true}, {false, false, true},
                              {false, false, false}};
  thread_local std::vector<Element> elements;
  elements.clear();
  IndexBody(body, &elements);
  std::string text, markdown;
  size_t best = 0;
  bool have = false;
  for (const Pass& pass : kPasses) {
    PrepareForPass(elements, pass);
    ScoreParagraphs(elements);
    const std::vector<int> roots = ChooseArticle(elements);
    text.clear();
    markdown.clear();
    RenderContent(elements, roots, page_url, pass.clean_conditionally, &text, &markdown);
    const size_t chars = CodePoints(text);
    if (!have || chars > best) {
      best = chars;
      have = true;
      out->text.swap(text);
      out->markdown.swap(markdown);
    }
    if (chars >= kEnough) break;
  }
  return best;
}

}  // namespace topicrawl::main_content_internal
