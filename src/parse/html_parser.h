// HTML -> ParsedPage: title, meta, headings, visible text blocks and outlinks
// with anchor text and both link-context forms used by the strategies.
//
// Tree builder: myhtml (libmodest). Measured on 4,400 real documentation pages
// (DEPS.md) it is the fastest HTML5-conformant tree builder in Debian (107
// MB/s vs gumbo 21 MB/s). libxml2 was rejected although its SAX mode is fast:
// it is an HTML4 parser that stops at NUL bytes, finds fake links inside
// <textarea>, <title> and script strings, and its DOM mode silently drops
// content deeper than 256 levels. gumbo agrees with myhtml on 109/110 pages
// but is 5x slower and worst on hostile nesting. myhtml is used in
// single-thread mode (MyHTML_OPTIONS_PARSE_MODE_SINGLE) with one instance and
// one tree per calling thread (thread_local), reused across calls.
//
// What is extracted (HTML Living Standard section numbers):
//  * title: the first <title> (§4.2.2); description/keywords/robots from
//    <meta name> (§4.2.5.1); robots "noindex"/"nofollow"/"none";
//    page-level nofollow marks every outlink nofollow.
//  * <base href> (§4.2.3): the first one with an href sets the base that
//    every link resolves against.
//  * outlinks: <a href> and <area href> (kAnchor/kArea), <frame src> and
//    <iframe src> (kFrame), <meta http-equiv=refresh> (§4.2.5.3, kMetaRefresh;
//    NOT when inside <noscript>: LibreOffice help pages send non-JS visitors
//    to a "please enable JavaScript" page that way), <link rel=canonical>
//    (kCanonical, also in ParsedPage::canonical). Each is resolved with
//    ResolveLink(); links that do not resolve (javascript:, mailto:, file:,
//    junk such as `releases/" + base + "`) are dropped and counted.
//  * anchor text: text of the <a> subtree plus <img alt>, whitespace folded.
//  * context (seed 001, "heuristic context"): within a window of
//    `context_window_words` words on each side of the anchor, if other links
//    occur, the anchor texts of the nearest link before and the nearest link
//    after (those inside the window); otherwise the window's words. A word is
//    a run of non-space characters, except that each CJK character counts as
//    one word (Chinese has no spaces; one character ~ one short word).
//  * dom_context (seed 004 §3.2.1): the text of the DOM nodes within tree
//    distance `dom_delta` of the link element, an element's text being its
//    text content; i.e. the text under the dom_delta-th ancestor minus the
//    link's own anchor text, nearest first (by ancestor level, then sibling
//    order outwards), at most `max_context_bytes`, output in document order.
//  * text blocks: the visible text of the body split at block-level element
//    boundaries (and <br>); script/style/template/noscript/head/iframe/svg
//    content is not visible. headings: h1..h6 text in order.
//
// Hostile input is bounded: the input is cut at `max_bytes`; nesting beyond
// `max_depth` is flattened before tree building (parse/depth_limiter.h); the
// tree walk stops when `time_budget_s` is spent; at most `max_links` links are
// kept. Each bound that bites sets ParsedPage::truncated and names itself in
// ParsedPage::warning. NUL bytes are handled as the HTML standard says.
//
// Thread-safe: ParseHtml may be called from many threads at once.
#ifndef TOPICRAWL_PARSE_HTML_PARSER_H_
#define TOPICRAWL_PARSE_HTML_PARSER_H_

#include <cstddef>
#include <string_view>

#include "core/crawl_task.h"

namespace topicrawl {

struct ParseOptions {
  size_t max_bytes = 10 * 1024 * 1024;  // input beyond this is cut off
  int max_depth = 512;                  // deeper elements are flattened
  double time_budget_s = 2.0;           // wall-clock budget for the walk
  int context_window_words = 10;        // seed 001 window, words per side;
                                        // <= 0: no context computed
  int dom_delta = 5;                    // seed 004 tree distance (4..6);
                                        // <= 0: no dom_context computed
  size_t max_context_bytes = 256;       // cap for context and dom_context
                                        // (~85 CJK characters, ~40 words)
  size_t max_links = 50000;             // links kept per page
  bool keep_raw_href = true;            // fill Outlink::raw_href (the crawler
                                        // does not read it: one copy a link)
  bool link_blocks = false;             // fill Outlink::block (parse/link_block.h)
};

// Diagnostics of one parse (for tools, benchmarks and debug counters).
struct ParseStats {
  size_t input_bytes = 0;
  size_t nodes = 0;               // tree nodes visited
  size_t links_unresolved = 0;    // hrefs dropped because they did not resolve
  size_t depth_tags_dropped = 0;  // tags removed by the depth limiter
  double parse_seconds = 0;       // myhtml tree building
  double extract_seconds = 0;     // walk + contexts + URL resolution
};

// Parses UTF-8 HTML served at `page_url` (absolute http(s) URL; relative
// links cannot be resolved without it). Never fails: malformed HTML yields
// whatever the HTML5 algorithm makes of it. `stats` may be null.
ParsedPage ParseHtml(std::string_view utf8_html, std::string_view page_url,
                     const ParseOptions& options = {},
                     ParseStats* stats = nullptr);

}  // namespace topicrawl

#endif  // TOPICRAWL_PARSE_HTML_PARSER_H_
