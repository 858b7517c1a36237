// The main content of an HTML page as plain text and as Markdown, without
// boilerplate (navigation, headers, footers, sidebars, cookie notes,
// share/comment widgets): for text corpora and retrieval pipelines
// (`topicrawl export --format text|markdown`).
//
// Algorithm: the content-scoring method of Mozilla Readability
// (readability/Readability.js, `_grabArticle`), on myhtml's HTML5 tree:
//  1. Unlikely candidates are dropped: hidden elements, <nav>, <aside>,
//     <footer>, a <header> outside <article>/<main>, ARIA roles of
//     navigation/banner/menus/dialogs, and elements whose class or id
//     matches Readability's "unlikelyCandidates" pattern (or cookie/consent
//     notes) and not its "okMaybeItsACandidate" pattern.
//  2. Every paragraph-like element (p, pre, td, section, h2-h6, and a div
//     without block children) with >= 25 characters of text scores
//     1 + commas (ASCII and CJK) + min(chars / 100, 3); the score goes to
//     its parent in full, its grandparent halved, and 3 more ancestors
//     divided by 3 x their level. An ancestor starts from its tag's base
//     score (div +5, pre/td/blockquote +3, lists and forms -3, headings
//     and th -5) plus the class weight (+-25 for Readability's positive /
//     negative class and id patterns).
//  3. Scores are scaled by (1 - link density); the best one is the
//     article. Its siblings join it when they score >= max(10, 20% of
//     it), or are paragraphs of > 80 characters with link density < 0.25,
//     or shorter link-free sentences (Readability's sibling rule).
//  4. Inside the article, lists, tables, divs, sections and forms are
//     dropped when they are mostly links (Readability's
//     `_cleanConditionally`: link density > 0.2 with class weight < 25, or
//     > 0.5), except data tables (with <th>, <caption> or >= 10 cells).
// Characters are Unicode code points (Chinese text has no spaces; a CJK
// character counts as one, as Readability's String.length does).
//
// Markdown keeps headings (#), paragraphs, ordered and unordered lists
// (nested by indentation), GFM pipe tables, fenced code blocks (with the
// language of a `language-x`/`lang-x` class), inline code, emphasis, links
// (resolved against the page URL) and images; `text` is the same blocks
// without markup, one per line.
//
// Not like Readability: no multi-pass retry with relaxed rules, no
// pagination, no byline/excerpt extraction, no "header duplicates title"
// removal; the title is the page's <title>.
//
// Bounds: input beyond `max_bytes` is cut (MainContent::truncated); nesting
// deeper than `max_depth` is flattened first (parse/depth_limiter.h).
// Thread-safe (one myhtml tree per thread).
#ifndef TOPICRAWL_PARSE_MAIN_CONTENT_H_
#define TOPICRAWL_PARSE_MAIN_CONTENT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topicrawl {

struct MainContentOptions {
  size_t max_bytes = 10 * 1024 * 1024;
  int max_depth = 512;
  // Less text than this (code points) in the article: no main content.
  size_t min_chars = 40;
};

struct MainContent {
  bool found = false;      // false: `reason` says why (text/markdown empty)
  std::string reason;
  bool truncated = false;  // the input was cut at max_bytes
  std::string title;       // <title>, whitespace folded
  std::string lang;        // <html lang> primary subtag, else from the script
  std::string text;
  std::string markdown;
  // <meta name=... content=...> of the opt-out vocabularies, names lower
  // case, in document order: robots (and any "*bot" name), tdm-reservation,
  // tdm-policy.
  std::vector<std::pair<std::string, std::string>> opt_out_meta;
};

MainContent ExtractMainContent(std::string_view utf8_html, std::string_view page_url,
                               const MainContentOptions& options = {});

// MainContent::opt_out_meta without the content: the <meta> elements of
// the page's head (the HTML up to its first "</head>", the whole page when
// it has none), for exports that list pages with their opt-out signals.
std::vector<std::pair<std::string, std::string>> ExtractOptOutMeta(
    std::string_view utf8_html, const MainContentOptions& options = {});

// Counts tokens shared by two texts: words of letters/digits (ASCII
// lower-cased) and every CJK character on its own, as multisets; F1 =
// 2PR/(P+R). Both empty: 1.
double TokenF1(std::string_view candidate, std::string_view reference);

}  // namespace topicrawl

#endif  // TOPICRAWL_PARSE_MAIN_CONTENT_H_
